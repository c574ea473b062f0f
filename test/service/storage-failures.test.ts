/**
 * A busy database (another process holds the write lock past the busy timeout) and a full
 * disk, as every transport answers them: /v1 with 503 + Retry-After or 507 in the envelope,
 * IPC with the same codes; never 500. The lock is real: a second connection on the same file.
 */
import BetterSqlite3 from 'better-sqlite3'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { invokeOperation } from '../../src/service/operator/invoke-operation'
import { storageServiceError } from '../../src/service/ops/storage-service-error'
import { startTestService, sqliteDatabaseOf } from '../helpers/test-service'

const { SqliteError } = BetterSqlite3
const lockHolders: BetterSqlite3.Database[] = []
afterEach(() => {
  for (const db of lockHolders.splice(0)) {
    if (db.inTransaction) db.exec('ROLLBACK')
    db.close()
  }
})

/** Another connection (as another `voicedesk` would) takes the write lock and keeps it. */
function holdWriteLock(dataDir: string): void {
  const other = new BetterSqlite3(join(dataDir, 'voicedesk.db'))
  lockHolders.push(other)
  other.exec('BEGIN IMMEDIATE')
}

describe('storage failures as errors', () => {
  it('classifies SQLite and file-system codes, extended codes included', () => {
    expect(storageServiceError(new SqliteError('busy', 'SQLITE_BUSY'))?.status).toBe(503)
    expect(storageServiceError(new SqliteError('busy', 'SQLITE_BUSY_SNAPSHOT'))?.retryAfterSeconds).toBe(1)
    expect(storageServiceError(new SqliteError('locked', 'SQLITE_LOCKED_SHAREDCACHE'))?.code).toBe('UNAVAILABLE')
    expect(storageServiceError(new SqliteError('full', 'SQLITE_FULL'))?.status).toBe(507)
    expect(storageServiceError(new SqliteError('io', 'SQLITE_IOERR_WRITE'))?.code).toBe('INSUFFICIENT_STORAGE')
    expect(storageServiceError(Object.assign(new Error('no space'), { code: 'ENOSPC' }))?.code).toBe('INSUFFICIENT_STORAGE')
    expect(storageServiceError(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ENOSPC' }) }))?.status).toBe(507)
    expect(storageServiceError(new SqliteError('constraint', 'SQLITE_CONSTRAINT_UNIQUE'))).toBeUndefined()
    expect(storageServiceError(new Error('plain'))).toBeUndefined()
  })

  it('answers a write that finds the database busy 503 UNAVAILABLE with Retry-After, in the envelope; reads go on', async () => {
    const service = await startTestService()
    const created = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Busy test' } })
    expect(created.statusCode).toBe(200)
    const id = created.json<{ data: { id: string } }>().data.id
    sqliteDatabaseOf(service.runtime).pragma('busy_timeout = 50') // the real 5 s wait, shortened
    holdWriteLock(service.dataDir)

    const patched = await service.call('PATCH', `/v1/voice-agents/${id}`, { body: { agentName: 'Renamed' } })
    expect(patched.statusCode).toBe(503)
    expect(patched.headers['retry-after']).toBe('1')
    expect(patched.json()).toMatchObject({ success: false, error: { code: 'UNAVAILABLE', details: [] } })
    expect(patched.json<{ message: string }>().message).toMatch(/busy/)

    const read = await service.call('GET', `/v1/voice-agents/${id}`)
    expect(read.statusCode).toBe(200)
  })

  it('answers an IPC operation that finds the database busy with UNAVAILABLE', async () => {
    const service = await startTestService()
    sqliteDatabaseOf(service.runtime).pragma('busy_timeout = 50')
    holdWriteLock(service.dataDir)
    const result = await invokeOperation(service.runtime.operatorHandlers('desktop'), 'agents.create', { agentName: 'Busy IPC' })
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } })
  })

  it('answers /v1 writes 507 INSUFFICIENT_STORAGE while the disk is full, and reads 200', async () => {
    // Never room enough: the state stays until the test ends, however slow the machine.
    const service = await startTestService({ diskFull: { minFreeBytes: Number.POSITIVE_INFINITY } })
    // The disk-full state as the runner would enter it on ENOSPC; it is left only once free space is seen.
    service.runtime.diskFull.report(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }))
    const refused = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'No room' } })
    expect(refused.statusCode).toBe(507)
    expect(refused.json()).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_STORAGE', details: [] } })
    expect((await service.call('GET', '/v1/voice-agents')).statusCode).toBe(200)
    expect((await service.call('POST', `/v1/jobs/all?projectId=${service.runtime.bootstrap.projectId}`, { body: {} })).statusCode).toBe(200) // a list, though a POST
  })
})
