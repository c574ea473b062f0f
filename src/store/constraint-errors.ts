/**
 * True when `error` is a write refused by a unique index, whatever the engine: better-sqlite3's
 * SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY, or PostgreSQL's unique_violation (SQLSTATE 23505).
 * Two writers that both checked first and then inserted meet here; the use case answers CONFLICT.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const code = (error as { code?: unknown }).code
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505'
}
