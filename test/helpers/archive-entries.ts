import { createHash } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'
import { extract, pack } from 'tar-stream'

/*
 * State archives taken apart and put together again, for tests that hand the service archives
 * it never wrote: changed rows with the manifest's digests made right, and gzip bombs built
 * without ever holding the bomb's bytes.
 */

export interface ArchiveEntry {
  name: string
  bytes: Buffer
}

/** The entries of a .tar.gz, in order, whole. */
export async function entriesOf(archive: Uint8Array): Promise<ArchiveEntry[]> {
  const entries: ArchiveEntry[] = []
  const reader = extract()
  const read = (async () => {
    for await (const entry of reader) {
      const chunks: Buffer[] = []
      for await (const chunk of entry) chunks.push(chunk as Buffer)
      entries.push({ name: entry.header.name, bytes: Buffer.concat(chunks) })
    }
  })()
  reader.end(gunzipSync(archive))
  await read
  return entries
}

/** A .tar.gz of `entries`, in order. */
export async function archiveOf(entries: ArchiveEntry[]): Promise<Buffer> {
  const writer = pack()
  for (const { name, bytes } of entries) writer.entry({ name, size: bytes.length }, bytes)
  writer.finalize()
  const chunks: Buffer[] = []
  for await (const chunk of writer) chunks.push(chunk as Buffer)
  return gzipSync(Buffer.concat(chunks))
}

export function digestOf(bytes: Buffer): { size: number; sha256: string } {
  return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }
}

/** The archive with rows.jsonl changed by `change`, the manifest's digest made to match (and its counts changed by `counts`, when given). */
export async function withRows(
  archive: Uint8Array,
  change: (rows: string) => string,
  counts?: (given: Record<string, number>) => Record<string, number>,
): Promise<Buffer> {
  const entries = await entriesOf(archive)
  const rows = Buffer.from(change(entries.find((entry) => entry.name === 'rows.jsonl')!.bytes.toString('utf8')))
  return archiveOf(
    entries.map((entry) => {
      if (entry.name === 'rows.jsonl') return { name: entry.name, bytes: rows }
      if (entry.name !== 'manifest.json') return entry
      const manifest = JSON.parse(entry.bytes.toString('utf8')) as { rows: unknown; counts: Record<string, number> }
      manifest.rows = digestOf(rows)
      if (counts) manifest.counts = counts(manifest.counts)
      return { name: entry.name, bytes: Buffer.from(JSON.stringify(manifest)) }
    }),
  )
}

/**
 * A gzip bomb shaped as a state archive: the manifest of `archive` (its rows' size set to
 * `rowsBytes`), then a rows.jsonl of `rowsBytes` bytes of `fill` (one line when `fill` holds
 * no newline). Built as gzip members, the repeated MiB compressed once: the bomb's bytes are
 * never held, and the file is small (about 1 KB per MiB of `fill`).
 */
export async function rowsBomb(archive: Uint8Array, rowsBytes: number, fill = 'a'): Promise<Buffer> {
  const manifestEntry = (await entriesOf(archive)).find((entry) => entry.name === 'manifest.json')!
  const manifest = JSON.parse(manifestEntry.bytes.toString('utf8')) as { rows: { size: number; sha256: string } }
  manifest.rows = { size: rowsBytes, sha256: '0'.repeat(64) }
  const block = Buffer.alloc(1024 * 1024, fill)
  if (rowsBytes % block.length !== 0) throw new Error('rowsBytes must be a whole number of MiB')
  const blockMember = gzipSync(block)
  const writer = pack()
  const members: Buffer[] = []
  const collected = (async () => {
    for await (const chunk of writer) members.push(chunk === block ? blockMember : gzipSync(chunk as Buffer))
  })()
  writer.entry({ name: 'manifest.json' }, JSON.stringify(manifest))
  const rows = writer.entry({ name: 'rows.jsonl', size: rowsBytes })
  for (let written = 0; written < rowsBytes; written += block.length) {
    if (!rows.write(block)) await new Promise<void>((resolve) => rows.once('drain', () => resolve()))
  }
  rows.end(undefined)
  writer.finalize()
  await collected
  return Buffer.concat(members)
}
