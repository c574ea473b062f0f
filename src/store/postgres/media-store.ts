import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { addAbortSignal, Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type pg from 'pg'
import { MediaTooLargeError } from '../media-errors'
import type { MediaStore } from '../ports'
import { inTransaction } from './db'

/** 256 KiB: a range request reads at most one chunk more than it needs at each end, and a row stays well inside TOAST's reach. */
export const MEDIA_CHUNK_BYTES = 256 * 1024

/**
 * Media in the database (tables media and media_chunks, migration 0004), so every instance of
 * the service reads what any of them made. `put` writes a name's row and all its chunks in one
 * transaction: a reader finds the media whole or not at all. `open` streams only the chunks a
 * range covers, one query per chunk as the reader pulls (back-pressure: a slow client holds no
 * connection between chunks), cut to the range at both ends.
 */
export class PostgresMediaStore implements MediaStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly chunkBytes = MEDIA_CHUNK_BYTES,
    /** Where withLocalFile spools media to a file (the system's temp folder: team mode has no data folder). */
    private readonly spoolDirectory = tmpdir(),
  ) {}

  /** Stores `bytes` under `name` (replacing media of that name), whole or not at all; an abort before the commit leaves nothing. */
  async put(name: string, bytes: Buffer, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted()
    await inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM media WHERE name = $1', [name])
      await client.query('INSERT INTO media (name, size, chunk_size, created_at) VALUES ($1, $2, $3, $4)', [
        name,
        bytes.length,
        this.chunkBytes,
        new Date().toISOString(),
      ])
      for (let index = 0, start = 0; start < bytes.length; index += 1, start += this.chunkBytes) {
        signal?.throwIfAborted()
        await client.query('INSERT INTO media_chunks (name, chunk, data) VALUES ($1, $2, $3)', [
          name,
          index,
          bytes.subarray(start, start + this.chunkBytes),
        ])
      }
      signal?.throwIfAborted()
    })
  }

  /**
   * One transaction: the name's row, then each chunk as soon as the source has given enough
   * bytes for it (for-await pauses the source while a chunk is written: at most a chunk and
   * the source's last piece are in memory). The size is written at the end; a reader sees the
   * media only once committed, and a failure rolls every chunk back.
   */
  async putStream(name: string, source: Readable, options: { maxBytes: number; signal?: AbortSignal }): Promise<{ size: number }> {
    const { maxBytes, signal } = options
    try {
      signal?.throwIfAborted()
      if (signal) addAbortSignal(signal, source)
      return await inTransaction(this.pool, async (client) => {
        await client.query('DELETE FROM media WHERE name = $1', [name])
        await client.query('INSERT INTO media (name, size, chunk_size, created_at) VALUES ($1, 0, $2, $3)', [
          name,
          this.chunkBytes,
          new Date().toISOString(),
        ])
        let size = 0
        let index = 0
        let pending: Buffer[] = []
        let pendingBytes = 0
        const writeChunk = async (data: Buffer) => {
          await client.query('INSERT INTO media_chunks (name, chunk, data) VALUES ($1, $2, $3)', [name, index, data])
          index += 1
        }
        for await (const piece of source as AsyncIterable<Buffer | string>) {
          const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece
          size += bytes.length
          if (size > maxBytes) throw new MediaTooLargeError(maxBytes)
          pending.push(bytes)
          pendingBytes += bytes.length
          if (pendingBytes < this.chunkBytes) continue
          let joined = Buffer.concat(pending, pendingBytes)
          while (joined.length >= this.chunkBytes) {
            await writeChunk(joined.subarray(0, this.chunkBytes))
            joined = joined.subarray(this.chunkBytes)
          }
          // A copy: the rest must not keep the whole joined buffer alive.
          pending = joined.length > 0 ? [Buffer.from(joined)] : []
          pendingBytes = joined.length
        }
        if (pendingBytes > 0) await writeChunk(Buffer.concat(pending, pendingBytes))
        signal?.throwIfAborted()
        await client.query('UPDATE media SET size = $2 WHERE name = $1', [name, size])
        return { size }
      })
    } catch (error) {
      source.destroy()
      throw error
    }
  }

  async delete(name: string): Promise<void> {
    await this.pool.query('DELETE FROM media WHERE name = $1', [name])
  }

  /** Spools the media to a file of its own in `spoolDirectory`, removed once `use` settled (whether it succeeded or threw). */
  async withLocalFile<T>(name: string, use: (path: string) => Promise<T>): Promise<T | undefined> {
    const opened = await this.open(name)
    if (!opened) return undefined
    let folder: string | undefined
    try {
      folder = await mkdtemp(join(this.spoolDirectory, 'voicedesk-media-'))
      // The media's own name keeps its extension, which some decoders go by.
      const file = join(folder, name)
      await pipeline(opened.stream, createWriteStream(file, { mode: 0o600, flags: 'wx' }))
      return await use(file)
    } finally {
      opened.stream.destroy()
      if (folder) await rm(folder, { recursive: true, force: true })
    }
  }

  async size(name: string): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ size: string }>('SELECT size::text AS size FROM media WHERE name = $1', [name])
    return rows[0] ? Number(rows[0].size) : undefined
  }

  /**
   * Its size, and a stream of bytes `start`..`end` (inclusive; the whole when left out); undefined
   * when unknown. A range past the end is cut to the end; one that starts past it streams nothing.
   */
  async open(name: string, range?: { start: number; end: number }): Promise<{ size: number; stream: Readable } | undefined> {
    const { rows } = await this.pool.query<{ size: string; chunk_size: number }>(
      'SELECT size::text AS size, chunk_size FROM media WHERE name = $1',
      [name],
    )
    const found = rows[0]
    if (!found) return undefined
    const size = Number(found.size)
    const chunkBytes = found.chunk_size
    const start = Math.max(0, range?.start ?? 0)
    const end = Math.min(size - 1, range?.end ?? size - 1)
    let next = start
    const pool = this.pool
    // One chunk per read(): the stream calls read() again only once the pushed chunk was consumed.
    const readChunk = async (stream: Readable) => {
      const index = Math.floor(next / chunkBytes)
      const from = next - index * chunkBytes
      const length = Math.min(end + 1, (index + 1) * chunkBytes) - next
      try {
        // substring on bytea is 1-based: only the bytes the range needs leave the server.
        const result = await pool.query<{ data: Buffer }>(
          'SELECT substring(data FROM $3 FOR $4) AS data FROM media_chunks WHERE name = $1 AND chunk = $2',
          [name, index, from + 1, length],
        )
        const data = result.rows[0]?.data
        if (!data || data.length !== length) throw new Error(`Media ${name} changed or lost chunk ${index} while it was read`)
        next += length
        stream.push(data)
      } catch (error) {
        stream.destroy(error as Error)
      }
    }
    const stream = new Readable({
      read() {
        if (next > end) this.push(null)
        else void readChunk(this)
      },
    })
    return { size, stream }
  }
}
