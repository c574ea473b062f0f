import { createHash } from 'node:crypto'
import { Readable, Transform } from 'node:stream'
import { createGunzip, createGzip } from 'node:zlib'
import { extract, pack } from 'tar-stream'
import { z } from 'zod'
import { describeBytes } from '../../store/media-errors'
import { MEDIA_NAME } from '../ops/media-names'
import { present } from '../../shared/present'

/*
 * The state archive (docs/api.md, "State: export, import, snapshots, reset"): a gzipped tar
 * whose entries come in a fixed order, so both ends stream it:
 *   manifest.json     what the archive is (format, version, counts, digests, how secrets are sealed)
 *   rows.jsonl        one engine-neutral row of the project per line
 *   settings.json     the data folder's settings a user may set, secrets removed or sealed
 *   media/<name>      every media file a job names
 *   media.sha256      "<sha256>  <name>" per media file: their digests, known only once written
 * Any other entry, order or digest is refused: a tampered or foreign archive never reaches the store.
 */

export const ARCHIVE_FORMAT = 'voicedesk-state'
export const ARCHIVE_VERSION = 1
export const ARCHIVE_CONTENT_TYPE = 'application/gzip'

const DigestSchema = z.object({ size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })

export const PassphraseParametersSchema = z.object({
  kdf: z.literal('scrypt'),
  salt: z.string().min(1).max(200),
  N: z.number().int(),
  r: z.number().int(),
  p: z.number().int(),
  check: z.string().min(1).max(500),
})

export const ManifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  exportedAt: z.string(),
  service: z.object({ name: z.literal('voicedesk'), version: z.string() }),
  /** The storage engine the rows were read from (rows are engine-neutral: any engine imports them). */
  engine: z.enum(['sqlite', 'postgres']),
  /** The version of the rows' shape (ProjectRow), not of either engine's tables. */
  schema: z.number().int().positive(),
  /** Rows per kind. */
  counts: z.record(z.string(), z.number().int().nonnegative()),
  /** True when the secrets (of rows and settings) are sealed under a passphrase (`passphrase` says how). */
  sealed: z.boolean(),
  passphrase: PassphraseParametersSchema.optional(),
  /**
   * Unsealed archives only: a value sealed with the exporting service's own key. The rows'
   * secrets stay sealed with that key (never in clear); a service whose key opens this value
   * (the same data folder, or the same team) can use them, any other refuses the import.
   */
  keyCheck: z.string().max(500).nullable(),
  /** How many of the rows' secret fields hold a value (0: the key does not matter). */
  secretCount: z.number().int().nonnegative(),
  rows: DigestSchema,
  settings: DigestSchema,
})
export type Manifest = z.infer<typeof ManifestSchema>

/** The archive is not one VoiceDesk wrote, or was changed or cut since: what is wrong, for the caller. */
export class ArchiveError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ArchiveError'
  }
}

const MAX_SMALL_ENTRY = 16 * 1024 * 1024

/**
 * What an archive may hold, checked while it is read (docs/api.md, "State"): a bomb, a line
 * with no end or rows without number are refused at the first byte past a limit, never after
 * they were held or written whole.
 */
export interface ArchiveLimits {
  /** The most bytes the tar holds once ungzipped, every entry and media file included. */
  maxBytes: number
  /** The longest line of rows.jsonl, in bytes. */
  maxLineBytes: number
  /** The most rows (lines of rows.jsonl) an archive holds. */
  maxRows: number
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxBytes: 32 * 1024 ** 3,
  maxLineBytes: 16 * 1024 ** 2,
  maxRows: 5_000_000,
}

/** What a tar may hold after its last entry: its end blocks and the padding of its last record (tar pads to 10 KiB). */
const MAX_BYTES_AFTER_LAST_ENTRY = 64 * 1024

/** A media file to put in the archive: its name, size and bytes (opened when its turn comes). */
export interface ArchiveMedia {
  name: string
  open(): Promise<{ size: number; stream: Readable } | undefined>
}

