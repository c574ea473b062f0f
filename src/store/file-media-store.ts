import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { byteLimit } from './media-byte-limit'
import type { MediaStore } from './ports'
import { PARTIAL_SUFFIX } from './partial-media-files'

/**
 * Media as files in the data folder's media/ (the desktop and `serve` on SQLite). A file
 * appears whole or not at all (written aside, then renamed); the aside file is removed when
 * the write fails (a full disk, an abort), so no half file holds on to the space that is short.
 */
export class FileMediaStore implements MediaStore {
  constructor(readonly directory: string) {}

  async put(name: string, bytes: Buffer, signal?: AbortSignal): Promise<void> {
    const file = join(this.directory, name)
    const partial = file + PARTIAL_SUFFIX
    try {
      // 0600: a caller's audio is theirs alone, like the rest of the data folder.
      await writeFile(partial, bytes, { signal, mode: 0o600 })
      await rename(partial, file)
    } catch (error) {
      await rm(partial, { force: true }).catch(() => undefined)
      throw error
    }
  }

  async putStream(name: string, source: Readable, options: { maxBytes: number; signal?: AbortSignal }): Promise<{ size: number }> {
    const file = join(this.directory, name)
    // A name of its own per write (two uploads of one name do not share an aside file); still
    // `*.partial`, so what a crash leaves is removed at the next start (partial-media-files.ts).
    const partial = `${file}.${randomBytes(6).toString('hex')}${PARTIAL_SUFFIX}`
    const limit = byteLimit(options.maxBytes)
    const sink = createWriteStream(partial, { mode: 0o600, flags: 'wx' })
    try {
      await pipeline(source, limit.stream, sink, { signal: options.signal })
      await rename(partial, file)
      return { size: limit.size() }
    } catch (error) {
      source.destroy()
      // The pipeline fails as soon as the source does, while the file's open may still be on its
      // way in the thread pool: removed once the stream has closed, or the open would make it again
      // after the removal (a full run's archive fuzz found one such file left behind).
      if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()))
      await rm(partial, { force: true }).catch(() => undefined)
      throw error
    }
  }

  async delete(name: string): Promise<void> {
    await rm(join(this.directory, name), { force: true })
  }

  async withLocalFile<T>(name: string, use: (path: string) => Promise<T>): Promise<T | undefined> {
    if ((await this.size(name)) === undefined) return undefined
    return use(join(this.directory, name))
  }

  async size(name: string): Promise<number | undefined> {
    try {
      const stats = await stat(join(this.directory, name))
      return stats.isFile() ? stats.size : undefined
    } catch {
      return undefined
    }
  }

  async open(name: string, range?: { start: number; end: number }) {
    const size = await this.size(name)
    if (size === undefined) return undefined
    return { size, stream: createReadStream(join(this.directory, name), range) }
  }
}
