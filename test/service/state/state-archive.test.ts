import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { archiveOf as packEntries, entriesOf } from '../../helpers/archive-entries'
import { PassphraseSeal, WrongPassphraseError } from '../../../src/service/state/passphrase-seal'
import {
  ArchiveError,
  DEFAULT_ARCHIVE_LIMITS,
  linesOf,
  readStateArchive,
  writeStateArchive,
  type ArchiveLimits,
  type Manifest,
} from '../../../src/service/state/state-archive'

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

async function readAll(archive: Buffer, limits?: ArchiveLimits) {
  const seen: { manifest?: Manifest; rows?: Buffer; settings?: unknown; media: Map<string, Buffer> } = { media: new Map() }
  await readStateArchive(
    Readable.from([archive]),
    {
      manifest: async (manifest) => void (seen.manifest = manifest),
      rows: async (lines) => {
        const read: string[] = []
        for await (const line of lines) read.push(line + '\n')
        seen.rows = Buffer.from(read.join(''))
      },
      settings: async (json) => void (seen.settings = json),
      media: async (name, _size, bytes) => {
        const chunks: Buffer[] = []
        for await (const chunk of bytes) chunks.push(chunk as Buffer)
        seen.media.set(name, Buffer.concat(chunks))
      },
    },
    limits,
  )
  return seen
}

/** Rewrites the tar inside a .tar.gz: `change` may edit an entry's bytes (by name), or drop it (undefined). */
async function repack(archive: Buffer, change: (name: string, bytes: Buffer) => Buffer | undefined): Promise<Buffer> {
  return packEntries(
    (await entriesOf(archive)).flatMap(({ name, bytes }) => {
      const changed = change(name, bytes)
      return changed === undefined ? [] : [{ name, bytes: changed }]
    }),
  )
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
    const foreign = await repack(await archiveOf(), (name, bytes) =>
      name === 'manifest.json' ? Buffer.from('{"format":"something-else"}') : bytes,
    )
    await expect(readAll(foreign)).rejects.toThrow(/not of a VoiceDesk state archive/)
    const noManifest = await repack(await archiveOf(), (name, bytes) => (name === 'manifest.json' ? undefined : bytes))
    await expect(readAll(noManifest)).rejects.toThrow(/does not start with manifest\.json/)
  })

  it('refuses a changed row, a changed media file, an extra entry, and an archive cut short', async () => {
    const archive = await archiveOf()
    const changedRow = await repack(archive, (name, bytes) =>
      name === 'rows.jsonl' ? Buffer.from(bytes.toString().replace('"1"', '"9"')) : bytes,
    )
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

describe('the limits, checked while reading', () => {
  const limits = (given: Partial<ArchiveLimits>): ArchiveLimits => ({ ...DEFAULT_ARCHIVE_LIMITS, ...given })

  it('split rows.jsonl at \\n wherever the chunks end, keep a last line without one, and refuse a line too long', async () => {
    const chunks = ['{"a":1}\n{"b"', ':2}\r\n', '\n', '{"c":3}'].map((text) => Buffer.from(text))
    const lines: string[] = []
    for await (const line of linesOf(Readable.from(chunks), 100, 10)) lines.push(line)
    expect(lines).toEqual(['{"a":1}', '{"b":2}\r', '', '{"c":3}'])
    const collect = async (source: Buffer[], maxLineBytes: number, maxLines: number) => {
      for await (const _line of linesOf(Readable.from(source), maxLineBytes, maxLines)) {
        // read on
      }
    }
    await expect(collect([Buffer.from('12345'), Buffer.from('6\n')], 5, 10)).rejects.toThrow(/line 1 is longer than 5 bytes/)
    await expect(collect([Buffer.from('ok\n123456\n')], 5, 10)).rejects.toThrow(/line 2 is longer than 5 bytes/)
    await expect(collect([Buffer.from('a\nb\nc\n')], 5, 2)).rejects.toThrow(/more than the 2 rows the manifest counts/)
    // Exactly at the limits is fine.
    await collect([Buffer.from('12345\n12345')], 5, 2)
  })

  it('refuse an archive larger than the limit once ungzipped, a manifest counting too many rows, and bytes after the last entry', async () => {
    const archive = await archiveOf()
    await readAll(archive, limits({ maxBytes: gunzipSync(archive).length }))
    await expect(readAll(archive, limits({ maxBytes: 50_000 }))).rejects.toThrow(/more than 48\.8 KiB once ungzipped/)
    await expect(readAll(archive, limits({ maxRows: 1 }))).rejects.toThrow(/counts 2 rows, more than the 1 an import reads/)
    await expect(readAll(archive, limits({ maxLineBytes: 10 }))).rejects.toThrow(/rows\.jsonl line 1 is longer than 10 bytes/)
    // A gzip of zeros after the tar: its end blocks are fine, a bomb of them is not.
    const tar = gunzipSync(archive)
    await readAll(gzipSync(Buffer.concat([tar, Buffer.alloc(10_240)])))
    await expect(readAll(gzipSync(Buffer.concat([tar, Buffer.alloc(8 * 1024 * 1024)])))).rejects.toThrow(/goes on after media\.sha256/)
  })

  it('refuse rows.jsonl of another size than the manifest says before reading it', async () => {
    const changed = await repack(await archiveOf(), (name, bytes) =>
      name === 'rows.jsonl' ? Buffer.concat([bytes, Buffer.from('{"kind":"agent","record":{}}\n')]) : bytes,
    )
    await expect(readAll(changed)).rejects.toThrow(/rows\.jsonl is \d+ bytes, the manifest says \d+/)
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