export interface ArchiveParts {
  manifest: Manifest
  /** rows.jsonl, exactly `manifest.rows.size` bytes. */
  rows: () => Readable
  settings: Buffer
  media: Iterable<ArchiveMedia> | AsyncIterable<ArchiveMedia>
}

/**
 * The archive as a gzip stream, written as it is read (backpressure all the way: a big project
 * never sits in memory). A media file a job names but the media store no longer has is left
 * out (the job reads as before: without it).
 */
export function writeStateArchive(parts: ArchiveParts): Readable {
  const tar = pack()
  const gzip = createGzip()
  const write = async () => {
    const mtime = new Date(parts.manifest.exportedAt)
    const small = (name: string, bytes: Buffer) =>
      new Promise<void>((resolve, reject) =>
        tar.entry({ name, size: bytes.length, mtime, mode: 0o600 }, bytes, (error) => (error ? reject(error) : resolve())),
      )
    const streamed = async (name: string, size: number, source: Readable): Promise<string> => {
      const hash = createHash('sha256')
      let written = 0
      await new Promise<void>((resolve, reject) => {
        const entry = tar.entry({ name, size, mtime, mode: 0o600 }, (error) => (error ? reject(error) : resolve()))
        void (async () => {
          try {
            for await (const chunk of source) {
              const bytes = chunk as Buffer
              written += bytes.length
              hash.update(bytes)
              if (!entry.write(bytes)) await new Promise<void>((drained) => entry.once('drain', () => drained()))
            }
            if (written !== size) throw new Error(`${name} changed while it was archived (${written} bytes, not ${size})`)
            entry.end(undefined)
          } catch (error) {
            entry.destroy(error as Error)
            reject(error)
          }
        })()
      })
      return hash.digest('hex')
    }
    await small('manifest.json', Buffer.from(JSON.stringify(parts.manifest)))
    await streamed('rows.jsonl', parts.manifest.rows.size, parts.rows())
    await small('settings.json', parts.settings)
    const digests: string[] = []
    for await (const media of parts.media) {
      const opened = await media.open()
      if (!opened) continue
      digests.push(`${await streamed(`media/${media.name}`, opened.size, opened.stream)}  ${media.name}`)
    }
    await small('media.sha256', Buffer.from(digests.map((line) => line + '\n').join('')))
    tar.finalize()
  }
  write().catch((error: unknown) => {
    tar.destroy(error as Error)
    gzip.destroy(error as Error)
  })
  tar.on('error', (error: Error) => gzip.destroy(error))
  return Readable.from(tar).pipe(gzip)
}

/** What the reader hands to its consumer, entry by entry, in the archive's order. */
export interface ArchiveConsumer {
  /** The manifest, checked against its schema. Throw to refuse the archive (a wrong passphrase, a project not empty). */
  manifest(manifest: Manifest): Promise<void>
  /**
   * rows.jsonl's lines (without their newline), each at most `maxLineBytes` and no more of
   * them than the manifest counts; consume them all. The reader checks the entry's digest once
   * consumed (throwing ArchiveError after this returned).
   */
  rows(lines: AsyncIterable<string>): Promise<void>
  settings(json: unknown): Promise<void>
  /** One media file; `bytes` must be consumed (or the reader waits). Its digest is checked at the end. */
  media(name: string, size: number, bytes: Readable): Promise<void>
}

/** manifest.json, checked: ArchiveError when it is not a VoiceDesk manifest this version reads. */
function parseManifest(bytes: Buffer, name: string): Manifest {
  const parsed = ManifestSchema.safeParse(parseJson(bytes, name))
  if (parsed.success) return parsed.data
  const issue = present(parsed.error.issues[0], 'the first issue of a failed parse')
  throw new ArchiveError(
    issue.path[0] === 'format'
      ? 'manifest.json is not of a VoiceDesk state archive (format is not "voicedesk-state")'
      : issue.path[0] === 'version'
        ? `The archive is of a version this VoiceDesk does not read (it reads version ${ARCHIVE_VERSION})`
        : `manifest.json is not valid: ${issue.path.join('.') || 'the manifest'}: ${issue.message}`,
  )
}

