import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { gunzipSync, gzipSync } from 'node:zlib'
import { pack, extract } from 'tar-stream'
import { describe, expect, it } from 'vitest'
import { PassphraseSeal, WrongPassphraseError } from '../../../src/service/state/passphrase-seal'
import { ArchiveError, readStateArchive, writeStateArchive, type Manifest } from '../../../src/service/state/state-archive'

const MEDIA_A = `${'a'.repeat(32)}.wav`
const MEDIA_B = `${'b'.repeat(32)}.mp3`

function digest(bytes: Buffer) {
  return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }
}

function sampleParts() {
  const rows = Buffer.from('{"kind":"agent","record":{"id":"1"}}\n{"kind":"job","record":{"id":"2"}}\n')
  const settings = Buffer.from('{"settings":{},"secretsRemoved":[]}')
  const media = new Map([
    [MEDIA_A, Buffer.alloc(70_000, 7)],
    [MEDIA_B, Buffer.from('mp3 bytes')],
  ])
  const manifest: Manifest = {
    format: 'voicedesk-state',
    version: 1,
    exportedAt: '2026-11-24T10:00:00.000Z',
    service: { name: 'voicedesk', version: '0.1.0' },
    engine: 'sqlite',
    schema: 1,
    counts: { agents: 1, jobs: 1 },
    sealed: false,
    keyCheck: null,
    secretCount: 0,
    rows: digest(rows),
    settings: digest(settings),
  }
  return { manifest, rows, settings, media }
}

async function archiveOf(parts = sampleParts()): Promise<Buffer> {
  const stream = writeStateArchive({
    manifest: parts.manifest,
    rows: () => Readable.from([parts.rows]),
    settings: parts.settings,
    media: [...parts.media].map(([name, bytes]) => ({ name, open: async () => ({ size: bytes.length, stream: Readable.from([bytes]) }) })),
  })
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

async function readAll(archive: Buffer) {
  const seen: { manifest?: Manifest; rows?: Buffer; settings?: unknown; media: Map<string, Buffer> } = { media: new Map() }
  await readStateArchive(Readable.from([archive]), {
    manifest: async (manifest) => void (seen.manifest = manifest),
    rows: async (bytes) => {
      const chunks: Buffer[] = []
      for await (const chunk of bytes) chunks.push(chunk)
      seen.rows = Buffer.concat(chunks)
    },
    settings: async (json) => void (seen.settings = json),
    media: async (name, _size, bytes) => {
      const chunks: Buffer[] = []
      for await (const chunk of bytes) chunks.push(chunk as Buffer)
      seen.media.set(name, Buffer.concat(chunks))
    },
  })
  return seen
}

/** Rewrites the tar inside a .tar.gz: `change` may edit an entry's bytes (by name). */
async function repack(archive: Buffer, change: (name: string, bytes: Buffer) => Buffer | undefined): Promise<Buffer> {
  const entries: { name: string; bytes: Buffer }[] = []
  const reader = extract()
  const done = (async () => {
    for await (const entry of reader) {
      const chunks: Buffer[] = []
      for await (const chunk of entry) chunks.push(chunk as Buffer)
      entries.push({ name: entry.header.name, bytes: Buffer.concat(chunks) })
    }
  })()
  reader.end(gunzipSync(archive))
  await done
  const writer = pack()
  for (const { name, bytes } of entries) {
    const changed = change(name, bytes)
    if (changed !== undefined) writer.entry({ name, size: changed.length }, changed)
  }
  writer.finalize()
  const chunks: Buffer[] = []
  for await (const chunk of writer) chunks.push(chunk as Buffer)
  return gzipSync(Buffer.concat(chunks))
}

describe('the state archive', () => {
  it('reads back what it wrote: manifest first, rows, settings, every media file byte for byte', async () => {
    const parts = sampleParts()
    const seen = await readAll(await archiveOf(parts))
    expect(seen.manifest).toEqual(parts.manifest)
    expect(seen.rows?.equals(parts.rows)).toBe(true)
    expect(seen.settings).toEqual({ settings: {}, secretsRemoved: [] })
    expect([...seen.media.keys()]).toEqual([MEDIA_A, MEDIA_B])
    expect(seen.media.get(MEDIA_A)?.equals(parts.media.get(MEDIA_A)!)).toBe(true)
  })

  it('refuses bytes that are not a .tar.gz, a tar of something else, and a foreign manifest', async () => {
    await expect(readAll(Buffer.from('not an archive at all'))).rejects.toThrow(/not a readable \.tar\.gz/)
    const foreign = await repack(await archiveOf(), (name, bytes) => (name === 'manifest.json' ? Buffer.from('{"format":"something-else"}') : bytes))
    await expect(readAll(foreign)).rejects.toThrow(/not of a VoiceDesk state archive/)
    const noManifest = await repack(await archiveOf(), (name, bytes) => (name === 'manifest.json' ? undefined : bytes))
    await expect(readAll(noManifest)).rejects.toThrow(/does not start with manifest\.json/)
  })

  it('refuses a changed row, a changed media file, an extra entry, and an archive cut short', async () => {
    const archive = await archiveOf()
    const changedRow = await repack(archive, (name, bytes) => (name === 'rows.jsonl' ? Buffer.from(bytes.toString().replace('"1"', '"9"')) : bytes))
    await expect(readAll(changedRow)).rejects.toThrow(/rows\.jsonl does not match the manifest's digest/)
    const changedMedia = await repack(archive, (name, bytes) => (name === `media/${MEDIA_B}` ? Buffer.from('mp3 bytez') : bytes))
    await expect(readAll(changedMedia)).rejects.toThrow(/does not match its digest/)
    const dropped = await repack(archive, (name, bytes) => (name === `media/${MEDIA_A}` ? undefined : bytes))
    await expect(readAll(dropped)).rejects.toThrow(/lacks media/)
    const cut = archive.subarray(0, Math.floor(archive.length / 2))
    await expect(readAll(cut)).rejects.toThrow(ArchiveError)
    const flipped = Buffer.from(archive)
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff
    await expect(readAll(flipped)).rejects.toThrow(ArchiveError)
  })
})

describe('secrets sealed under a passphrase', () => {
  it('open with the passphrase, and a wrong one is a clear error, never garbage', async () => {
    const seal = await PassphraseSeal.create('correct horse battery')
    const sealed = seal.seal('whsec_the-secret')
    expect(sealed).not.toContain('the-secret')
    const again = await PassphraseSeal.open('correct horse battery', seal.parameters)
    expect(again.open(sealed)).toBe('whsec_the-secret')
    await expect(PassphraseSeal.open('wrong horse battery', seal.parameters)).rejects.toThrow(WrongPassphraseError)
    const tampered = sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA')
    expect(() => again.open(tampered)).toThrow(WrongPassphraseError)
  })
})
