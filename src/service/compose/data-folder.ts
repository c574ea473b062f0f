import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { WRAPPED_KEY_FILE } from '../../store/secret-box'
import { counted } from '../../shared/text/counted'

export const DATABASE_FILE = 'voicedesk.db'
export const SECRET_KEY_FILE = 'secret.key'
export const MEDIA_FOLDER = 'media'
/** The request journal's own SQLite file (see store/request-journal.ts). */
export const JOURNAL_FILE = 'journal.db'
/** Snapshots of projects (state archives the service keeps): snapshots/<projectId>/<name>.tar.gz. */
export const SNAPSHOTS_FOLDER = 'snapshots'

/** Only the owner may read the data: it holds key hashes, sealed secrets and every job's audio. */
const PRIVATE_FOLDER = 0o700
const PRIVATE_FILE = 0o600

/** Why a data folder cannot be used; the message says what to do, the caller adds where the path came from. */
export class DataFolderError extends Error {
  constructor(
    message: string,
    readonly reason: 'NOT_A_FOLDER' | 'NOT_WRITABLE' | 'DATABASE_MISSING',
  ) {
    super(message)
    this.name = 'DataFolderError'
  }
}

export interface PrepareDataFolderOptions {
  /** Start with a new database although the folder holds state of an earlier one. */
  forceNew?: boolean
}

function isPrivate(path: string, mode: number): boolean {
  return (statSync(path).mode & 0o777) === mode
}

function setMode(path: string, mode: number): void {
  if (existsSync(path) && !isPrivate(path, mode)) chmodSync(path, mode)
}

/**
 * A folder of VoiceDesk's outside the data folder (the team-mode journal's, in the shared temp
 * folder) made private like the data folder: 0700, also when an older version made it with
 * the default umask. One that is a link or another user's is refused: whoever owns it could
 * read or swap what is written there.
 */
export function preparePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER })
  const stat = lstatSync(dir)
  const ours = process.getuid === undefined || stat.uid === process.getuid()
  if (!stat.isDirectory() || !ours)
    throw new Error(`${dir} is a link or belongs to another user; remove it, or name another place for the file`)
  setMode(dir, PRIVATE_FOLDER)
}

function describeFsError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EROFS':
      return 'it is on a read-only filesystem'
    case 'EACCES':
    case 'EPERM':
      return 'this user may not write there'
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder'
    case 'ENOSPC':
      return 'the disk is full'
    default:
      return error.message
  }
}

/**
 * Makes `dir` ready for a runtime, before anything is written into it: a folder (created
 * when missing) that this user can write, private to the owner (folders 0700, the database,
 * its WAL and SHM, the key and every media file 0600, existing ones fixed too), and not a
 * folder whose database went missing while its key or media stayed (a restore gone wrong):
 * a new, empty database there would silently orphan them, so that needs `forceNew`.
 */
export function prepareDataFolder(dir: string, options: PrepareDataFolderOptions = {}): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new DataFolderError('it is a file, not a folder; pass a folder (it is created when missing)', 'NOT_A_FOLDER')
  }
  try {
    makeFolders(dir)
    accessSync(dir, constants.W_OK)
    // access() trusts permission bits only; a read-only mount shows only when something is written.
    const probe = join(dir, `.write-check-${process.pid}`)
    closeSync(openSync(probe, 'w', PRIVATE_FILE))
    rmSync(probe, { force: true })
  } catch (error) {
    throw new DataFolderError(
      `VoiceDesk cannot write there: ${describeFsError(error as NodeJS.ErrnoException)}; choose a folder you can write`,
      'NOT_WRITABLE',
    )
  }
  checkDatabaseNotLost(dir, options)
  makePrivate(dir)
}

/**
 * mkdir -p one level at a time: a recursive mkdirSync reports ENOENT where the real cause
 * is a read-only filesystem or a missing permission, and the operator needs the real one.
 */
function makeFolders(dir: string): void {
  const missing: string[] = []
  for (let path = dir; !existsSync(path); path = dirname(path)) {
    missing.unshift(path)
    if (dirname(path) === path) break
  }
  for (const path of missing) mkdirSync(path, { mode: PRIVATE_FOLDER })
}

function checkDatabaseNotLost(dir: string, options: PrepareDataFolderOptions): void {
  if (options.forceNew) return
  const database = join(dir, DATABASE_FILE)
  const hasDatabase = existsSync(database) && statSync(database).size > 0
  if (hasDatabase) return
  const leftovers: string[] = []
  if (existsSync(join(dir, SECRET_KEY_FILE))) leftovers.push(`its secret key (${SECRET_KEY_FILE})`)
  if (existsSync(join(dir, WRAPPED_KEY_FILE))) leftovers.push(`the desktop app's secret key (${WRAPPED_KEY_FILE})`)
  const media = join(dir, MEDIA_FOLDER)
  const mediaCount = existsSync(media) ? readdirSync(media).length : 0
  if (mediaCount > 0) leftovers.push(counted(mediaCount, 'media file', 'media files'))
  if (leftovers.length === 0) return
  throw new DataFolderError(
    `${DATABASE_FILE} is ${existsSync(database) ? 'empty' : 'missing'}, but the folder still holds ${leftovers.join(' and ')}. ` +
      `Put the database back (from a backup), or pass --force-new to start over with a new, empty one`,
    'DATABASE_MISSING',
  )
}

/**
 * The database, its WAL and SHM files 0600. Called again once the store is open: SQLite makes
 * the WAL and SHM files lazily, with the database file's mode.
 */
export function makeDatabaseFilesPrivate(dir: string): void {
  for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`]) setMode(join(dir, name), PRIVATE_FILE)
}

/** Folders 0700 and files 0600, also for a folder made by an older version with the default umask. */
function makePrivate(dir: string): void {
  setMode(dir, PRIVATE_FOLDER)
  makeDatabaseFilesPrivate(dir)
  for (const name of [SECRET_KEY_FILE, WRAPPED_KEY_FILE]) setMode(join(dir, name), PRIVATE_FILE)
  const media = join(dir, MEDIA_FOLDER)
  if (!existsSync(media)) {
    mkdirSync(media, { mode: PRIVATE_FOLDER })
    return
  }
  if (isPrivate(media, PRIVATE_FOLDER)) return // files in a private folder were fixed when it was made private
  for (const name of readdirSync(media)) setMode(join(media, name), PRIVATE_FILE)
  chmodSync(media, PRIVATE_FOLDER)
}