/** The manifest, which the entries' order puts before every other entry (checked as they come). */
function readFirst(manifest: Manifest | undefined): Manifest {
  return present(manifest, 'manifest.json, the first entry')
}

/** media.sha256 (`<digest>  <name>` lines) against the digests of the media entries read before it. */
function checkMediaDigests(bytes: Buffer, mediaDigests: ReadonlyMap<string, string>): void {
  const listed = new Map<string, string>()
  for (const line of bytes.toString('utf8').split('\n')) {
    if (line === '') continue
    const [, digest, mediaName] = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line) ?? []
    if (digest === undefined || mediaName === undefined) throw new ArchiveError('media.sha256 is not valid: the archive was changed')
    listed.set(mediaName, digest)
  }
  for (const [mediaName, digest] of mediaDigests) {
    if (listed.get(mediaName) !== digest)
      throw new ArchiveError(`media/${mediaName} does not match its digest: the archive was changed or damaged`)
  }
  if (listed.size !== mediaDigests.size) throw new ArchiveError('The archive lacks media that media.sha256 lists: it was cut or changed')
}

/**
 * Reads an archive from `source`, calling `consumer` for each entry in order, and checks every
 * size and digest; ArchiveError when the bytes are not a VoiceDesk state archive, are cut, or
 * were changed. The consumer's own errors come through as they are.
 */
