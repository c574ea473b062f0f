import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { z } from 'zod'
import { SnapshotSchema, type Snapshot } from '../../shared/api/state'
import type { MediaStore, SettingsRepository } from '../../store/ports'

/** What a list of snapshots shows of each: taken when, how big, how many rows of each kind. */
export const SnapshotInfoSchema = SnapshotSchema
export type SnapshotInfo = Snapshot

/** Where a project's snapshots (state archives the service keeps) live. Names are checked by the caller. */
export interface SnapshotShelf {
  list(projectId: string): Promise<SnapshotInfo[]>
  /** Stores the archive `source` streams under `info.name` (replacing one of that name), whole or not at all; answers its size. */
  save(projectId: string, info: Omit<SnapshotInfo, 'sizeBytes'>, source: Readable): Promise<SnapshotInfo>
  open(projectId: string, name: string): Promise<Readable | undefined>
  /** False when there was no such snapshot. */
  remove(projectId: string, name: string): Promise<boolean>
}

/** A generous ceiling on one snapshot's archive (media included): the media store's writes need one. */
const MAX_SNAPSHOT_BYTES = 64 * 1024 ** 3

/**
 * SQLite: files in the data folder, `snapshots/<projectId>/<name>.tar.gz` and beside each its
 * `<name>.json` (what the list shows, so listing opens no archive). Written aside, then renamed.
 */
export class FolderSnapshotShelf implements SnapshotShelf {
  constructor(readonly directory: string) {}

  private folderOf(projectId: string): string {
    return join(this.directory, projectId)
  }

  async list(projectId: string): Promise<SnapshotInfo[]> {
    let names: string[]
    try {
      names = await readdir(this.folderOf(projectId))
    } catch {
      return []
    }
    const infos: SnapshotInfo[] = []
    for (const file of names.filter((name) => name.endsWith('.json'))) {
      try {
        infos.push(SnapshotInfoSchema.parse(JSON.parse(await readFile(join(this.folderOf(projectId), file), 'utf8'))))
      } catch {
        // A file that is not one of ours (or half a write a crash left): not a snapshot.
      }
    }
    return infos.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.name.localeCompare(b.name))
  }

  async save(projectId: string, info: Omit<SnapshotInfo, 'sizeBytes'>, source: Readable): Promise<SnapshotInfo> {
    const folder = this.folderOf(projectId)
    await mkdir(folder, { recursive: true, mode: 0o700 })
    const archive = join(folder, `${info.name}.tar.gz`)
    const aside = `${archive}.${randomBytes(6).toString('hex')}.partial`
    try {
      const out = createWriteStream(aside, { mode: 0o600, flags: 'wx' })
      await pipeline(source, out)
      const saved: SnapshotInfo = { ...info, sizeBytes: out.bytesWritten }
      await rename(aside, archive)
      await writeFile(join(folder, `${info.name}.json`), JSON.stringify(saved), { mode: 0o600 })
      return saved
    } catch (error) {
      await rm(aside, { force: true })
      throw error
    }
  }

  async open(projectId: string, name: string): Promise<Readable | undefined> {
    const file = join(this.folderOf(projectId), `${name}.tar.gz`)
    const stream = createReadStream(file)
    try {
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve())
        stream.once('error', reject)
      })
    } catch {
      return undefined
    }
    return stream
  }

  async remove(projectId: string, name: string): Promise<boolean> {
    const folder = this.folderOf(projectId)
    const listed = (await this.list(projectId)).some((info) => info.name === name)
    await rm(join(folder, `${name}.json`), { force: true })
    await rm(join(folder, `${name}.tar.gz`), { force: true })
    return listed
  }
}

const CatalogueSchema = z.array(SnapshotInfoSchema)

/**
 * PostgreSQL (team mode): archives in the media store (`snapshots/<projectId>/<name>.tar.gz`),
 * their list in the settings table: both in the database, so every instance sees the same.
 */
export class MediaSnapshotShelf implements SnapshotShelf {
  constructor(
    private readonly media: MediaStore,
    private readonly settings: SettingsRepository,
  ) {}

  private catalogueKey(projectId: string): string {
    return `snapshots:${projectId}`
  }

  private mediaName(projectId: string, name: string): string {
    return `snapshots/${projectId}/${name}.tar.gz`
  }

  async list(projectId: string): Promise<SnapshotInfo[]> {
    const infos = (await this.settings.get(this.catalogueKey(projectId), CatalogueSchema)) ?? []
    return [...infos].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.name.localeCompare(b.name))
  }

  async save(projectId: string, info: Omit<SnapshotInfo, 'sizeBytes'>, source: Readable): Promise<SnapshotInfo> {
    const { size } = await this.media.putStream(this.mediaName(projectId, info.name), source, { maxBytes: MAX_SNAPSHOT_BYTES })
    const saved: SnapshotInfo = { ...info, sizeBytes: size }
    const others = (await this.list(projectId)).filter((existing) => existing.name !== info.name)
    await this.settings.set(this.catalogueKey(projectId), [...others, saved])
    return saved
  }

  async open(projectId: string, name: string): Promise<Readable | undefined> {
    return (await this.media.open(this.mediaName(projectId, name)))?.stream
  }

  async remove(projectId: string, name: string): Promise<boolean> {
    const infos = await this.list(projectId)
    await this.settings.set(
      this.catalogueKey(projectId),
      infos.filter((info) => info.name !== name),
    )
    await this.media.delete(this.mediaName(projectId, name))
    return infos.some((info) => info.name === name)
  }
}
