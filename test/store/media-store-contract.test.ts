import { randomBytes } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { FileMediaStore } from '../../src/store/file-media-store'
import { MediaTooLargeError } from '../../src/store/media-errors'
import { PARTIAL_SUFFIX } from '../../src/store/partial-media-files'
import type { MediaStore } from '../../src/store/ports'
import { PostgresMediaStore } from '../../src/store/postgres/media-store'
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store'
import { isDiskFull } from '../../src/store/storage-errors'
import { startPostgresCluster, type PostgresCluster } from '../helpers/postgres-cluster'
import { makeTempDir } from '../helpers/temp-dir'

/*
 * The media store's streamed writes, deletes and local files, on both stores: files in a data
 * folder (SQLite's runtime) and chunks in a real PostgreSQL database (team mode).
 */

let cluster: Promise<PostgresCluster> | undefined
const postgresCluster = () => (cluster ??= startPostgresCluster())
const stores: PostgresStore[] = []
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close()
})
afterAll(async () => {
  if (cluster) await (await cluster).stop()
})

interface Opened {
  media: MediaStore
  /** Bytes of media kept anywhere, whole or not (files of the folder, rows of the tables). */
  leftovers(): Promise<string[]>
}

const ENGINES: { name: string; open(spool?: string): Promise<Opened> }[] = [
  {
    name: 'files',
    async open() {
      const directory = makeTempDir()
      return { media: new FileMediaStore(directory), leftovers: async () => readdirSync(directory) }
    },
  },
  {
    name: 'postgres',
    async open(spool?: string) {
      const store = await openPostgresStore({ url: await (await postgresCluster()).createDatabase() })
      stores.push(store)
      // 1 KiB chunks: the tests' few KiB cross many chunk edges.
      return {
        media: new PostgresMediaStore(store.pool, 1024, spool),
        leftovers: async () => {
          const { rows } = await store.pool.query<{ what: string }>(
            "SELECT 'media ' || name AS what FROM media UNION ALL SELECT 'chunk ' || name || ' ' || chunk FROM media_chunks",
          )
          return rows.map((row) => row.what)
        },
      }
    },
  },
]

/** `total` bytes in pieces of `piece`, made as they are read (nothing held ahead). */
function generated(total: number, piece = 700, seed = 7): { stream: Readable; bytes: () => Buffer } {
  const all = Buffer.alloc(total)
  for (let i = 0; i < total; i += 1) all[i] = (i * seed + (i >> 8)) & 255
  let sent = 0
  const stream = new Readable({
    read() {
      if (sent >= total) return void this.push(null)
      const next = all.subarray(sent, Math.min(total, sent + piece))
      sent += next.length
      this.push(Buffer.from(next))
    },
  })
  return { stream, bytes: () => all }
}