export async function readStateArchive(
  source: Readable,
  given: ArchiveConsumer,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<Manifest> {
  /** Errors the consumer threw: passed on as they are, never taken for a bad archive. */
  const consumerErrors = new WeakSet<object>()
  const guarded =
    <A extends unknown[]>(call: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      try {
        await call(...args)
      } catch (error) {
        // An entry destroyed under the consumer is the archive's failure (cut, damaged, past a limit), not the consumer's.
        if (typeof error === 'object' && error !== null && !isStreamDestroyed(error)) consumerErrors.add(error)
        throw error
      }
    }
  const consumer: ArchiveConsumer = {
    manifest: guarded((manifest: Manifest) => given.manifest(manifest)),
    rows: guarded((lines: AsyncIterable<string>) => given.rows(lines)),
    settings: guarded((json: unknown) => given.settings(json)),
    media: guarded((name: string, size: number, bytes: Readable) => given.media(name, size, bytes)),
  }
  const gunzip = createGunzip()
  const tar = extract()
  /** Counts the ungzipped bytes, failing at the first past the limit (lowered to the tar's end padding after its last entry). */
  let ungzipped = 0
  let allowedBytes = limits.maxBytes
  let limitFailure: ArchiveError | undefined
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      ungzipped += chunk.length
      if (ungzipped <= allowedBytes) return callback(null, chunk)
      callback(
        (limitFailure = new ArchiveError(
          allowedBytes === limits.maxBytes
            ? `The archive holds more than ${describeBytes(limits.maxBytes)} once ungzipped, the most an import reads`
            : 'The archive goes on after media.sha256, its last entry: it was changed',
        )),
      )
    },
  })
  counter.on('error', (error) => tar.destroy(error))
  /** The source's own failure (the client went away, a size limit): reported as it is, not as a bad archive. */
  let sourceFailure: Error | undefined
  let gzipFailure: ArchiveError | undefined
  source.on('error', (error) => {
    sourceFailure ??= error
    gunzip.destroy(error)
  })
  gunzip.on('error', (error) => {
    if (error === sourceFailure) return tar.destroy(error)
    gzipFailure ??= new ArchiveError(`The archive is not a readable .tar.gz (${error.message})`)
    tar.destroy(gzipFailure)
  })
  source.pipe(gunzip).pipe(counter).pipe(tar)

  const order = ['manifest.json', 'rows.jsonl', 'settings.json']
  let manifest: Manifest | undefined
  const mediaDigests = new Map<string, string>()
  let sawChecksums = false
  try {
    for await (const entry of tar) {
      const name = entry.header.name
      const size = entry.header.size ?? 0
      const expected = order.shift()
      if (sawChecksums) throw new ArchiveError(`The archive has an entry after media.sha256 (${name}): it was changed`)
      if (entry.header.type !== 'file')
        throw new ArchiveError(
          `The archive holds ${entry.header.type ?? 'an entry'} ${name}, not a file: it is not a VoiceDesk state archive`,
        )
      if (expected !== undefined && name !== expected) {
        throw new ArchiveError(
          expected === 'manifest.json'
            ? `The archive does not start with manifest.json (it starts with ${name}): it is not a VoiceDesk state archive`
            : `The archive holds ${name} where ${expected} belongs: it was changed`,
        )
      }
      if (name === 'manifest.json') {
        manifest = parseManifest(await readSmall(entry, size, name), name)
        checkManifestLimits(manifest, limits)
        await consumer.manifest(manifest)
      } else if (name === 'rows.jsonl') {
        const declared = readFirst(manifest).rows
        if (size !== declared.size)
          throw new ArchiveError(`rows.jsonl is ${size} bytes, the manifest says ${declared.size}: the archive was changed or damaged`)
        const hash = createHash('sha256')
        let length = 0
        const counted = (async function* () {
          for await (const chunk of entry) {
            const bytes = chunk as Buffer
            length += bytes.length
            hash.update(bytes)
            yield bytes
          }
        })()
        const maxRows = Object.values(readFirst(manifest).counts).reduce((sum, count) => sum + count, 0)
        const lines = linesOf(counted, limits.maxLineBytes, maxRows)
        await consumer.rows(lines)
        for await (const _rest of lines) {
          // drained: the digest covers every byte
        }
        checkDigest(name, declared, length, hash.digest('hex'))
      } else if (name === 'settings.json') {
        const bytes = await readSmall(entry, size, name)
        checkDigest(name, readFirst(manifest).settings, bytes.length, createHash('sha256').update(bytes).digest('hex'))
        await consumer.settings(parseJson(bytes, name))
      } else if (name.startsWith('media/')) {
        const mediaName = name.slice('media/'.length)
        if (!MEDIA_NAME.test(mediaName))
          throw new ArchiveError(`The archive holds media with a name VoiceDesk never gives (${name}): it was changed`)
        if (mediaDigests.has(mediaName)) throw new ArchiveError(`The archive holds ${name} twice: it was changed`)
        const hash = createHash('sha256')
        const bytes = Readable.from(
          (async function* () {
            for await (const chunk of entry) {
              hash.update(chunk as Buffer)
              yield chunk as Buffer
            }
          })(),
        )
        // The entry's own failure (a cut archive) comes through the tar's loop below; a consumer that
        // stopped reading early must not turn it into an unhandled 'error' event.
        bytes.on('error', () => undefined)
        await consumer.media(mediaName, size, bytes)
        bytes.resume()
        for await (const _rest of entry) {
          // whatever the consumer left unread
        }
        mediaDigests.set(mediaName, hash.digest('hex'))
      } else if (name === 'media.sha256') {
        sawChecksums = true
        allowedBytes = Math.min(allowedBytes, ungzipped + MAX_BYTES_AFTER_LAST_ENTRY)
        checkMediaDigests(await readSmall(entry, size, name), mediaDigests)
      } else {
        throw new ArchiveError(`The archive holds ${name}, which a VoiceDesk state archive never does: it was changed, or is not one`)
      }
    }
  } catch (error) {
    source.unpipe()
    gunzip.destroy()
    counter.destroy()
    if (sourceFailure) throw sourceFailure
    if (error instanceof ArchiveError || (typeof error === 'object' && error !== null && consumerErrors.has(error))) throw error
    const archiveFailure = gzipFailure ?? limitFailure
    if (archiveFailure) throw archiveFailure
    if (isTarFailure(error)) throw new ArchiveError(`The archive is not a readable .tar.gz (${(error as Error).message})`)
    if (isStreamDestroyed(error)) throw new ArchiveError('The archive ends in the middle of an entry: it was cut short or damaged')
    throw error
  }
  if (sourceFailure) throw sourceFailure
  const archiveFailure = gzipFailure ?? limitFailure
  if (archiveFailure) throw archiveFailure
  if (!manifest) throw new ArchiveError('The archive is empty: it is not a VoiceDesk state archive')
  if (!sawChecksums) throw new ArchiveError('The archive ends before media.sha256: it was cut short')
  return manifest
}

