/**
 * What a failed read or write of the store means for the caller, whatever wrote it:
 * better-sqlite3 (a SqliteError whose `code` is SQLite's extended code, e.g. SQLITE_FULL or
 * SQLITE_BUSY_SNAPSHOT), node:fs (an errno code such as ENOSPC), or the `pg` driver (a
 * DatabaseError whose `code` is PostgreSQL's five-character SQLSTATE, or a socket's errno
 * code when the server could not be reached).
 *
 * - `disk-full`: nothing more fits on the disk. SQLite reports SQLITE_FULL, or
 *   SQLITE_IOERR_WRITE / SQLITE_IOERR_SHMSIZE when the failed write was its journal or
 *   shared memory (the errno is not passed on, so those count as full too); node:fs reports
 *   ENOSPC, or EDQUOT for a user over quota; PostgreSQL reports 53100 disk_full (the other
 *   53xxx, out of memory or connections, are not the disk: they count as busy).
 * - `busy`: trying again shortly succeeds. SQLite: another connection (another `voicedesk`
 *   on the folder) held the write lock for longer than the busy timeout. PostgreSQL: the
 *   server was unreachable or dropped the connection (ECONNREFUSED, ECONNRESET, pg's
 *   "Connection terminated unexpectedly", 08xxx
 *   connection exceptions, 57P01-57P03 shutting down or starting up), a transaction lost a
 *   serialization race (40001) or a deadlock (40P01), a lock was not available (55P03), or
 *   the server was out of memory or connections (53200, 53300, 53400).
 */
export type StorageFailure = 'disk-full' | 'busy'

const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_SHMSIZE', 'ENOSPC', 'EDQUOT', '53100'])

/** Errno codes of a connection to the database server that failed or dropped, and PostgreSQL's SQLSTATEs that mean "try again". */
const BUSY_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '40001',
  '40P01',
  '55P03',
  '53200',
  '53300',
  '53400',
])

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? code : undefined
}

/** The storage failure behind `error` (or behind its `cause`), if it is one. */
export function storageFailureOf(error: unknown): StorageFailure | undefined {
  for (let current = error, depth = 0; current !== undefined && depth < 4; depth += 1) {
    const code = codeOf(current)
    // pg ends every query of a connection that dropped under it with this error, which has no code.
    if (code === undefined && current instanceof Error && /^Connection terminated( unexpectedly)?$/.test(current.message)) return 'busy'
    if (code !== undefined) {
      if (DISK_FULL_CODES.has(code) || code.startsWith('SQLITE_FULL')) return 'disk-full'
      // SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_RECOVERY, SQLITE_BUSY_TIMEOUT; SQLITE_LOCKED* is the same wait.
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy'
      // Class 08: connection exception (08000, 08003, 08006, 08001 …).
      if (BUSY_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return 'busy'
    }
    current = typeof current === 'object' && current !== null ? (current as { cause?: unknown }).cause : undefined
  }
  return undefined
}

export const isDiskFull = (error: unknown): boolean => storageFailureOf(error) === 'disk-full'
export const isDatabaseBusy = (error: unknown): boolean => storageFailureOf(error) === 'busy'
