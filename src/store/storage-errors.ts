/**
 * What a failed read or write of the data folder means for the caller, whatever wrote it:
 * better-sqlite3 (a SqliteError whose `code` is SQLite's extended code, e.g. SQLITE_FULL or
 * SQLITE_BUSY_SNAPSHOT) or node:fs (an errno code such as ENOSPC).
 *
 * - `disk-full`: nothing more fits on the data folder's disk. SQLite reports SQLITE_FULL,
 *   or SQLITE_IOERR_WRITE / SQLITE_IOERR_SHMSIZE when the failed write was its journal or
 *   shared memory (the errno is not passed on, so those count as full too); node:fs reports
 *   ENOSPC, or EDQUOT for a user over quota.
 * - `busy`: another connection (another `voicedesk` on the folder) held the write lock for
 *   longer than the busy timeout; trying again shortly succeeds.
 */
export type StorageFailure = 'disk-full' | 'busy'

const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_SHMSIZE', 'ENOSPC', 'EDQUOT'])

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? code : undefined
}

/** The storage failure behind `error` (or behind its `cause`), if it is one. */
export function storageFailureOf(error: unknown): StorageFailure | undefined {
  for (let current = error, depth = 0; current !== undefined && depth < 4; depth += 1) {
    const code = codeOf(current)
    if (code !== undefined) {
      if (DISK_FULL_CODES.has(code) || code.startsWith('SQLITE_FULL')) return 'disk-full'
      // SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_RECOVERY, SQLITE_BUSY_TIMEOUT; SQLITE_LOCKED* is the same wait.
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy'
    }
    current = typeof current === 'object' && current !== null ? (current as { cause?: unknown }).cause : undefined
  }
  return undefined
}

export const isDiskFull = (error: unknown): boolean => storageFailureOf(error) === 'disk-full'
export const isDatabaseBusy = (error: unknown): boolean => storageFailureOf(error) === 'busy'