function checkManifestLimits(manifest: Manifest, limits: ArchiveLimits): void {
  if (manifest.rows.size > limits.maxBytes) {
    throw new ArchiveError(
      `manifest.json says rows.jsonl is ${manifest.rows.size} bytes, more than the ${describeBytes(limits.maxBytes)} an import reads`,
    )
  }
  const rows = Object.values(manifest.counts).reduce((sum, count) => sum + count, 0)
  if (rows > limits.maxRows) throw new ArchiveError(`manifest.json counts ${rows} rows, more than the ${limits.maxRows} an import reads`)
}

/**
 * The lines of `bytes` (split at \n, without it), refusing a line longer than `maxLineBytes`
 * and more than `maxLines` lines as soon as it is met: a line is held in memory only up to the
 * limit. Plain iteration, no stream in between, so a failure is one rejection where it arose.
 */
export async function* linesOf(bytes: AsyncIterable<Buffer>, maxLineBytes: number, maxLines: number): AsyncGenerator<string> {
  let pending: Buffer[] = []
  let pendingLength = 0
  let count = 0
  const line = (last: Buffer): string => {
    count += 1
    if (count > maxLines)
      throw new ArchiveError(`rows.jsonl holds more than the ${maxLines} rows the manifest counts: the archive was changed`)
    const text = pending.length === 0 ? last.toString('utf8') : Buffer.concat([...pending, last]).toString('utf8')
    pending = []
    pendingLength = 0
    return text
  }
  const tooLong = () =>
    new ArchiveError(`rows.jsonl line ${count + 1} is longer than ${describeBytes(maxLineBytes)}, the longest row an import reads`)
  for await (const chunk of bytes) {
    let start = 0
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      if (pendingLength + end - start > maxLineBytes) throw tooLong()
      yield line(chunk.subarray(start, end))
      start = end + 1
    }
    if (start < chunk.length) {
      pendingLength += chunk.length - start
      if (pendingLength > maxLineBytes) throw tooLong()
      pending.push(chunk.subarray(start))
    }
  }
  if (pendingLength > 0) yield line(Buffer.alloc(0))
}

/** tar-stream's error for an entry whose archive failed under it (its reader sees only this). */
function isStreamDestroyed(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'STREAM_DESTROYED'
}

function isTarFailure(error: unknown): boolean {
  const message = (error as Error | undefined)?.message ?? ''
  return /tar|header|Unexpected end|Invalid/i.test(message)
}

async function readSmall(entry: AsyncIterable<unknown>, size: number, name: string): Promise<Buffer> {
  if (size > MAX_SMALL_ENTRY) throw new ArchiveError(`${name} is ${size} bytes, more than a VoiceDesk state archive ever holds there`)
  const chunks: Buffer[] = []
  for await (const chunk of entry) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function parseJson(bytes: Buffer, name: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown
  } catch {
    throw new ArchiveError(`${name} is not valid JSON: the archive was changed or damaged`)
  }
}

function checkDigest(name: string, expected: { size: number; sha256: string }, size: number, sha256: string): void {
  if (size !== expected.size || sha256 !== expected.sha256)
    throw new ArchiveError(`${name} does not match the manifest's digest: the archive was changed or damaged`)
}
