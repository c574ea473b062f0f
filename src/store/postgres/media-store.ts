import { Readable } from 'node:stream'
import type pg from 'pg'
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
  ) {}

  /** Stores `bytes` under `name` (replacing media of that name), whole or not at all; an abort before the commit leaves nothing. */
  async put(name: string, bytes: Buffer, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted()
    await inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM media WHERE name = $1', [name])
      await client.query('INSERT INTO media (name, size, chunk_size, created_at) VALUES ($1, $2, $3, $4)', [name, bytes.length, this.chunkBytes, new Date().toISOString()])
      for (let index = 0, start = 0; start < bytes.length; index += 1, start += this.chunkBytes) {
        signal?.throwIfAborted()
        await client.query('INSERT INTO media_chunks (name, chunk, data) VALUES ($1, $2, $3)', [name, index, bytes.subarray(start, start + this.chunkBytes)])
      }
      signal?.throwIfAborted()
    })
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
    const { rows } = await this.pool.query<{ size: string; chunk_size: number }>('SELECT size::text AS size, chunk_size FROM media WHERE name = $1', [name])
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
        const result = await pool.query<{ data: Buffer }>('SELECT substring(data FROM $3 FOR $4) AS data FROM media_chunks WHERE name = $1 AND chunk = $2', [
          name,
          index,
          from + 1,
          length,
        ])
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