describe.each(ENGINES)('media store on $name', (engine) => {
  it('stores a stream whole and reads it back, whole and by range', async () => {
    const { media } = await engine.open()
    const source = generated(10_000)
    expect(await media.putStream('clip.mp4', source.stream, { maxBytes: 10_000 })).toEqual({ size: 10_000 })
    expect(await media.size('clip.mp4')).toBe(10_000)
    expect((await buffer((await media.open('clip.mp4'))!.stream)).equals(source.bytes())).toBe(true)
    const range = await media.open('clip.mp4', { start: 1000, end: 3100 })
    expect((await buffer(range!.stream)).equals(source.bytes().subarray(1000, 3101))).toBe(true)
    // Replaced by a second write of the same name; an empty stream is empty media.
    await media.putStream('clip.mp4', Readable.from([Buffer.from('short')]), { maxBytes: 100 })
    expect((await buffer((await media.open('clip.mp4'))!.stream)).toString()).toBe('short')
    expect(await media.putStream('empty.mp4', Readable.from([]), { maxBytes: 100 })).toEqual({ size: 0 })
    expect(await media.size('empty.mp4')).toBe(0)
  })

  it('refuses a stream longer than maxBytes with MediaTooLargeError, keeping nothing and destroying the source', async () => {
    const { media, leftovers } = await engine.open()
    const source = generated(5000)
    const refusal = await media.putStream('big.mp4', source.stream, { maxBytes: 4999 }).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(MediaTooLargeError)
    expect(refusal).toMatchObject({ code: 'MEDIA_TOO_LARGE', maxBytes: 4999 })
    expect(source.stream.destroyed).toBe(true)
    expect(await media.size('big.mp4')).toBeUndefined()
    expect(await leftovers()).toEqual([])
    // Exactly the limit is fine.
    expect(await media.putStream('big.mp4', generated(5000).stream, { maxBytes: 5000 })).toEqual({ size: 5000 })
  })

  it('keeps nothing when the source fails or the signal aborts midway', async () => {
    const { media, leftovers } = await engine.open()
    const failing = Readable.from(
      (async function* () {
        yield randomBytes(3000)
        throw new Error('the client went away')
      })(),
    )
    await expect(media.putStream('cut.mp4', failing, { maxBytes: 1e6 })).rejects.toThrow('the client went away')
    const controller = new AbortController()
    let pieces = 0
    const slow = new Readable({
      read() {
        pieces += 1
        if (pieces === 3) controller.abort()
        setTimeout(() => this.push(randomBytes(900)), 5)
      },
    })
    await expect(media.putStream('aborted.mp4', slow, { maxBytes: 1e6, signal: controller.signal })).rejects.toThrow(/abort/i)
    expect(slow.destroyed).toBe(true)
    expect(await media.size('cut.mp4')).toBeUndefined()
    expect(await media.size('aborted.mp4')).toBeUndefined()
    expect(await leftovers()).toEqual([])
  })

  it('deletes media, and a delete of unknown media is no error', async () => {
    const { media, leftovers } = await engine.open()
    await media.putStream('gone.mp4', generated(3000).stream, { maxBytes: 1e6 })
    await media.delete('gone.mp4')
    await media.delete('gone.mp4')
    expect(await media.size('gone.mp4')).toBeUndefined()
    expect(await media.open('gone.mp4')).toBeUndefined()
    expect(await leftovers()).toEqual([])
  })

  it('lends a real file to code that seeks, and answers undefined for unknown media', async () => {
    const spool = makeTempDir('voicedesk-spool')
    const { media } = await engine.open(spool)
    const source = generated(6000)
    await media.putStream('clip.mp4', source.stream, { maxBytes: 1e6 })
    let seen = ''
    const read = await media.withLocalFile('clip.mp4', async (path) => {
      seen = path
      expect(path.endsWith('clip.mp4')).toBe(true)
      return readFileSync(path)
    })
    expect(read?.equals(source.bytes())).toBe(true)
    expect(await media.withLocalFile('unknown.mp4', async () => 'called')).toBeUndefined()
    if (engine.name === 'postgres') {
      // Spooled into the spool folder, and removed afterwards: after success and after an error alike.
      expect(seen.startsWith(spool)).toBe(true)
      expect(existsSync(seen)).toBe(false)
      await expect(
        media.withLocalFile('clip.mp4', async (path) => {
          seen = path
          throw new Error('the decoder failed')
        }),
      ).rejects.toThrow('the decoder failed')
      expect(existsSync(seen)).toBe(false)
      expect(readdirSync(spool)).toEqual([])
    } else {
      // The store's own file, untouched.
      expect(existsSync(seen)).toBe(true)
    }
  })
})

describe('media store on files, on a full disk', () => {
  const mounts: string[] = []
  afterEach(() => {
    for (const mount of mounts.splice(0)) {
      execFileSync('umount', [mount], { stdio: 'pipe' })
      rmSync(mount, { recursive: true, force: true })
    }
  })

  /** A 1 MiB tmpfs, or undefined where mounting is not allowed (then the test says so and passes). */
  function smallDisk(): string | undefined {
    const directory = mkdtempSync(join(tmpdir(), 'voicedesk-small-disk-'))
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', directory], { stdio: 'pipe' })
      mounts.push(directory)
      return directory
    } catch (error) {
      rmSync(directory, { recursive: true, force: true })
      console.warn(`full-disk media test skipped: cannot mount a tmpfs (${(error as Error).message.split('\n')[0]})`)
      return undefined
    }
  }

  it('fails with the disk-full storage error (ENOSPC) and leaves no partial file', async () => {
    const directory = smallDisk()
    if (!directory) return
    const media = new FileMediaStore(directory)
    const error = await media
      .putStream('huge.mp4', generated(3 * 1024 * 1024, 64 * 1024).stream, { maxBytes: 1e9 })
      .catch((failure: unknown) => failure)
    expect(isDiskFull(error)).toBe(true)
    expect(readdirSync(directory).filter((name) => name.endsWith(PARTIAL_SUFFIX) || name.startsWith('huge'))).toEqual([])
    // The space is free again for the next write.
    expect(await media.putStream('small.mp4', generated(100_000).stream, { maxBytes: 1e9 })).toEqual({ size: 100_000 })
  })
})
