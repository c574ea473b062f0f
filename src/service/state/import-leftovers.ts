import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import type { JobsRepository, MediaStore } from '../../store/ports'
import { isDeadLeaseOwner } from '../../workers/lease-owner'

/*
 * An import or restore works in a temp folder named for its process
 * (`voicedesk-import-<pid>-XXXXXX` in the system temp folder; exports `voicedesk-export-<pid>-…`),
 * so a later start can tell a dead process's folder from a live one's: two processes may share
 * a data folder, and a live one's files are never touched. Before it writes a media file, an
 * import adds the file's name to its folder's list: a process killed mid-import (its rows never
 * committed) leaves a record of the media no row names yet, which the next start removes.
 */

const LEFTOVER_FOLDER = /^voicedesk-(import|export)-(\d+)-/
const OWNER_FILE = 'owner.json'
const MEDIA_LIST = 'media-written'

/** Which store an import's media went to (a data folder's path, or a database's label): only that store's start removes them. */
const OwnerSchema = z.object({ storage: z.string() })

/** The prefix of this process's export temp folders (mkdtemp adds the rest). */
export function exportFolderPrefix(): string {
  return join(tmpdir(), `voicedesk-export-${process.pid}-`)
}

/** An import's temp folder: the rows it checked, and the names of the media it wrote. */
export class ImportFolder {
  private constructor(readonly path: string) {}

  static async create(storage: string): Promise<ImportFolder> {
    const path = await mkdtemp(join(tmpdir(), `voicedesk-import-${process.pid}-`))
    await writeFile(join(path, OWNER_FILE), JSON.stringify({ storage }), { mode: 0o600 })
    return new ImportFolder(path)
  }

  get rowsFile(): string {
    return join(this.path, 'rows.jsonl')
  }

  /** Call before writing the media `name`: a kill during or after the write still leaves its name here. */
  async noteMedia(name: string): Promise<void> {
    await appendFile(join(this.path, MEDIA_LIST), name + '\n', { mode: 0o600 })
  }

  async remove(): Promise<void> {
    await rm(this.path, { recursive: true, force: true })
  }
}

export interface RemovedLeftovers {
  folders: number
  folderBytes: number
  media: number
  mediaBytes: number
}

/**
 * Removes what imports, restores and exports of dead processes left (a kill -9, a power loss):
 * their temp folders, and the media their imports wrote that no job names. Folders of live
 * processes, and an import's folder of another store (its own start cleans it), are left.
 * Never throws: a start-up chore, tried again at the next start.
 */
export async function removeDeadImportLeftovers(options: {
  storage: string
  media: MediaStore
  jobs: Pick<JobsRepository, 'namingMedia'>
  tempDir?: string
}): Promise<RemovedLeftovers> {
  const removed: RemovedLeftovers = { folders: 0, folderBytes: 0, media: 0, mediaBytes: 0 }
  const tempDir = options.tempDir ?? tmpdir()
  let names: string[]
  try {
    names = await readdir(tempDir)
  } catch {
    return removed
  }
  for (const name of names) {
    const match = LEFTOVER_FOLDER.exec(name)
    if (!match || !isDeadProcess(Number(match[2]))) continue
    const folder = join(tempDir, name)
    try {
      if (match[1] === 'import') {
        const owner = OwnerSchema.safeParse(await readJson(join(folder, OWNER_FILE)))
        // Killed before it said whose it is: it wrote no media yet.
        if (owner.success && owner.data.storage !== options.storage) continue
        const written = (await readFile(join(folder, MEDIA_LIST), 'utf8').catch(() => '')).split('\n').filter((line) => line !== '')
        const named = written.length > 0 ? await options.jobs.namingMedia(written) : new Set<string>()
        for (const mediaName of written) {
          if (named.has(mediaName)) continue
          const size = await options.media.size(mediaName)
          if (size === undefined) continue
          await options.media.delete(mediaName)
          removed.media += 1
          removed.mediaBytes += size
        }
      }
      removed.folderBytes += await sizeOf(folder)
      await rm(folder, { recursive: true, force: true })
      removed.folders += 1
    } catch {
      // Not ours to read or remove, or gone meanwhile: the next start tries again.
    }
  }
  return removed
}

function isDeadProcess(pid: number): boolean {
  // Our own pid is this process (never dead to itself); another is dead when this host has no such process.
  return pid !== process.pid && isDeadLeaseOwner(`${hostname()}:${pid}`, '')
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown
  } catch {
    return undefined
  }
}

/** The bytes of the files of `folder` (one level: these folders hold files only). */
async function sizeOf(folder: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(folder, entry.name))).size
  }
  return total
}
