import { existsSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { loadOrCreateKeyFile, SecretBox } from '../../store/secret-box'
import type { OpenedStore } from '../../store/open-store'
import type { Store } from '../../store/ports'
import { checkSealingKey, WrongSealingKeyError } from '../compose/sealing-key-check'
import { databaseLabel } from '../compose/config'
import { defaultDataDir } from '../compose/data-dir'
import { DATABASE_FILE, DataFolderError, SECRET_KEY_FILE, prepareDataFolder } from '../compose/data-folder'
import { findRunningServices } from '../compose/running-services'
import { expandHome, UsageError, type Values } from './args'

/** Which storage a command works on: a data folder (--data-dir, VOICEDESK_DATA_DIR, the default) or a team database. */

/** A data folder as given, where it came from (for messages), and resolved once, here at the edge. */
interface DataDir {
  path: string
  source: string
}

function dataDirOf(values: Values): DataDir {
  const [given, source] =
    values['data-dir'] !== undefined
      ? [values['data-dir'], '--data-dir']
      : process.env.VOICEDESK_DATA_DIR
        ? [process.env.VOICEDESK_DATA_DIR, 'VOICEDESK_DATA_DIR']
        : [defaultDataDir(), 'the default data folder']
  if (given.trim() === '') throw new UsageError(`${source} is empty: give a folder, such as --data-dir ./data`)
  const path = resolve(expandHome(given))
  return { path, source: path === given ? `${source} ${given}` : `${source} ${given} (${path})` }
}

/** Checks the folder before anything is written there; a problem names the flag, the path and the fix. */
export function prepare(dataDir: DataDir, forceNew = false): void {
  try {
    prepareDataFolder(dataDir.path, { forceNew })
  } catch (error) {
    if (error instanceof DataFolderError) throw new UsageError(`${dataDir.source}: ${error.message}`)
    throw error
  }
}

/** Where a command's data is: a data folder, or (team mode) a PostgreSQL database and the key its secrets are sealed with. */
export type Storage = { kind: 'folder'; dataDir: DataDir } | { kind: 'team'; url: string; label: string; source: string; secretKey: Buffer }

const SECRET_KEY_HOWTO = 'make one with: openssl rand -base64 32, and give every instance the same'

/** VOICEDESK_SECRET_KEY: 32 bytes, in base64 (44 characters) or hex (64). */
function teamSecretKey(): Buffer {
  const raw = process.env.VOICEDESK_SECRET_KEY?.trim()
  if (!raw) throw new UsageError(`Team mode needs VOICEDESK_SECRET_KEY, the key that seals stored secrets: ${SECRET_KEY_HOWTO}`)
  const key = /^[0-9a-fA-F]{64}$/.test(raw)
    ? Buffer.from(raw, 'hex')
    : /^[A-Za-z0-9+/]{43}=?$/.test(raw)
      ? Buffer.from(raw, 'base64')
      : undefined
  if (key?.length !== 32)
    throw new UsageError(`VOICEDESK_SECRET_KEY must be 32 bytes in base64 or hex (${raw.length} characters given): ${SECRET_KEY_HOWTO}`)
  return key
}

export function storageOf(values: Values): Storage {
  const [url, source] =
    values['database-url'] !== undefined
      ? [values['database-url'], '--database-url']
      : [process.env.VOICEDESK_DATABASE_URL || undefined, 'VOICEDESK_DATABASE_URL']
  if (url === undefined) return { kind: 'folder', dataDir: dataDirOf(values) }
  if (values['data-dir'] !== undefined)
    throw new UsageError(`--data-dir goes with SQLite only: with ${source} PostgreSQL holds everything, media included`)
  if (values['force-new']) throw new UsageError(`--force-new goes with a data folder only, not with ${source}`)
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`${source} is not a URL: give postgres://USER:PASSWORD@HOST:5432/DATABASE`)
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new UsageError(`${source} must start with postgres:// (PostgreSQL 15 or newer), not ${parsed.protocol}//`)
  }
  const label = databaseLabel(url)
  return { kind: 'team', url, label, source: `${source} ${label}`, secretKey: teamSecretKey() }
}

/** A database that cannot be used, in one line that names the URL (never its password) and the fix. */
export function databaseProblem(storage: Extract<Storage, { kind: 'team' }>, error: unknown): Error {
  const code = (error as { code?: string }).code
  const message = (error as Error).message
  const why: Record<string, string> = {
    ECONNREFUSED: 'nothing answers at that host and port; is PostgreSQL running there?',
    ENOTFOUND: 'no host has that name',
    EAI_AGAIN: 'the host name could not be looked up',
    ETIMEDOUT: 'connecting timed out',
    '28P01': 'the password was refused',
    '28000': 'the server refused this user',
    '3D000': 'that database does not exist (create it first: createdb)',
    '42501': 'this user may not create the tables VoiceDesk needs',
  }
  if (error instanceof WrongSealingKeyError) return new UsageError(error.message)
  const reason = code !== undefined ? why[code] : undefined
  return new Error(`${storage.source}: ${reason ?? message}${code ? ` (${code})` : ''}`)
}

export async function openStorageStore(storage: Storage): Promise<Store> {
  return (await openStorage(storage)).store
}

/**
 * Every command that worked on a data folder warns, on stderr, when no running service uses that
 * folder: the classic first-run mistake is a command run on the per-user default folder (or
 * another) while the service runs on `./data`, which silently works on the wrong data. Said
 * once the command succeeded, so a refusal stays one line.
 */
export function warnWhenNoServiceUses(values: Values): void {
  const storage = storageOf(values)
  if (storage.kind === 'team' || findRunningServices(storage.dataDir.path).length > 0) return
  process.stderr.write(
    `Warning: no VoiceDesk service is using ${storage.dataDir.source} now; if yours runs on another folder, pass that folder with --data-dir (its "Data folder:" line says which).\n`,
  )
}

/**
 * The store, and in team mode the media the database holds. `onlyReads` names what a command
 * that only reads would do (export, list snapshots): where the folder holds no database it
 * refuses instead of creating an empty folder and reading nothing from it.
 */
export async function openStorage(storage: Storage, onlyReads?: string): Promise<OpenedStore> {
  // Loaded here, not at the top: the storage drivers are the heaviest part of a command's start.
  const { openStore } = await import('../../store/open-store')
  if (storage.kind === 'folder') {
    const { dataDir } = storage
    const database = join(dataDir.path, DATABASE_FILE)
    if (onlyReads !== undefined && !(existsSync(database) && statSync(database).size > 0)) {
      throw new UsageError(
        `${dataDir.source}: nothing to ${onlyReads} there, it holds no VoiceDesk data (no ${DATABASE_FILE}); is your service using another folder? Pass it with --data-dir`,
      )
    }
    prepare(dataDir)
    return openStore({ engine: 'sqlite', file: database })
  }
  let opened: OpenedStore | undefined
  try {
    opened = await openStore({ engine: 'postgres', url: storage.url, poolSize: 2 })
    await checkSealingKey(opened.store, new SecretBox(storage.secretKey))
    return opened
  } catch (error) {
    await opened?.store.close()
    throw databaseProblem(storage, error)
  }
}

export function secretsOf(storage: Storage): SecretBox {
  return new SecretBox(storage.kind === 'team' ? storage.secretKey : loadOrCreateKeyFile(join(storage.dataDir.path, SECRET_KEY_FILE)))
}
