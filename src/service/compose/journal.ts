import type { Logger } from 'pino'
import { createHash } from 'node:crypto'
import { existsSync, renameSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import { openRequestJournalStore } from '../../store/open-store'
import { RequestJournalInUseError, type RequestJournalStore } from '../../store/request-journal'
import { isAbsolute, relative } from 'node:path'
import { RequestJournal } from '../request-journal/request-journal'
import type { OperatorEventHub } from '../operator/operator-events'
import type { RuntimeConfig } from './config'
import { JOURNAL_FILE, preparePrivateFolder } from './data-folder'
import type { RuntimeStorage } from './storage'

/**
 * The request journal of /v1 (undefined when `journal.enabled` is false, or when every file is
 * held by another process). A write that fails because the data's disk is full says so once,
 * as the disk-full condition, not once per batch.
 */
export function composeJournal(config: RuntimeConfig, storage: RuntimeStorage, events: OperatorEventHub): RequestJournal | undefined {
  if (config.journal?.enabled === false) return undefined
  const { dataDir, storageLabel, diskFull, errorLog } = storage
  const journalStore = openJournalFile(config.journal?.file ?? journalFileOf(dataDir, storageLabel), config.nativeBinding, storage.log)
  if (!journalStore) return undefined
  const { enabled: _enabled, file: _file, ...settings } = config.journal ?? {}
  const fromDataDir = dataDir === undefined ? undefined : relative(dataDir, journalStore.file)
  const journalOnDataDisk = fromDataDir !== undefined && !fromDataDir.startsWith('..') && !isAbsolute(fromDataDir)
  const journal = new RequestJournal({
    store: journalStore.store,
    settings,
    // The embedder's clock when it gives one (tests); else the journal's own system clock, read without a Date per request.
    now: config.now,
    onError: (error, what) => {
      // journal.db shares the data folder's disk: a full disk is the one condition, said once, not a failure per batch.
      if (journalOnDataDisk && diskFull.report(error)) return
      errorLog.error({ err: error }, `request journal: ${what} failed`)
    },
  })
  // The Requests screen refreshes on it; the journal writes at most every flushMs, so this is never a flood.
  journal.onWritten(() => events.emit(() => ({ type: 'requests.written' })))
  return journal
}

/** How many journal files one data folder (or team database, on one machine) offers its processes. */
const JOURNAL_FILES = 8

/**
 * The journal's file, opened. One process writes a file: when another holds it (a second
 * `serve` on the same data folder), the next of `journal-2.db` … `journal-8.db` that is free is
 * taken, so each process journals what it served. A file that cannot be opened (damaged, or of
 * a newer schema) is moved aside (`journal.db.broken-<time>`) and a new one started: a debugging
 * aid never keeps the service from starting, so with every file held it runs without a journal.
 * A folder that cannot be written still fails the start, as the store's would.
 */
export function openJournalFile(
  first: string,
  nativeBinding: string | undefined,
  log: Logger,
): { store: RequestJournalStore; file: string } | undefined {
  const extension = extname(first)
  const stem = first.slice(0, first.length - extension.length)
  for (let index = 1; index <= JOURNAL_FILES; index++) {
    const file = index === 1 ? first : `${stem}-${index}${extension}`
    try {
      return { store: openOrReplaceJournalFile(file, nativeBinding, log), file }
    } catch (error) {
      if (!(error instanceof RequestJournalInUseError)) throw error
    }
  }
  log.warn({ file: first }, `request journal: off for this process, its ${JOURNAL_FILES} files are all in use by other VoiceDesk processes`)
  return undefined
}

function openOrReplaceJournalFile(file: string, nativeBinding: string | undefined, log: Logger): RequestJournalStore {
  try {
    return openRequestJournalStore(file, nativeBinding)
  } catch (error) {
    if (error instanceof RequestJournalInUseError || !existsSync(file)) throw error
    for (const suffix of ['', '-wal', '-shm'])
      if (existsSync(file + suffix)) renameSync(file + suffix, `${file}.broken-${Date.now()}${suffix}`)
    log.warn({ err: error, file }, 'request journal: the file could not be opened; it was moved aside and a new one started')
    return openRequestJournalStore(file, nativeBinding)
  }
}

/**
 * The journal's file when none is given: journal.db in the data folder; in team mode, where
 * no data folder exists, one per database (named after it, without its password) in a folder
 * of the system's temp folder, made private (0700) like a data folder, so a restart finds it
 * and instances of other databases never share it.
 */
export function journalFileOf(dataDir: string | undefined, storageLabel: string): string {
  if (dataDir) return join(dataDir, JOURNAL_FILE)
  const name = createHash('sha256').update(storageLabel).digest('hex').slice(0, 16)
  const folder = join(tmpdir(), 'voicedesk-journal')
  preparePrivateFolder(folder)
  return join(folder, `${name}.db`)
}
