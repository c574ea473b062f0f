import { pino, type Logger } from 'pino'
import { existsSync, mkdirSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { DiskFullCondition } from '../../store/disk-full-condition'
import { FileMediaStore } from '../../store/file-media-store'
import { describeBytes } from '../../store/media-errors'
import { openStore } from '../../store/open-store'
import { removeLeftoverPartialMedia } from '../../store/partial-media-files'
import type { MediaStore, Store } from '../../store/ports'
import { SecretBox } from '../../store/secret-box'
import { loadSecretKey } from './secret-key'
import { isDeadLeaseOwner } from '../../workers/lease-owner'
import { bootstrapAccounts, ensureAppIdentity, firstKeyToShow, type Bootstrap } from '../ops/api-keys'
import type { Caller, SipSettings } from '../ops/ops-context'
import { RepeatedErrorLog } from '../ops/repeated-error-log'
import { removeDeadImportLeftovers } from '../state/import-leftovers'
import { ProjectState } from '../state/project-state'
import { SEED_FILE } from '../state/seed'
import { FolderSnapshotShelf, MediaSnapshotShelf } from '../state/snapshot-shelf'
import { databaseLabel, DEFAULT_SIP_SETTINGS, SipSettingsSchema, VERSION, type RuntimeConfig } from './config'
import { DATABASE_FILE, MEDIA_FOLDER, SNAPSHOTS_FOLDER, makeDatabaseFilesPrivate, prepareDataFolder } from './data-folder'
import { checkSealingKey } from './sealing-key-check'
import { present } from '../../shared/present'

/** Where the data is and what holds it: the store, media, the key that seals secrets, the accounts, the logs. */
export interface RuntimeStorage {
  /** The data folder; undefined in team mode (PostgreSQL holds everything, media included). */
  dataDir: string | undefined
  /** Where the data is, for people: the data folder, or the database without its password. */
  storageLabel: string
  store: Store
  media: MediaStore
  /** The data folder's media/ (SQLite), served as files; undefined in team mode. */
  mediaDir: string | undefined
  secrets: SecretBox
  diskFull: DiskFullCondition
  bootstrap: Bootstrap
  /** The identity the operator UI acts with: the app's own key record in the default project. */
  appCaller: Caller
  sip: SipSettings
  log: Logger
  /** The same failure again within a minute is counted, not written again (a full disk fails every request). */
  errorLog: RepeatedErrorLog
}

/**
 * Opens the storage the config names: a data folder (checked, made private, cleaned of what a
 * crash left) or a team database (its sealing key checked), then the accounts. The store is
 * closed again when a later step fails.
 */
export async function composeStorage(config: RuntimeConfig, now: () => Date): Promise<RuntimeStorage> {
  const dataDir = config.database ? undefined : config.dataDir
  if (config.database) {
    if (!config.secretKey)
      throw new Error('Team mode (RuntimeConfig.database) needs secretKey: every instance must seal secrets with the same key')
  } else if (dataDir === undefined || !isAbsolute(dataDir)) {
    // The edges (CLI, Electron) resolve paths once; a relative one here would mean something else to every module.
    throw new Error(`RuntimeConfig.dataDir must be an absolute path, not ${JSON.stringify(dataDir)}`)
  } else {
    prepareDataFolder(dataDir, { forceNew: config.forceNew })
  }
  // Past the checks above, a store without config.database has its data folder.
  const folder = (): string => present(dataDir, 'RuntimeConfig.dataDir')
  const secrets = new SecretBox(
    config.secretKey ?? loadSecretKey({ dataDir: folder(), keychain: config.keychain, warn: (message) => config.log?.warn(message) }),
  )
  const { store, sharedMedia } = await openStore(
    config.database
      ? { engine: 'postgres', url: config.database.url, poolSize: config.database.poolSize }
      : { engine: 'sqlite', file: join(folder(), DATABASE_FILE), nativeBinding: config.nativeBinding },
  )
  const storageLabel = config.database ? databaseLabel(config.database.url) : folder()
  try {
    if (dataDir) makeDatabaseFilesPrivate(dataDir)
    else await checkSealingKey(store, secrets)
    const bootstrap = await firstKeyToShow(store, secrets, await bootstrapAccounts(store, now(), config.fixedApiKey))
    const appCaller = await ensureAppIdentity(store, now(), bootstrap)
    const sip = (await store.settings.get('sip', SipSettingsSchema)) ?? DEFAULT_SIP_SETTINGS
    const log = config.log ?? pino({ level: 'silent' })
    const errorLog = new RepeatedErrorLog(log)
    const mediaDir = dataDir && join(dataDir, MEDIA_FOLDER)
    if (mediaDir) mkdirSync(mediaDir, { recursive: true })
    const media = sharedMedia ?? new FileMediaStore(present(mediaDir, 'the media folder'))
    // One line when the disk fills, one when it has room again: not one per failed write. In
    // team mode it is the database server's disk: no folder to watch, so writes are tried again soon.
    const diskFull = new DiskFullCondition({
      ...config.diskFull,
      directory: dataDir,
      onEnter: (error) =>
        log.error(
          { code: (error as { code?: string }).code, storage: storageLabel },
          "disk full: the data's disk has no room; reads go on, writes answer 507 and jobs wait until space is freed",
        ),
      onLeave: () => log.warn({ storage: storageLabel }, 'disk full no more: writes and jobs resume'),
    })
    const storage: RuntimeStorage = {
      dataDir,
      storageLabel,
      store,
      media,
      mediaDir,
      secrets,
      diskFull,
      bootstrap,
      appCaller,
      sip,
      log,
      errorLog,
    }
    await removeLeftovers(config, storage)
    return storage
  } catch (error) {
    await store.close()
    throw error
  }
}

/** What crashes, full disks and processes killed meanwhile left behind. */
async function removeLeftovers(config: RuntimeConfig, { mediaDir, store, media, storageLabel, log }: RuntimeStorage): Promise<void> {
  if (mediaDir) {
    // Half-written media a crash or a full disk left behind. Another live process on the same
    // folder may be writing its own right now: then only those older than a try are removed.
    // As long as a job's lease: its try time and the lease margin (see JobRunnerOptions).
    const tryMs = (config.jobs?.timeoutMs ?? 120_000) + (config.jobs?.leaseMarginMs ?? 30_000)
    const othersRunning = (await store.jobs.pendingLeaseOwners()).some((owner) => !isDeadLeaseOwner(owner, ''))
    removeLeftoverPartialMedia(mediaDir, othersRunning ? { olderThanMs: tryMs } : {})
  }
  // What imports, restores and exports of processes killed meanwhile left: media no row names, temp folders.
  const leftovers = await removeDeadImportLeftovers({ storage: storageLabel, media, jobs: store.jobs })
  if (leftovers.folders > 0) {
    log.warn(
      { ...leftovers, storage: storageLabel },
      `removed what ${leftovers.folders} interrupted imports, restores or exports left: ${leftovers.media} media files no job names (${describeBytes(leftovers.mediaBytes)}) and their temp folders (${describeBytes(leftovers.folderBytes)})`,
    )
  }
}

/** Export, import, snapshots and reset of a project's state; `replaced` wakes the work that came back with the rows. */
export function composeProjectState(config: RuntimeConfig, storage: RuntimeStorage, now: () => Date, replaced: () => void): ProjectState {
  const { store, media, dataDir } = storage
  return new ProjectState({
    store,
    media,
    storage: storage.storageLabel,
    secrets: storage.secrets,
    // SQLite: the data folder's snapshots/; team mode: the database (every instance sees them).
    shelf: dataDir ? new FolderSnapshotShelf(join(dataDir, SNAPSHOTS_FOLDER)) : new MediaSnapshotShelf(media, store.settings),
    version: VERSION,
    now,
    maxImportBytes: config.maxImportBytes,
    archiveLimits: config.archiveLimits,
    replaced,
  })
}

/** The seed to apply at start: the config's, else the data folder's voicedesk.seed.json, if any. */
export function seedFileOf(config: RuntimeConfig, { dataDir }: RuntimeStorage): string | undefined {
  return config.seed ?? (dataDir && existsSync(join(dataDir, SEED_FILE)) ? join(dataDir, SEED_FILE) : undefined)
}
