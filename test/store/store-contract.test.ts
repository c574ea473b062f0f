import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { text } from 'node:stream/consumers'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Store, StoreTransaction } from '../../src/store/ports'
import { StoreUsedInsideTransactionError } from '../../src/store/transaction-guard'
import { storeWebhook } from '../../src/webhooks/outbox'
import { deferred } from '../helpers/in-memory-leased-work'
import { PostgresMediaStore } from '../../src/store/postgres/media-store'
import { PostgresAccountsRepository } from '../../src/store/postgres/accounts-repository'
import { clientDb } from '../../src/store/postgres/db'
import { JOB_COLUMNS } from '../../src/store/columns'
import { jobSearchLexemes } from '../../src/store/postgres/search-words'
import { migrate } from '../../src/store/postgres/migrate'
import { MIGRATIONS } from '../../src/store/postgres/migrations'
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store'
import type {
  DeliveryRecord,
  JobRecord,
  NewDelivery,
  PhoneNumberRecord,
  TestRunRecord,
  VoiceDictionaryRecord,
} from '../../src/store/records'
import { searchWords } from '../../src/store/records'
import { openSqliteStore } from '../../src/store/sqlite/store'
import { jobRecord } from '../helpers/job-record'
import { makeTempDir } from '../helpers/temp-dir'
import { agentRecord, at, lazyPostgresCluster, newDelivery, P1, P2, phoneNumberRecord, seedAccounts } from '../helpers/store-fixtures'

/*
 * One contract, two engines: every behaviour the storage port promises, checked against the
 * SQLite store and the PostgreSQL store alike (each test on a fresh database). What only one
 * engine can do (another instance on the same database) is checked for that engine alone.
 */

const postgresCluster = lazyPostgresCluster()

interface Engine {
  name: 'sqlite' | 'postgres'
  /** A store on a fresh database, and a way to open another store on that same database. */
  open(): Promise<{ store: Store; another: () => Promise<Store> }>
}

const ENGINES: Engine[] = [
  {
    name: 'sqlite',
    async open() {
      const file = join(makeTempDir(), 'voicedesk.db')
      return { store: openSqliteStore(file), another: async () => openSqliteStore(file) }
    },
  },
  {
    name: 'postgres',
    async open() {
      const url = await (await postgresCluster()).createDatabase()
      return { store: await openPostgresStore({ url }), another: () => openPostgresStore({ url }) }
    },
  },
]

function job(fields: Partial<JobRecord> = {}): JobRecord {
  return jobRecord({
    id: `job-${randomBytes(6).toString('hex')}`,
    projectId: P1,
    usageSeconds: 42.5,
    totalCost: 3.25,
    attempts: 0,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  })
}

const agent = agentRecord
const phoneNumber = (fields: Partial<PhoneNumberRecord> = {}) => phoneNumberRecord({ number: '+15550001', ...fields })
const delivery = (fields: Partial<NewDelivery> = {}) => newDelivery({ dueAt: 1000, ...fields })

const listAll = { sort: 'createdAt', direction: 'asc', limit: 100, offset: 0 } as const

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe.each(ENGINES)('store contract: $name', (engine) => {
  const opened: Store[] = []
  afterEach(async () => {
    for (const store of opened.splice(0).reverse()) await store.close()
  })
  async function open(seed = true): Promise<{ store: Store; another: () => Promise<Store> }> {
    const { store, another } = await engine.open()
    opened.push(store)
    if (seed) await seedAccounts(store)
    return {
      store,
      another: async () => {
        const second = await another()
        opened.push(second)
        return second
      },
    }
  }

  it('opens as its engine, migrated, with nothing in it', async () => {
    const { store } = await open(false)
    expect(store.engine).toBe(engine.name)
    expect(await store.accounts.findDefaultProject()).toBeUndefined()
    expect(await store.accounts.findLocalUserId()).toBeUndefined()
    expect(await store.jobs.list(P1, listAll)).toEqual({ records: [], total: 0, filtered: 0 })
  })

  describe('accounts', () => {
    it('finds projects, the local user and keys', async () => {
      const { store } = await open()
      expect(await store.accounts.findDefaultProject()).toEqual({ id: P1, name: 'Default', isDefault: true, createdAt: at(0) })
      expect(await store.accounts.findProject(P2)).toEqual({ id: P2, name: 'Other', isDefault: false, createdAt: at(1) })
      expect(await store.accounts.findProject('nope')).toBeUndefined()
      expect(await store.accounts.findLocalUserId()).toBe('user-1')
      expect(await store.accounts.findActiveKeyByHash('hash-1')).toEqual({ apiKeyId: 'key-1', projectId: P1, userId: 'user-1' })
      expect(await store.accounts.findActiveKeyByHash('nope')).toBeUndefined()
      const key = {
        id: 'key-1',
        projectId: P1,
        userId: 'user-1',
        name: 'first',
        keyHash: 'hash-1',
        keyHint: 'vd_abc…wxyz',
        createdAt: at(0),
        lastUsedAt: null,
        revokedAt: null,
      }
      expect(await store.accounts.findKey('key-1')).toEqual(key)
      expect(await store.accounts.findKeyByHash('hash-1')).toEqual(key)
      await store.accounts.insertKey({
        id: 'key-0',
        projectId: P1,
        userId: 'user-1',
        name: 'zero',
        keyHash: 'hash-0',
        keyHint: 'h',
        createdAt: at(0),
      })
      expect((await store.accounts.listKeys(P1)).map((k) => k.id)).toEqual(['key-0', 'key-1'])
      await store.accounts.touchKey('key-1', at(5))
      expect((await store.accounts.findKey('key-1'))?.lastUsedAt).toBe(at(5))
    })

    it('refuses a second default project, and a key hash twice', async () => {
      const { store } = await open()
      await expect(store.accounts.insertProject({ id: 'p3', name: 'Third', isDefault: true, createdAt: at(2) })).rejects.toThrow()
      await expect(
        store.accounts.insertKey({
          id: 'key-3',
          projectId: P1,
          userId: 'user-1',
          name: 'dup',
          keyHash: 'hash-1',
          keyHint: 'h',
          createdAt: at(2),
        }),
      ).rejects.toThrow()
    })

    it('revokes a key once, and restores it', async () => {
      const { store } = await open()
      expect(await store.accounts.revokeKey('key-1', at(9))).toBe(true)
      expect(await store.accounts.revokeKey('key-1', at(10))).toBe(false)
      expect(await store.accounts.revokeKey('unknown', at(10))).toBe(false)
      expect(await store.accounts.findActiveKeyByHash('hash-1')).toBeUndefined()
      expect((await store.accounts.findKeyByHash('hash-1'))?.revokedAt).toBe(at(9))
      await store.accounts.restoreKey('key-1')
      expect(await store.accounts.findActiveKeyByHash('hash-1')).toEqual({ apiKeyId: 'key-1', projectId: P1, userId: 'user-1' })
    })
  })

  describe('settings', () => {
    it('stores JSON under a key, validated by the schema on the way out', async () => {
      const { store } = await open()
      const schema = z.object({ port: z.number(), hosts: z.array(z.string()) })
      expect(await store.settings.get('network', schema)).toBeUndefined()
      await store.settings.set('network', { port: 8080, hosts: ['a', 'ب'] })
      expect(await store.settings.get('network', schema)).toEqual({ port: 8080, hosts: ['a', 'ب'] })
      await store.settings.set('network', { port: 9090, hosts: [] })
      expect(await store.settings.get('network', schema)).toEqual({ port: 9090, hosts: [] })
      await expect(store.settings.get('network', z.object({ port: z.string() }))).rejects.toThrow(/setting network/)
      await store.settings.delete('network')
      expect(await store.settings.get('network', schema)).toBeUndefined()
    })
  })

  describe('voice agents', () => {
    it('writes, replaces, reads back exactly and removes', async () => {
      const { store } = await open()
      const record = agent({ id: 'agent-1' })
      await store.voiceAgents.insert(record)
      expect(await store.voiceAgents.findInProject('agent-1', P1)).toEqual(record)
      expect(await store.voiceAgents.findInProject('agent-1', P2)).toBeUndefined()
      const replaced = {
        ...record,
        agentName: 'Sales',
        realTime: false,
        interrupt: true,
        outcomeResponseShape: null,
        tools: {},
        params: {},
        webhookUrl: null,
        updatedAt: at(3),
      }
      await store.voiceAgents.replace({ ...replaced, createdAt: at(59) })
      expect(await store.voiceAgents.findInProject('agent-1', P1)).toEqual(replaced)
      expect(await store.voiceAgents.remove('agent-1', P2)).toBe(false)
      expect(await store.voiceAgents.remove('agent-1', P1)).toBe(true)
      expect(await store.voiceAgents.remove('agent-1', P1)).toBe(false)
    })

    it('keeps U+0000 and U+FFFF in free text exactly (PostgreSQL text cannot hold NUL: the engine encodes it)', async () => {
      const { store } = await open()
      const tricky = 'a\u0000b\uFFFFc\uFFFF0d\u0000'
      const record = agent({ id: 'agent-nul', greetingMessage: tricky, description: '\uFFFF\uFFFF' })
      await store.voiceAgents.insert(record)
      expect(await store.voiceAgents.findInProject('agent-nul', P1)).toEqual(record)
      expect((await store.voiceAgents.list(P1, { search: '\uFFFF\uFFFF' }, 10, 0)).records.map((found) => found.id)).toEqual(['agent-nul'])
    })

    it('lists newest first with totals, searching names and descriptions (ASCII case folded, wildcards literal) and exact ids', async () => {
      const { store } = await open()
      await store.voiceAgents.insert(agent({ id: 'a1', agentName: 'Support Desk', description: 'first line', createdAt: at(1) }))
      await store.voiceAgents.insert(
        agent({ id: 'a2', agentName: 'Sales 50% off', description: 'promo_code', createdAt: at(2), lang: 'ar' }),
      )
      await store.voiceAgents.insert(agent({ id: 'a3', agentName: 'مكتب الدعم', description: 'Éclair', createdAt: at(3), lang: 'ar' }))
      await store.voiceAgents.insert(
        agent({ id: 'a4', projectId: P2, apiKeyId: 'key-2', agentName: 'Support elsewhere', createdAt: at(4) }),
      )
      const ids = async (filter: Parameters<Store['voiceAgents']['list']>[1], limit = 10, offset = 0) => {
        const page = await store.voiceAgents.list(P1, filter, limit, offset)
        return { ids: page.records.map((record) => record.id), total: page.total, filtered: page.filtered }
      }
      expect(await ids({})).toEqual({ ids: ['a3', 'a2', 'a1'], total: 3, filtered: 3 })
      expect(await ids({}, 1, 1)).toEqual({ ids: ['a2'], total: 3, filtered: 3 })
      expect(await ids({ search: 'SUPPORT' })).toEqual({ ids: ['a1'], total: 3, filtered: 1 })
      expect(await ids({ search: 'line' })).toEqual({ ids: ['a1'], total: 3, filtered: 1 })
      expect(await ids({ search: '50%' })).toEqual({ ids: ['a2'], total: 3, filtered: 1 })
      expect(await ids({ search: '%' })).toEqual({ ids: ['a2'], total: 3, filtered: 1 })
      expect(await ids({ search: 'o_c' })).toEqual({ ids: ['a2'], total: 3, filtered: 1 })
      expect(await ids({ search: '_' })).toEqual({ ids: ['a2'], total: 3, filtered: 1 })
      expect(await ids({ search: 'الدعم' })).toEqual({ ids: ['a3'], total: 3, filtered: 1 })
      // Like SQLite's LIKE: only ASCII letters fold.
      expect(await ids({ search: 'éclair' })).toEqual({ ids: [], total: 3, filtered: 0 })
      expect(await ids({ search: 'Éclair' })).toEqual({ ids: ['a3'], total: 3, filtered: 1 })
      expect(await ids({ search: 'a1' })).toEqual({ ids: ['a1'], total: 3, filtered: 1 })
      expect(await ids({ lang: 'ar' })).toEqual({ ids: ['a3', 'a2'], total: 3, filtered: 2 })
      expect(await ids({ lang: 'ar', search: 'sales' })).toEqual({ ids: ['a2'], total: 3, filtered: 1 })
      expect(await ids({ search: 'Supp\u0000' })).toEqual({ ids: [], total: 3, filtered: 0 })
    })
  })

  describe('agent test suites and runs', () => {
    const run = (fields: Partial<TestRunRecord> = {}): TestRunRecord => ({
      id: 'run-1',
      projectId: P1,
      agentId: 'agent-t',
      agentVersion: 2,
      status: 'RUNNING',
      error: null,
      concurrency: 4,
      repeat: 1,
      results: [{ name: 'first', status: 'PENDING' }],
      leaseUntil: 5_000,
      createdAt: at(1),
      updatedAt: at(1),
      ...fields,
    })

    it('keeps one suite per agent, runs newest first with their results, each in its project, and deletes both with the agent', async () => {
      const { store } = await open()
      await store.voiceAgents.insert(agent({ id: 'agent-t' }))
      await store.voiceAgents.insert(agent({ id: 'agent-u', projectId: P2 }))
      expect(await store.testRuns.findSuite('agent-t', P1)).toBeUndefined()
      await store.testRuns.putSuite({ agentId: 'agent-t', projectId: P1, suite: { scenarios: [{ name: 'a' }] }, updatedAt: at(1) })
      await store.testRuns.putSuite({ agentId: 'agent-t', projectId: P1, suite: { scenarios: [{ name: 'b' }] }, updatedAt: at(2) })
      expect(await store.testRuns.findSuite('agent-t', P1)).toEqual({
        agentId: 'agent-t',
        projectId: P1,
        suite: { scenarios: [{ name: 'b' }] },
        updatedAt: at(2),
      })
      expect(await store.testRuns.findSuite('agent-t', P2)).toBeUndefined()

      await store.testRuns.insertRun(run())
      // Made in the same millisecond: the later insert lists first.
      await store.testRuns.insertRun(run({ id: 'run-2' }))
      await store.testRuns.insertRun(run({ id: 'run-3', projectId: P2, agentId: 'agent-u' }))
      expect(await store.testRuns.findRun('run-1', P1)).toEqual(run())
      expect(await store.testRuns.findRun('run-1', P2)).toBeUndefined()
      expect(await store.testRuns.findRun('run-3', P1)).toBeUndefined()
      expect((await store.testRuns.listRuns('agent-t', P1, 10)).map((record) => record.id)).toEqual(['run-2', 'run-1'])
      expect((await store.testRuns.listRuns('agent-t', P1, 1)).map((record) => record.id)).toEqual(['run-2'])
      expect(await store.testRuns.listRuns('agent-t', P2, 10)).toEqual([])

      const results = [{ name: 'first', status: 'PASSED', pass: true }]
      expect(await store.testRuns.saveRun('run-1', { status: 'PASSED', error: null, results, leaseUntil: null, updatedAt: at(3) })).toBe(
        true,
      )
      expect(await store.testRuns.findRun('run-1', P1)).toEqual(run({ status: 'PASSED', results, leaseUntil: null, updatedAt: at(3) }))
      // An ended run is written no more.
      expect(
        await store.testRuns.saveRun('run-1', { status: 'FAILED', error: 'late', results: [], leaseUntil: null, updatedAt: at(4) }),
      ).toBe(false)
      expect((await store.testRuns.findRun('run-1', P1))?.status).toBe('PASSED')

      expect(await store.voiceAgents.remove('agent-t', P1)).toBe(true)
      expect(await store.testRuns.findSuite('agent-t', P1)).toBeUndefined()
      expect(await store.testRuns.findRun('run-2', P1)).toBeUndefined()
      expect(await store.testRuns.findRun('run-3', P2)).toBeDefined()
    })

    it('ends FAILED only the RUNNING runs whose lease ran out', async () => {
      const { store } = await open()
      await store.voiceAgents.insert(agent({ id: 'agent-t' }))
      await store.testRuns.insertRun(run({ id: 'expired', leaseUntil: 1_000 }))
      await store.testRuns.insertRun(run({ id: 'held', leaseUntil: 9_000 }))
      await store.testRuns.insertRun(run({ id: 'ended', status: 'PASSED', leaseUntil: null }))
      expect(await store.testRuns.failAbandonedRuns(5_000, 'The service stopped during the run', at(5))).toBe(1)
      expect(await store.testRuns.findRun('expired', P1)).toMatchObject({
        status: 'FAILED',
        error: 'The service stopped during the run',
        leaseUntil: null,
        updatedAt: at(5),
      })
      expect((await store.testRuns.findRun('held', P1))?.status).toBe('RUNNING')
      expect((await store.testRuns.findRun('ended', P1))?.status).toBe('PASSED')
      expect(
        await store.testRuns.saveRun('expired', { status: 'PASSED', error: null, results: [], leaseUntil: null, updatedAt: at(6) }),
      ).toBe(false)
    })
  })

  describe('voice dictionaries', () => {
    const dictionary = (fields: Partial<VoiceDictionaryRecord> = {}): VoiceDictionaryRecord => ({
      id: 'dict-1',
      projectId: P1,
      apiKeyId: 'key-1',
      name: 'Medical terms',
      words: [{ word: 'ibuprofen', pronunciation: 'eye byoo pro fen' }],
      createdAt: at(1),
      updatedAt: at(1),
      ...fields,
    })

    it('stores dictionaries per project, pages and filters them, and activates them per agent in order', async () => {
      const { store } = await open()
      await store.voiceAgents.insert(agent({ id: 'agent-a' }))
      await store.voiceAgents.insert(agent({ id: 'agent-b' }))
      await store.voiceDictionaries.insert(dictionary())
      await store.voiceDictionaries.insert(dictionary({ id: 'dict-2', name: 'Names', words: [], createdAt: at(2), updatedAt: at(2) }))
      await store.voiceDictionaries.insert(dictionary({ id: 'dict-3', projectId: P2, name: 'Other project' }))
      expect(await store.voiceDictionaries.findInProject('dict-1', P1)).toEqual({ ...dictionary(), voiceAgentIds: [] })
      expect(await store.voiceDictionaries.findInProject('dict-3', P1)).toBeUndefined()

      expect(await store.voiceDictionaries.setActive('dict-2', 'agent-a', P1, true, at(3))).toBe(true)
      expect(await store.voiceDictionaries.setActive('dict-1', 'agent-a', P1, true, at(4))).toBe(true)
      expect(await store.voiceDictionaries.setActive('dict-1', 'agent-a', P1, true, at(5))).toBe(false)
      expect(await store.voiceDictionaries.setActive('dict-1', 'agent-b', P1, true, at(5))).toBe(true)
      expect((await store.voiceDictionaries.findActiveForAgent('agent-a', P1)).map((view) => view.id)).toEqual(['dict-2', 'dict-1'])
      expect(await store.voiceDictionaries.findActiveForAgent('agent-a', P2)).toEqual([])
      expect((await store.voiceDictionaries.findInProject('dict-1', P1))?.voiceAgentIds).toEqual(['agent-a', 'agent-b'])

      const ids = async (filter: Parameters<Store['voiceDictionaries']['list']>[1], limit = 10, offset = 0) => {
        const page = await store.voiceDictionaries.list(P1, filter, limit, offset)
        return { ids: page.records.map((view) => view.id), total: page.total, filtered: page.filtered }
      }
      expect(await ids({})).toEqual({ ids: ['dict-2', 'dict-1'], total: 2, filtered: 2 })
      expect(await ids({}, 1, 1)).toEqual({ ids: ['dict-1'], total: 2, filtered: 2 })
      expect(await ids({ search: 'MEDICAL' })).toEqual({ ids: ['dict-1'], total: 2, filtered: 1 })
      expect(await ids({ voiceAgentId: 'agent-b' })).toEqual({ ids: ['dict-1'], total: 2, filtered: 1 })
      expect(await store.voiceDictionaries.setActive('dict-2', 'agent-a', P1, false, at(6))).toBe(true)
      expect(await ids({ used: false })).toEqual({ ids: ['dict-2'], total: 2, filtered: 1 })
      expect(await ids({ used: true })).toEqual({ ids: ['dict-1'], total: 2, filtered: 1 })

      const changed = dictionary({ name: 'Renamed', words: [{ word: 'سعد', pronunciation: 'سَعْد' }], updatedAt: at(7) })
      expect(await store.voiceDictionaries.update(changed)).toBe(true)
      expect(await store.voiceDictionaries.update({ ...changed, projectId: P2 })).toBe(false)
      expect(await store.voiceDictionaries.findInProject('dict-1', P1)).toEqual({ ...changed, voiceAgentIds: ['agent-a', 'agent-b'] })

      // Deleting an agent ends its activations; deleting a dictionary ends its own.
      await store.voiceAgents.remove('agent-a', P1)
      expect((await store.voiceDictionaries.findInProject('dict-1', P1))?.voiceAgentIds).toEqual(['agent-b'])
      expect(await store.voiceDictionaries.remove('dict-1', P2)).toBe(false)
      expect(await store.voiceDictionaries.remove('dict-1', P1)).toBe(true)
      expect(await store.voiceDictionaries.findActiveForAgent('agent-b', P1)).toEqual([])
      expect(await store.voiceDictionaries.findInProject('dict-3', P2)).toBeDefined()
    })
  })

  describe('voice agent versions', () => {
    /** One change as the service makes it: the agent's row, then its version, in one transaction. */
    function change(store: Store, record: ReturnType<typeof agent>, source: string) {
      return store.transaction(async (tx) => {
        await tx.voiceAgents.replace(record)
        return tx.voiceAgents.addVersion(record, source, record.updatedAt)
      })
    }

    it('numbers versions 1, 2, 3 per agent, reads each back whole, lists them newest first and deletes them with the agent', async () => {
      const { store } = await open()
      const first = agent({ id: 'agent-v', agentName: 'One', updatedAt: at(1) })
      const other = agent({ id: 'agent-w' })
      await store.transaction(async (tx) => {
        await tx.voiceAgents.insert(first)
        await tx.voiceAgents.insert(other)
        expect(await tx.voiceAgents.addVersion(first, 'create', at(1))).toBe(1)
        expect(await tx.voiceAgents.addVersion(other, 'create', at(1))).toBe(1)
      })
      const second = { ...first, agentName: 'Two', realTime: false, outcomeResponseShape: null, params: {}, updatedAt: at(2) }
      expect(await change(store, second, 'update')).toBe(2)
      expect(await change(store, { ...first, updatedAt: at(3) }, 'restore:1')).toBe(3)

      expect(await store.voiceAgents.findVersion('agent-v', P1, 1)).toEqual({ ...first, version: 1, source: 'create', versionedAt: at(1) })
      expect(await store.voiceAgents.findVersion('agent-v', P1, 2)).toEqual({ ...second, version: 2, source: 'update', versionedAt: at(2) })
      expect(await store.voiceAgents.findVersion('agent-v', P2, 1)).toBeUndefined()
      expect(await store.voiceAgents.findVersion('agent-v', P1, 4)).toBeUndefined()
      expect(await store.voiceAgents.latestVersion('agent-v', P1)).toBe(3)
      expect(await store.voiceAgents.latestVersion('agent-v', P2)).toBeUndefined()
      expect(await store.voiceAgents.latestVersion('agent-w', P1)).toBe(1)

      const page = await store.voiceAgents.listVersions('agent-v', P1, 2, 0)
      expect(page.records.map((record) => [record.version, record.source])).toEqual([
        [3, 'restore:1'],
        [2, 'update'],
      ])
      expect([page.total, page.filtered]).toEqual([3, 3])
      expect((await store.voiceAgents.listVersions('agent-v', P1, 2, 2)).records.map((record) => record.version)).toEqual([1])
      expect(await store.voiceAgents.listVersions('agent-v', P2, 10, 0)).toEqual({ records: [], total: 0, filtered: 0 })

      expect(await store.voiceAgents.remove('agent-v', P1)).toBe(true)
      expect(await store.voiceAgents.latestVersion('agent-v', P1)).toBeUndefined()
      expect(await store.voiceAgents.listVersions('agent-v', P1, 10, 0)).toEqual({ records: [], total: 0, filtered: 0 })
      expect(await store.voiceAgents.latestVersion('agent-w', P1)).toBe(1)
    })

    it('writes no version when the transaction of its change rolls back', async () => {
      const { store } = await open()
      const record = agent({ id: 'agent-r' })
      await store.transaction(async (tx) => {
        await tx.voiceAgents.insert(record)
        await tx.voiceAgents.addVersion(record, 'create', at(1))
      })
      const failed = store.transaction(async (tx) => {
        await tx.voiceAgents.replace({ ...record, agentName: 'Lost' })
        await tx.voiceAgents.addVersion({ ...record, agentName: 'Lost' }, 'update', at(2))
        throw new Error('the change failed')
      })
      await expect(failed).rejects.toThrow('the change failed')
      expect(await store.voiceAgents.latestVersion('agent-r', P1)).toBe(1)
      expect(await change(store, { ...record, agentName: 'Kept' }, 'update')).toBe(2)
    })

    it('gives changes made at once distinct consecutive numbers (on PostgreSQL across two instances too)', async () => {
      const { store, another } = await open()
      // SQLite: two stores of one file in one process would wait on each other's lock synchronously; its writers are one connection.
      const second = engine.name === 'postgres' ? await another() : store
      const record = agent({ id: 'agent-c' })
      await store.transaction(async (tx) => {
        await tx.voiceAgents.insert(record)
        await tx.voiceAgents.addVersion(record, 'create', at(1))
      })
      const numbers = await Promise.all(
        Array.from({ length: 24 }, (_, index) =>
          change(index % 2 === 0 ? store : second, { ...record, agentName: `Change ${index}` }, 'update'),
        ),
      )
      expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, index) => index + 2))
      const listed = await store.voiceAgents.listVersions('agent-c', P1, 100, 0)
      expect(listed.total).toBe(25)
      // Each number holds the change that took it.
      for (const [index, number] of numbers.entries()) {
        expect((await store.voiceAgents.findVersion('agent-c', P1, number))?.agentName).toBe(`Change ${index}`)
      }
    })
  })

  describe('phone numbers', () => {
    it('reads numbers with their agent name, reassigns and removes them', async () => {
      const { store } = await open()
      await store.voiceAgents.insert(agent({ id: 'agent-1', agentName: 'Desk' }))
      const record = phoneNumber({ id: 'n1', voiceAgentId: 'agent-1' })
      await store.phoneNumbers.insert(record)
      expect(await store.phoneNumbers.findInProject('n1', P1)).toEqual({ ...record, voiceAgentName: 'Desk' })
      expect(await store.phoneNumbers.findInProject('n1', P2)).toBeUndefined()
      expect((await store.phoneNumbers.findByNumber('+15550001', P1))?.id).toBe('n1')
      expect(await store.phoneNumbers.findByNumber('+15550001', P2)).toBeUndefined()
      // The SIP line looks a number up in every project: each registration, oldest first.
      await store.phoneNumbers.insert(phoneNumber({ id: 'n9', projectId: P2, number: '+15550001', createdAt: at(9) }))
      expect((await store.phoneNumbers.findEverywhere('+15550001')).map((found) => [found.id, found.projectId])).toEqual([
        ['n1', P1],
        ['n9', P2],
      ])
      expect(await store.phoneNumbers.findEverywhere('+15550009')).toEqual([])
      expect(await store.phoneNumbers.remove('n9', P2)).toBe(true)
      await expect(store.phoneNumbers.insert(phoneNumber({ id: 'n2' }))).rejects.toThrow()
      await store.phoneNumbers.setAgent('n1', null, at(7))
      expect(await store.phoneNumbers.findInProject('n1', P1)).toEqual({
        ...record,
        voiceAgentId: null,
        voiceAgentName: null,
        updatedAt: at(7),
      })
      await store.phoneNumbers.setAgent('n1', 'agent-1', at(8))
      await store.voiceAgents.remove('agent-1', P1)
      expect((await store.phoneNumbers.findInProject('n1', P1))?.voiceAgentId).toBeNull()
      expect(await store.phoneNumbers.remove('n1', P1)).toBe(true)
      expect(await store.phoneNumbers.remove('n1', P1)).toBe(false)
    })

    it('lists newest first, filtered by agent and by a substring of number or label', async () => {
      const { store } = await open()
      await store.voiceAgents.insert(agent({ id: 'agent-1' }))
      await store.phoneNumbers.insert(
        phoneNumber({ id: 'n1', number: '+15550001', label: 'Front Desk', createdAt: at(1), voiceAgentId: 'agent-1' }),
      )
      await store.phoneNumbers.insert(phoneNumber({ id: 'n2', number: '+15550002', label: 'Back 100%', createdAt: at(2) }))
      await store.phoneNumbers.insert(phoneNumber({ id: 'n3', number: '+9665000', label: 'الرياض', createdAt: at(3) }))
      await store.phoneNumbers.insert(phoneNumber({ id: 'n4', projectId: P2, apiKeyId: 'key-2', number: '+15550001', createdAt: at(4) }))
      const ids = async (filter: Parameters<Store['phoneNumbers']['list']>[1]) => {
        const page = await store.phoneNumbers.list(P1, filter, 10, 0)
        return { ids: page.records.map((record) => record.id), total: page.total, filtered: page.filtered }
      }
      expect(await ids({})).toEqual({ ids: ['n3', 'n2', 'n1'], total: 3, filtered: 3 })
      expect(await ids({ search: '555000' })).toEqual({ ids: ['n2', 'n1'], total: 3, filtered: 2 })
      expect(await ids({ search: 'front desk' })).toEqual({ ids: ['n1'], total: 3, filtered: 1 })
      expect(await ids({ search: '0%' })).toEqual({ ids: ['n2'], total: 3, filtered: 1 })
      expect(await ids({ search: 'الرياض' })).toEqual({ ids: ['n3'], total: 3, filtered: 1 })
      expect(await ids({ voiceAgentId: 'agent-1' })).toEqual({ ids: ['n1'], total: 3, filtered: 1 })
      expect(await ids({ voiceAgentId: 'agent-1', search: 'back' })).toEqual({ ids: [], total: 3, filtered: 0 })
    })
  })

  describe('jobs', () => {
    it('reads a job back exactly, by id, in its project, by preview token, and the newest made from a source', async () => {
      const { store } = await open()
      const source = job({ id: 'source', text: null, usageSeconds: null, jobResponse: null, errorCode: 'TIMEOUT', errorMessage: 'slow' })
      const older = job({ id: 'ai-1', type: 'AI_CONTENT', relevantJobId: 'source', aiParts: ['summary'], createdAt: at(1) })
      const newer = job({
        id: 'ai-2',
        type: 'AI_CONTENT',
        relevantJobId: 'source',
        aiParts: ['summary', 'keywords'] as JobRecord['aiParts'],
        createdAt: at(2),
      })
      for (const record of [source, older, newer]) await store.jobs.insert(record)
      expect(await store.jobs.findById('source')).toEqual(source)
      expect(await store.jobs.findInProject('ai-1', P1)).toEqual(older)
      expect(await store.jobs.findInProject('ai-1', P2)).toBeUndefined()
      expect(await store.jobs.findByPreviewToken(newer.previewToken)).toEqual(newer)
      expect(await store.jobs.findByPreviewToken('nope')).toBeUndefined()
      expect(await store.jobs.newestFromSource('source', P1)).toEqual(newer)
      expect(await store.jobs.newestFromSource('source', P2)).toBeUndefined()
      await expect(store.jobs.insert(job({ id: 'source' }))).rejects.toThrow()
    })

    it('says which media names a job names, in any project (what an interrupted import wrote and no row names is not)', async () => {
      const { store } = await open()
      await store.jobs.insert(job({ mediaFile: 'mine.wav' }))
      await store.jobs.insert(job({ projectId: P2, apiKeyId: 'key-2', mediaFile: 'theirs.mp3' }))
      await store.jobs.insert(job({ mediaFile: null }))
      expect(await store.jobs.namingMedia(['mine.wav', 'theirs.mp3', 'orphan.wav', "o'quote.wav"])).toEqual(
        new Set(['mine.wav', 'theirs.mp3']),
      )
      expect(await store.jobs.namingMedia([])).toEqual(new Set())
    })

    it('counts statistics per type and status since a time', async () => {
      const { store } = await open()
      await store.jobs.insert(job({ createdAt: at(1), totalCost: 1.5, usageSeconds: 10 }))
      await store.jobs.insert(job({ createdAt: at(2), totalCost: 2, usageSeconds: null }))
      await store.jobs.insert(job({ createdAt: at(3), type: 'TTS', status: 'FAILED', totalCost: 0, usageSeconds: 4.5 }))
      await store.jobs.insert(job({ createdAt: at(4), projectId: P2, apiKeyId: 'key-2' }))
      const sorted = (rows: { type: string; status: string }[]) =>
        [...rows].sort((a, b) => `${a.type}${a.status}`.localeCompare(`${b.type}${b.status}`))
      expect(sorted(await store.jobs.statistics(P1, ''))).toEqual([
        { type: 'TRANSCRIPTION', status: 'COMPLETED', jobs: 2, cost: 3.5, seconds: 10 },
        { type: 'TTS', status: 'FAILED', jobs: 1, cost: 0, seconds: 4.5 },
      ])
      expect(await store.jobs.statistics(P1, at(2))).toHaveLength(2)
      expect(await store.jobs.statistics(P1, at(3))).toEqual([{ type: 'TTS', status: 'FAILED', jobs: 1, cost: 0, seconds: 4.5 }])
    })

    it('lists pages with exact totals and filtered counts, in every sort', async () => {
      const { store } = await open()
      await store.jobs.insert(job({ id: 'j1', title: 'beta', totalCost: 5, createdAt: at(1), updatedAt: at(9) }))
      await store.jobs.insert(
        job({ id: 'j2', title: 'alpha', type: 'TTS', status: 'FAILED', totalCost: 1, createdAt: at(2), updatedAt: at(2) }),
      )
      await store.jobs.insert(job({ id: 'j3', title: 'Gamma', status: 'PENDING', totalCost: 7, createdAt: at(3), updatedAt: at(3) }))
      await store.jobs.insert(job({ id: 'j0', title: 'alpha', createdAt: at(3), updatedAt: at(3) }))
      await store.jobs.insert(job({ id: 'other', projectId: P2, apiKeyId: 'key-2', createdAt: at(4) }))
      const page = async (query: Partial<Parameters<Store['jobs']['list']>[1]>) => {
        const result = await store.jobs.list(P1, { ...listAll, ...query })
        return { ids: result.records.map((record) => record.id), total: result.total, filtered: result.filtered }
      }
      expect(await page({})).toEqual({ ids: ['j1', 'j2', 'j0', 'j3'], total: 4, filtered: 4 })
      expect(await page({ direction: 'desc' })).toEqual({ ids: ['j3', 'j0', 'j2', 'j1'], total: 4, filtered: 4 })
      // Byte order, as SQLite's BINARY collation: upper case before lower case.
      expect(await page({ sort: 'title' })).toEqual({ ids: ['j3', 'j2', 'j0', 'j1'], total: 4, filtered: 4 })
      expect(await page({ sort: 'cost', direction: 'desc' })).toEqual({ ids: ['j3', 'j1', 'j0', 'j2'], total: 4, filtered: 4 })
      expect(await page({ sort: 'updatedAt' })).toEqual({ ids: ['j2', 'j0', 'j3', 'j1'], total: 4, filtered: 4 })
      expect(await page({ sort: 'status' })).toEqual({ ids: ['j1', 'j0', 'j2', 'j3'], total: 4, filtered: 4 })
      expect(await page({ sort: 'type', direction: 'desc' })).toEqual({ ids: ['j2', 'j3', 'j0', 'j1'], total: 4, filtered: 4 })
      expect(await page({ limit: 2, offset: 1 })).toEqual({ ids: ['j2', 'j0'], total: 4, filtered: 4 })
      expect(await page({ status: 'COMPLETED' })).toEqual({ ids: ['j1', 'j0'], total: 4, filtered: 2 })
      expect(await page({ type: 'TTS' })).toEqual({ ids: ['j2'], total: 4, filtered: 1 })
      expect(await page({ type: 'TTS', status: 'COMPLETED' })).toEqual({ ids: [], total: 4, filtered: 0 })
      expect(await page({ id: 'j3' })).toEqual({ ids: ['j3'], total: 4, filtered: 1 })
      expect(await page({ id: 'other' })).toEqual({ ids: [], total: 4, filtered: 0 })
      expect(await page({ id: 'j3', status: 'FAILED' })).toEqual({ ids: [], total: 4, filtered: 0 })
      // A status change moves the counts.
      await store.jobs.insert(job({ id: 'run', status: 'PENDING', createdAt: at(5) }))
      const claimed = await store.jobs.claimNext('w', 10, 20)
      expect(claimed?.id).toBe('j3')
      await store.jobs.complete('j3', 'w', { jobResponse: {}, usageSeconds: 1, totalCost: 1 }, at(6))
      expect(await page({ status: 'PENDING' })).toEqual({ ids: ['run'], total: 5, filtered: 1 })
      expect(await page({ status: 'COMPLETED' })).toEqual({ ids: ['j1', 'j0', 'j3'], total: 5, filtered: 3 })
    })

    it('keeps counts exact across many status changes', async () => {
      const { store } = await open()
      for (let index = 0; index < 300; index += 1)
        await store.jobs.insert(job({ id: `bulk-${String(index).padStart(3, '0')}`, status: 'PENDING', createdAt: at(index % 60) }))
      expect((await store.jobs.list(P1, { ...listAll, status: 'PENDING', limit: 1 })).filtered).toBe(300)
      for (let index = 0; index < 120; index += 1) {
        const claimed = await store.jobs.claimNext('w', 10, 20)
        await store.jobs.fail(claimed!.id, 'w', 'INTERNAL', 'broken', at(1))
      }
      for (let round = 0; round < 2; round += 1) {
        const pending = await store.jobs.list(P1, { ...listAll, status: 'PENDING', limit: 1 })
        const failed = await store.jobs.list(P1, { ...listAll, status: 'FAILED', limit: 1 })
        expect([pending.total, pending.filtered, failed.filtered]).toEqual([300, 180, 120])
      }
    })

    it('searches words in title and text: whole words or their starts, all of them, any case, English and Arabic', async () => {
      const { store } = await open()
      await store.jobs.insert(
        job({ id: 'en', title: 'Quarterly report', text: 'Revenue grew; the e-mail (sent 2024) said: "Café open!"', createdAt: at(1) }),
      )
      await store.jobs.insert(job({ id: 'ar', title: 'مكالمة العميل', text: 'شكرا لاتصالك بخدمة العملاء', type: 'TTS', createdAt: at(2) }))
      await store.jobs.insert(job({ id: 'mix', title: 'Report a', text: 'مرحبا world', status: 'FAILED', createdAt: at(3) }))
      await store.jobs.insert(job({ id: 'elsewhere', projectId: P2, apiKeyId: 'key-2', title: 'Quarterly report', createdAt: at(4) }))
      const found = async (search: string, query: Partial<Parameters<Store['jobs']['list']>[1]> = {}) => {
        const result = await store.jobs.list(P1, { ...listAll, ...query, words: searchWords(search) })
        expect(result.filtered).toBe(result.records.length)
        expect(result.total).toBe(3)
        return result.records.map((record) => record.id)
      }
      expect(await found('report')).toEqual(['en', 'mix'])
      expect(await found('REPO')).toEqual(['en', 'mix'])
      expect(await found('quarterly revenue')).toEqual(['en'])
      expect(await found('quarterly world')).toEqual([])
      expect(await found('port')).toEqual([])
      expect(await found('mail')).toEqual(['en'])
      expect(await found('e-mail')).toEqual(['en'])
      expect(await found('2024')).toEqual(['en'])
      expect(await found('"café!"')).toEqual(['en'])
      expect(await found('cafe')).toEqual(['en'])
      expect(await found('العميل')).toEqual(['ar'])
      expect(await found('العم')).toEqual(['ar'])
      expect(await found('بخدمة العملاء')).toEqual(['ar'])
      expect(await found('مرحبا report')).toEqual(['mix'])
      // One letter: a whole word only, never a prefix.
      expect(await found('a')).toEqual(['mix'])
      expect(await found('r')).toEqual([])
      expect(await found('report', { status: 'FAILED' })).toEqual(['mix'])
      expect(await found('report', { type: 'TTS' })).toEqual([])
      expect(await found('report', { sort: 'createdAt', direction: 'desc' })).toEqual(['mix', 'en'])
      expect(await found('report', { sort: 'title' })).toEqual(['en', 'mix'])
      expect(await found('report', { id: 'mix' })).toEqual(['mix'])
      const paged = await store.jobs.list(P1, { ...listAll, limit: 1, offset: 1, words: ['report'] })
      expect([paged.records.map((record) => record.id), paged.filtered]).toEqual([['mix'], 2])
    })

    it('lists a range of creation times (from included, to excluded) with its exact count, with every filter, sort and search', async () => {
      const { store } = await open()
      await store.jobs.insert(job({ id: 'd1', title: 'refund early', createdAt: '2024-05-01T23:59:59.999Z' }))
      await store.jobs.insert(job({ id: 'd2', title: 'refund noon', type: 'TTS', createdAt: '2024-05-02T00:00:00.000Z' }))
      await store.jobs.insert(job({ id: 'd3', title: 'invoice', status: 'FAILED', totalCost: 9, createdAt: '2024-05-02T12:00:00.000Z' }))
      await store.jobs.insert(job({ id: 'd4', title: 'refund late', createdAt: '2024-05-03T00:00:00.000Z' }))
      await store.jobs.insert(job({ id: 'd-other', projectId: P2, apiKeyId: 'key-2', createdAt: '2024-05-02T06:00:00.000Z' }))
      const day = { createdFrom: '2024-05-02T00:00:00.000Z', createdTo: '2024-05-03T00:00:00.000Z' }
      const page = async (query: Partial<Parameters<Store['jobs']['list']>[1]>) => {
        const result = await store.jobs.list(P1, { ...listAll, ...query })
        return { ids: result.records.map((record) => record.id), total: result.total, filtered: result.filtered }
      }
      expect(await page(day)).toEqual({ ids: ['d2', 'd3'], total: 4, filtered: 2 })
      expect(await page({ createdFrom: day.createdFrom })).toEqual({ ids: ['d2', 'd3', 'd4'], total: 4, filtered: 3 })
      expect(await page({ createdTo: day.createdFrom })).toEqual({ ids: ['d1'], total: 4, filtered: 1 })
      expect(await page({ ...day, direction: 'desc' })).toEqual({ ids: ['d3', 'd2'], total: 4, filtered: 2 })
      expect(await page({ ...day, sort: 'cost', direction: 'desc' })).toEqual({ ids: ['d3', 'd2'], total: 4, filtered: 2 })
      expect(await page({ ...day, status: 'FAILED' })).toEqual({ ids: ['d3'], total: 4, filtered: 1 })
      expect(await page({ ...day, type: 'TTS' })).toEqual({ ids: ['d2'], total: 4, filtered: 1 })
      expect(await page({ ...day, limit: 1, offset: 1 })).toEqual({ ids: ['d3'], total: 4, filtered: 2 })
      expect(await page({ ...day, id: 'd1' })).toEqual({ ids: [], total: 4, filtered: 0 })
      expect(await page({ ...day, id: 'd2' })).toEqual({ ids: ['d2'], total: 4, filtered: 1 })
      expect(await page({ ...day, words: ['refund'] })).toEqual({ ids: ['d2'], total: 4, filtered: 1 })
      expect(await page({ createdFrom: '2024-05-01T00:00:00.000Z', words: ['refund'], direction: 'desc' })).toEqual({
        ids: ['d4', 'd2', 'd1'],
        total: 4,
        filtered: 3,
      })
      expect(await page({ createdFrom: day.createdTo, createdTo: day.createdTo })).toEqual({ ids: [], total: 4, filtered: 0 })
    })
  })

  describe('transactions', () => {
    it('commits all of the work, and answers what it answered', async () => {
      const { store } = await open()
      const answer = await store.transaction(async (tx) => {
        await tx.jobs.insert(job({ id: 't1' }))
        await tx.webhookDeliveries.insert(delivery({ id: 'd1', jobId: 't1' }))
        expect(await tx.jobs.findById('t1')).toBeDefined()
        return 'done'
      })
      expect(answer).toBe('done')
      expect(await store.jobs.findById('t1')).toBeDefined()
      expect(await store.webhookDeliveries.findById('d1')).toBeDefined()
    })

    it('rolls all of it back when the work throws, and keeps what was written outside it meanwhile', async () => {
      const { store } = await open()
      const wrote = deferred()
      const release = deferred()
      const transaction = store.transaction(async (tx) => {
        await tx.jobs.insert(job({ id: 't1' }))
        await tx.settings.set('inside', true)
        wrote.resolve()
        await release.promise
        throw new Error('no')
      })
      await wrote.promise
      // Another caller (this test, outside the work) while the transaction is open.
      const outsideRead = store.jobs.findById('t1')
      const outsideWrite = store.settings.set('outside', true)
      release.resolve()
      await expect(transaction).rejects.toThrow('no')
      expect(await outsideRead).toBeUndefined()
      await outsideWrite
      expect(await store.jobs.findById('t1')).toBeUndefined()
      expect(await store.settings.get('inside', z.boolean())).toBeUndefined()
      expect(await store.settings.get('outside', z.boolean())).toBe(true)
      expect((await store.jobs.list(P1, listAll)).total).toBe(0)
    })

    it('refuses the store inside its own transaction: the misuse does not compile, and forced, rejects by name and commits nothing', async () => {
      const { store } = await open()
      const target = { projectId: P1, url: 'https://example.test/hook', authKey: null, authSecret: null }
      // @ts-expect-error the store is not a transaction handle
      const notAHandle: StoreTransaction = store
      expect(notAHandle).toBe(store)
      const misuse = store.transaction(async (tx) => {
        await tx.jobs.insert(job({ id: 't1' }))
        // @ts-expect-error a write that belongs to the caller's transaction takes its handle, never the store
        await storeWebhook(store, target, 'job.completed', {}, { jobId: 't1', now: new Date(at(1)) })
      })
      await expect(misuse).rejects.toThrow(StoreUsedInsideTransactionError)
      await expect(misuse).rejects.toThrow("use the transaction's handle (tx.webhookDeliveries.insert)")
      expect(await store.jobs.findById('t1')).toBeUndefined()
      expect((await store.webhookDeliveries.list(P1, { limit: 10, offset: 0 })).total).toBe(0)
      // A read, and a transaction nested in another's work, are refused alike (each would wait for ever on SQLite).
      const refused = await store.transaction(async () =>
        Promise.allSettled([store.accounts.findDefaultProject(), store.jobs.findById('t1'), store.transaction(async () => 'nested')]),
      )
      expect(refused.map((answer) => answer.status === 'rejected' && (answer.reason as Error).name)).toEqual(
        Array(3).fill('StoreUsedInsideTransactionError'),
      )
      // The store still serves, and so does the handle.
      expect(await store.transaction(async (tx) => (await tx.accounts.findDefaultProject())?.id)).toBe(P1)
    })

    it('lets through many callers outside the work while it is open, and what the work left running once it ended', async () => {
      const { store } = await open()
      const inside = deferred()
      const release = deferred()
      const ended = deferred()
      let leftRunning: Promise<JobRecord | undefined> | undefined
      const transaction = store.transaction(async (tx) => {
        await tx.jobs.insert(job({ id: 't1' }))
        // Started in the work's context, run once the transaction ended: not a misuse.
        leftRunning = ended.promise.then(() => store.jobs.findById('t1'))
        inside.resolve()
        await release.promise
      })
      await inside.promise
      const outside = Array.from({ length: 20 }, (_, index) =>
        index % 2 ? store.jobs.findById('t1') : store.settings.set(`outside-${index}`, index),
      )
      release.resolve()
      await transaction
      await expect(Promise.all(outside)).resolves.toHaveLength(20)
      ended.resolve()
      expect((await leftRunning)?.id).toBe('t1')
    })

    it('rolls back a failing statement with the rest', async () => {
      const { store } = await open()
      await expect(
        store.transaction(async (tx) => {
          await tx.jobs.insert(job({ id: 't1' }))
          await tx.jobs.insert(job({ id: 't1' }))
        }),
      ).rejects.toThrow()
      expect(await store.jobs.findById('t1')).toBeUndefined()
    })
  })

  describe('conversations (live calls)', () => {
    const progress = (text: string, seconds: number) => ({
      text,
      jobResponse: { turns: text.split(' ').length },
      usageSeconds: seconds,
      totalCost: 5,
    })

    it('starts a PENDING conversation once, for one owner, and saves its progress while that owner holds it', async () => {
      const { store } = await open()
      await store.jobs.insert(
        job({ id: 'call', type: 'CONVERSATION', status: 'PENDING', title: 'Call with Support desk', text: null, runAfter: 60_000 }),
      )
      await store.jobs.insert(job({ id: 'tts', type: 'TTS', status: 'PENDING' }))
      const started = await store.conversations.start('call', 'host-1', 30_000, progress('hello', 0), at(1))
      expect(started).toMatchObject({
        id: 'call',
        status: 'IN_PROGRESS',
        leaseOwner: 'host-1',
        leaseExpiresAt: 30_000,
        text: 'hello',
        jobResponse: { turns: 1 },
      })
      // A second socket, and the runner, find it taken.
      expect(await store.conversations.start('call', 'host-2', 30_000, progress('x', 0), at(1))).toBeUndefined()
      expect(await store.jobs.claimNext('runner', 60_000, 90_000)).toMatchObject({ id: 'tts' })
      expect(await store.conversations.start('tts', 'host-1', 30_000, progress('x', 0), at(1))).toBeUndefined()
      expect(await store.conversations.save('call', 'host-2', progress('no', 1), 40_000, at(2))).toBe(false)
      expect(await store.conversations.save('call', 'host-1', progress('hello zebra crossing', 2.5), 40_000, at(2))).toBe(true)
      expect(await store.jobs.findById('call')).toMatchObject({
        status: 'IN_PROGRESS',
        leaseExpiresAt: 40_000,
        usageSeconds: 2.5,
        updatedAt: at(2),
      })
      // The transcript is searched like any job's text, and the running call is counted as such.
      const found = await store.jobs.list(P1, { ...listAll, words: ['zebra'] })
      expect(found.records.map((record) => record.id)).toEqual(['call'])
      expect((await store.jobs.list(P1, { ...listAll, status: 'IN_PROGRESS', type: 'CONVERSATION' })).filtered).toBe(1)
      expect(
        await store.jobs.complete('call', 'host-1', { jobResponse: { done: true }, usageSeconds: 3, totalCost: 5 }, at(3)),
      ).toMatchObject({ id: 'call', status: 'COMPLETED' })
      expect(await store.jobs.findById('call')).toMatchObject({ status: 'COMPLETED', leaseOwner: null, jobResponse: { done: true } })
      expect(await store.conversations.save('call', 'host-1', progress('late', 4), 50_000, at(4))).toBe(false)
    })

    it('puts a call whose lease ran out back in the queue, due at once, where the runner can end it', async () => {
      const { store } = await open()
      await store.jobs.insert(job({ id: 'dead', type: 'CONVERSATION', status: 'PENDING', text: null }))
      await store.jobs.insert(job({ id: 'alive', type: 'CONVERSATION', status: 'PENDING', text: null }))
      await store.conversations.start('dead', 'host-1', 10_000, progress('hi', 0), at(1))
      await store.conversations.start('alive', 'host-2', 20_000, progress('hi', 0), at(1))
      expect(await store.conversations.requeueAbandoned(10_000)).toBe(0)
      expect(await store.conversations.requeueAbandoned(15_000)).toBe(1)
      expect(await store.jobs.findById('dead')).toMatchObject({ status: 'PENDING', leaseOwner: null, runAfter: 15_000, text: 'hi' })
      const claimed = await store.jobs.claimNext('runner', 15_000, 50_000)
      expect(claimed).toMatchObject({ id: 'dead', jobResponse: { turns: 1 } })
      expect(await store.jobs.fail('dead', 'runner', 'CALL_INTERRUPTED', 'gone', at(2))).toMatchObject({ id: 'dead', status: 'FAILED' })
      expect(await store.jobs.findById('alive')).toMatchObject({ status: 'IN_PROGRESS', leaseOwner: 'host-2' })
      // The owner of a call fails it from IN_PROGRESS too.
      expect(await store.jobs.fail('alive', 'host-2', 'DIALOGUE_ENGINE_FAILED', 'model down', at(3))).toMatchObject({
        id: 'alive',
        status: 'FAILED',
      })
      expect(await store.jobs.findById('alive')).toMatchObject({ status: 'FAILED', errorCode: 'DIALOGUE_ENGINE_FAILED' })
    })
  })

  describe('a recording waiting for room', () => {
    it('marks and clears the recording of a conversation’s state, whatever its status, and of conversations only', async () => {
      const { store } = await open()
      await store.jobs.insert(job({ id: 'call', type: 'CONVERSATION', status: 'PENDING', text: null }))
      await store.jobs.insert(job({ id: 'tts', type: 'TTS', status: 'PENDING' }))
      await store.conversations.start(
        'call',
        'host-1',
        30_000,
        { text: 'hi', jobResponse: { transcript: ['hi'] }, usageSeconds: 1, totalCost: 5 },
        at(1),
      )
      await store.jobs.complete(
        'call',
        'host-1',
        { jobResponse: { transcript: ['hi'], recording: 'waiting: disk full' }, usageSeconds: 2, totalCost: 5 },
        at(2),
      )
      expect(await store.conversations.setRecording('call', 'lost: disk full', at(3))).toBe(true)
      expect(await store.jobs.findById('call')).toMatchObject({
        status: 'COMPLETED',
        updatedAt: at(3),
        jobResponse: { transcript: ['hi'], recording: 'lost: disk full' },
      })
      expect(await store.conversations.setRecording('call', undefined, at(4))).toBe(true)
      const stored = await store.jobs.findById('call')
      expect(stored?.jobResponse).toEqual({ transcript: ['hi'] })
      expect(stored).toMatchObject({ status: 'COMPLETED', usageSeconds: 2, updatedAt: at(4) })
      expect(await store.conversations.setRecording('tts', 'lost: disk full', at(5))).toBe(false)
      expect(await store.conversations.setRecording('nothing', undefined, at(5))).toBe(false)
    })
  })

  describe('job queue', () => {
    it('claims the oldest runnable job under a lease, counting the attempt', async () => {
      const { store } = await open()
      await store.jobs.insert(job({ id: 'b', status: 'PENDING', createdAt: at(1) }))
      await store.jobs.insert(job({ id: 'a', status: 'PENDING', createdAt: at(1) }))
      await store.jobs.insert(job({ id: 'first', status: 'PENDING', createdAt: at(0) }))
      await store.jobs.insert(job({ id: 'later', status: 'PENDING', createdAt: at(0), runAfter: 500 }))
      await store.jobs.insert(job({ id: 'done', status: 'COMPLETED', createdAt: at(0) }))
      const first = await store.jobs.claimNext('w1', 100, 1100)
      expect(first).toMatchObject({ id: 'first', leaseOwner: 'w1', leaseExpiresAt: 1100, attempts: 1, status: 'PENDING' })
      expect((await store.jobs.claimNext('w2', 100, 1100))?.id).toBe('a')
      expect((await store.jobs.claimNext('w2', 100, 1100))?.id).toBe('b')
      expect(await store.jobs.claimNext('w2', 100, 1100)).toBeUndefined()
      expect((await store.jobs.claimNext('w2', 500, 1500))?.id).toBe('later')
      expect(await store.jobs.queueCounts()).toEqual({ running: 4, waiting: 0 })
      expect((await store.jobs.pendingLeaseOwners()).sort()).toEqual(['w1', 'w2'])
      // An expired lease (not one that ends right now) is claimed again, counting another attempt.
      expect(await store.jobs.claimNext('w3', 1100, 2100)).toBeUndefined()
      expect(await store.jobs.claimNext('w3', 1101, 2101)).toMatchObject({ id: 'first', leaseOwner: 'w3', attempts: 2 })
    })

    it('ends a job only for its lease owner; retries later and releases without counting', async () => {
      const { store } = await open()
      await store.jobs.insert(job({ id: 'j', status: 'PENDING' }))
      await store.jobs.claimNext('w1', 100, 1000)
      expect(await store.jobs.complete('j', 'w2', { jobResponse: { ok: true }, usageSeconds: 1, totalCost: 2 }, at(5))).toBeUndefined()
      expect(await store.jobs.fail('j', 'w2', 'INTERNAL', 'x', at(5))).toBeUndefined()
      expect(await store.jobs.retryLater('j', 'w2', 5000, 'TIMEOUT', 'x')).toBe(false)
      expect(await store.jobs.retryLater('j', 'w1', 5000, 'TIMEOUT', 'too slow')).toBe(true)
      expect(await store.jobs.findById('j')).toMatchObject({
        leaseOwner: null,
        leaseExpiresAt: null,
        runAfter: 5000,
        errorCode: 'TIMEOUT',
        errorMessage: 'too slow',
        attempts: 1,
      })
      expect(await store.jobs.nextRunAfter()).toBe(5000)
      expect(await store.jobs.queueCounts()).toEqual({ running: 0, waiting: 1 })
      expect(await store.jobs.claimNext('w1', 4999, 9000)).toBeUndefined()
      expect(await store.jobs.claimNext('w1', 5000, 9000)).toMatchObject({ id: 'j', attempts: 2 })
      // Leased, it falls due again just after its lease runs out (in case its worker died).
      expect(await store.jobs.nextRunAfter()).toBe(9001)
      await store.jobs.release('j', 'w2')
      expect((await store.jobs.findById('j'))?.leaseOwner).toBe('w1')
      await store.jobs.release('j', 'w1')
      expect(await store.jobs.findById('j')).toMatchObject({ leaseOwner: null, attempts: 1 })
      await store.jobs.claimNext('w1', 5000, 9000)
      // The ended job is answered by the write itself, as a read would find it.
      const completed = await store.jobs.complete('j', 'w1', { jobResponse: { ok: true }, usageSeconds: 1.5, totalCost: 2.25 }, at(6))
      expect(completed).toEqual(await store.jobs.findById('j'))
      expect(completed).toMatchObject({
        status: 'COMPLETED',
        jobResponse: { ok: true },
        usageSeconds: 1.5,
        totalCost: 2.25,
        leaseOwner: null,
        updatedAt: at(6),
      })
      expect(await store.jobs.complete('j', 'w1', { jobResponse: {}, usageSeconds: 1, totalCost: 1 }, at(7))).toBeUndefined()
      expect(await store.jobs.nextRunAfter()).toBeUndefined()
      await store.jobs.insert(job({ id: 'k', status: 'PENDING', createdAt: at(9) }))
      await store.jobs.claimNext('w9', 0, 10)
      const failed = await store.jobs.fail('k', 'w9', 'INTERNAL', 'broken', at(9))
      expect(failed).toEqual(await store.jobs.findById('k'))
      expect(failed).toMatchObject({
        status: 'FAILED',
        errorCode: 'INTERNAL',
        errorMessage: 'broken',
        leaseOwner: null,
        attempts: 1,
        updatedAt: at(9),
      })
    })

    it("renews a held job's lease with its progress, and completes it with the text its work made, searched from then on", async () => {
      const { store } = await open()
      await store.jobs.insert(
        job({
          id: 't',
          type: 'TRANSCRIPTION',
          status: 'PENDING',
          title: 'Board meeting',
          text: null,
          sourceUrl: 'https://example.test/a.mp4',
        }),
      )
      await store.jobs.claimNext('w1', 0, 1000)
      expect(await store.jobs.heartbeat('t', 'w2', 5000, 0.5)).toBe(false)
      expect(await store.jobs.heartbeat('t', 'w1', 5000, 0.25)).toBe(true)
      expect(await store.jobs.findById('t')).toMatchObject({
        leaseExpiresAt: 5000,
        progress: 0.25,
        sourceUrl: 'https://example.test/a.mp4',
      })
      // No fraction: the lease moves, the progress stays.
      expect(await store.jobs.heartbeat('t', 'w1', 6000)).toBe(true)
      expect(await store.jobs.findById('t')).toMatchObject({ leaseExpiresAt: 6000, progress: 0.25 })
      expect(await store.jobs.nextRunAfter()).toBe(6001)
      const page = () => store.jobs.list(P1, { ...listAll, words: ['quarterly'] })
      expect((await page()).records).toEqual([])
      const done = await store.jobs.complete(
        't',
        'w1',
        { jobResponse: { text: 'The quarterly numbers' }, text: 'The quarterly numbers', usageSeconds: 61, totalCost: 6 },
        at(8),
      )
      expect(done).toMatchObject({ status: 'COMPLETED', text: 'The quarterly numbers', progress: null })
      expect((await page()).records.map((record) => record.id)).toEqual(['t'])
      // A job whose work made no text keeps what it had.
      await store.jobs.insert(job({ id: 'u', status: 'PENDING', text: 'Spoken words', createdAt: at(9) }))
      await store.jobs.claimNext('w1', 0, 1000)
      expect(await store.jobs.complete('u', 'w1', { jobResponse: {}, usageSeconds: 1, totalCost: 1 }, at(9))).toMatchObject({
        text: 'Spoken words',
      })
    })

    it('releases every lease of an owner', async () => {
      const { store } = await open()
      for (const id of ['x', 'y', 'z']) await store.jobs.insert(job({ id, status: 'PENDING' }))
      await store.jobs.claimNext('dead', 0, 1000)
      await store.jobs.claimNext('dead', 0, 1000)
      await store.jobs.claimNext('alive', 0, 1000)
      expect(await store.jobs.releaseLeasesOf('dead')).toBe(2)
      expect(await store.jobs.pendingLeaseOwners()).toEqual(['alive'])
      expect(await store.jobs.queueCounts()).toEqual({ running: 1, waiting: 2 })
    })

    it('gives each of 10 jobs to exactly one of 20 concurrent claims', async () => {
      const { store } = await open()
      for (let index = 0; index < 10; index += 1) await store.jobs.insert(job({ id: `c${index}`, status: 'PENDING', createdAt: at(index) }))
      const claims = await Promise.all(Array.from({ length: 20 }, (_, index) => store.jobs.claimNext(`w${index}`, 100, 10_000)))
      const claimed = claims.filter((claim) => claim !== undefined)
      expect(claimed).toHaveLength(10)
      expect(new Set(claimed.map((claim) => claim.id)).size).toBe(10)
      for (const claim of claimed) expect(claim.attempts).toBe(1)
    })

    it('gives each job to one claim when 20 claims hold their leases in open transactions', async () => {
      const { store } = await open()
      for (let index = 0; index < 10; index += 1) await store.jobs.insert(job({ id: `c${index}`, status: 'PENDING', createdAt: at(index) }))
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          store.transaction(async (tx) => {
            const claim = await tx.jobs.claimNext(`w${index}`, 100, 10_000)
            await new Promise((resolve) => setTimeout(resolve, 30))
            return claim
          }),
        ),
      )
      const claimed = claims.filter((claim) => claim !== undefined)
      expect(claimed.map((claim) => claim.id).sort()).toEqual(Array.from({ length: 10 }, (_, index) => `c${index}`))
      expect((await store.jobs.list(P1, listAll)).records.map((record) => record.attempts)).toEqual(Array.from({ length: 10 }, () => 1))
    })

    it('claims within a lane: its types only, a project with none of them running first, at most perProject of one project per owner', async () => {
      const { store } = await open()
      const media = { types: ['TRANSCRIPTION'], perProject: 2 } as const
      const claim = async (owner: string, now = 100) => (await store.jobs.claimNext(owner, now, now + 900, media))?.id
      // Project 1 queued four transcriptions before project 2's one; the oldest job of all is a TTS job.
      for (let index = 0; index < 4; index += 1)
        await store.jobs.insert(job({ id: `a${index}`, status: 'PENDING', createdAt: at(index + 1) }))
      await store.jobs.insert(job({ id: 'b0', projectId: P2, apiKeyId: 'key-2', status: 'PENDING', createdAt: at(9) }))
      await store.jobs.insert(job({ id: 'speech', type: 'TTS', projectId: P2, apiKeyId: 'key-2', status: 'PENDING', createdAt: at(0) }))
      expect(await claim('w2')).toBe('a0')
      // Project 1 has one running (on another runner): project 2's newer job goes first.
      expect(await claim('w1')).toBe('b0')
      expect(await claim('w1')).toBe('a1')
      expect(await claim('w1')).toBe('a2')
      // w1 holds two of project 1's: its share. Another runner has a share of its own.
      expect(await claim('w1')).toBeUndefined()
      expect(await claim('w2')).toBe('a3')
      // The lane's next due time later than now: the first lease to run out; the TTS job is another lane's.
      expect(await store.jobs.nextRunAfter(['TRANSCRIPTION'], 100)).toBe(1001)
      expect(await store.jobs.nextRunAfter(['TTS'], 100)).toBeUndefined()
      expect(await store.jobs.nextRunAfter(['TTS'])).toBe(0)
      expect(await store.jobs.nextRunAfter()).toBe(0)
      // A lease that ran out is not running: its job is claimable again, and counts for nobody's share.
      expect(await claim('w1', 1001)).toBe('a0')
      expect(await store.jobs.claimNext('w1', 1001, 2000, { types: ['TTS', 'AI_CONTENT'], perProject: 1 })).toMatchObject({
        id: 'speech',
        attempts: 1,
      })
      expect(await store.jobs.claimNext('w1', 1001, 2000)).toMatchObject({ id: 'a1', attempts: 2 })
    })

    it('gives each job of a lane to one claim, and no owner more than its share of a project, when 12 owners claim at once', async () => {
      const { store, another } = await open()
      const others = [store, await another(), await another()]
      const lane = { types: ['TRANSCRIPTION'], perProject: 2 } as const
      const projects = [P1, P2]
      for (let index = 0; index < 30; index += 1) {
        const projectId = projects[index % 2]!
        await store.jobs.insert(
          job({ id: `m${index}`, projectId, apiKeyId: projectId === P1 ? 'key-1' : 'key-2', status: 'PENDING', createdAt: at(index) }),
        )
      }
      const claims = await Promise.all(
        Array.from({ length: 12 }, async (_, owner) => {
          const held: JobRecord[] = []
          for (;;) {
            const claimed = await others[owner % others.length]!.jobs.claimNext(`w${owner}`, 100, 10_000, lane)
            if (!claimed) return held
            held.push(claimed)
          }
        }),
      )
      const ids = claims.flat().map((claimed) => claimed.id)
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids).toHaveLength(30)
      for (const held of claims) {
        for (const projectId of projects) expect(held.filter((claimed) => claimed.projectId === projectId).length).toBeLessThanOrEqual(2)
      }
    })
  })

  describe('webhook deliveries', () => {
    it('claims due deliveries in batches, in the order they fell due, counting attempts', async () => {
      const { store } = await open()
      await store.webhookDeliveries.insert(delivery({ id: 'd3', dueAt: 300 }))
      await store.webhookDeliveries.insert(delivery({ id: 'd1', dueAt: 100, jobId: 'job-1' }))
      await store.webhookDeliveries.insert(delivery({ id: 'd2', dueAt: 200 }))
      await store.webhookDeliveries.insert(delivery({ id: 'future', dueAt: 5000 }))
      const initial = await store.webhookDeliveries.findById('d1')
      expect(initial).toEqual({
        id: 'd1',
        projectId: P1,
        event: 'job.completed',
        jobId: 'job-1',
        url: 'https://example.test/hook',
        authKey: null,
        authSecret: null,
        payload: '{"event":"job.completed"}',
        status: 'PENDING',
        attempts: 0,
        roundAttempts: 0,
        nextAttemptAt: 100,
        leaseOwner: null,
        leaseExpiresAt: null,
        lastStatusCode: null,
        lastError: null,
        createdAt: at(0),
        updatedAt: at(0),
        deliveredAt: null,
      } satisfies DeliveryRecord)
      expect(await store.webhookDeliveries.nextDueAt()).toBe(100)
      const batch = await store.webhookDeliveries.claimDue('s1', 1000, 2000, 2)
      expect(batch.map((record) => [record.id, record.attempts, record.roundAttempts, record.leaseOwner, record.nextAttemptAt])).toEqual([
        ['d1', 1, 1, 's1', 2000],
        ['d2', 1, 1, 's1', 2000],
      ])
      expect((await store.webhookDeliveries.claimDue('s2', 1000, 2000, 10)).map((record) => record.id)).toEqual(['d3'])
      expect(await store.webhookDeliveries.claimDue('s2', 1000, 2000, 10)).toEqual([])
      expect((await store.webhookDeliveries.pendingLeaseOwners()).sort()).toEqual(['s1', 's2'])
      expect(await store.webhookDeliveries.nextDueAt()).toBe(2000)
      // A lease that ran out falls due again; deliveries due at the same time go in the order they were stored.
      expect((await store.webhookDeliveries.claimDue('s3', 2000, 3000, 10)).map((record) => [record.id, record.attempts])).toEqual([
        ['d3', 2],
        ['d1', 2],
        ['d2', 2],
      ])
      expect(await store.webhookDeliveries.releaseLeasesOf('s3', 2500)).toBe(3)
      expect(await store.webhookDeliveries.findById('d1')).toMatchObject({ leaseOwner: null, nextAttemptAt: 2500, attempts: 2 })
    })

    it('records attempts and their outcomes in one go; a lost lease keeps its state, its attempt journaled', async () => {
      const { store } = await open()
      for (const id of ['ok', 'again', 'over', 'lost']) await store.webhookDeliveries.insert(delivery({ id, dueAt: 0 }))
      await store.webhookDeliveries.claimDue('s1', 0, 1000, 10)
      const attempt = (deliveryId: string, statusCode: number | null, error: string | null) => ({
        deliveryId,
        attempt: 1,
        startedAt: at(1),
        statusCode,
        latencyMs: 12.5,
        error,
        responseExcerpt: statusCode === null ? null : 'body',
      })
      await store.webhookDeliveries.recordAttempts(
        's1',
        [
          { attempt: attempt('ok', 200, null), outcome: { status: 'DELIVERED' } },
          { attempt: attempt('again', 503, 'HTTP 503'), outcome: { status: 'PENDING', nextAttemptAt: 6000 } },
          { attempt: attempt('over', null, 'ECONNREFUSED'), outcome: { status: 'EXHAUSTED' } },
        ],
        at(2),
      )
      await store.webhookDeliveries.recordAttempts(
        's-other',
        [{ attempt: attempt('lost', 200, null), outcome: { status: 'DELIVERED' } }],
        at(2),
      )
      expect(await store.webhookDeliveries.findById('ok')).toMatchObject({
        status: 'DELIVERED',
        deliveredAt: at(2),
        lastStatusCode: 200,
        nextAttemptAt: null,
        leaseOwner: null,
      })
      expect(await store.webhookDeliveries.findById('again')).toMatchObject({
        status: 'PENDING',
        nextAttemptAt: 6000,
        lastStatusCode: 503,
        lastError: 'HTTP 503',
        deliveredAt: null,
      })
      expect(await store.webhookDeliveries.findById('over')).toMatchObject({
        status: 'EXHAUSTED',
        nextAttemptAt: null,
        lastStatusCode: null,
        lastError: 'ECONNREFUSED',
      })
      expect(await store.webhookDeliveries.findById('lost')).toMatchObject({ status: 'PENDING', leaseOwner: 's1' })
      expect(await store.webhookDeliveries.attemptsOf('lost')).toEqual([attempt('lost', 200, null)])
      expect(await store.webhookDeliveries.attemptsOf('again')).toEqual([attempt('again', 503, 'HTTP 503')])
      expect(await store.webhookDeliveries.attemptsOf('nope')).toEqual([])
    })

    it('releases and gives up without counting the attempt, only for the lease owner', async () => {
      const { store } = await open()
      await store.webhookDeliveries.insert(delivery({ id: 'd', dueAt: 0 }))
      await store.webhookDeliveries.insert(delivery({ id: 'e', dueAt: 0 }))
      await store.webhookDeliveries.claimDue('s1', 0, 1000, 10)
      await store.webhookDeliveries.release('d', 's2', 50)
      expect(await store.webhookDeliveries.findById('d')).toMatchObject({ leaseOwner: 's1', attempts: 1 })
      await store.webhookDeliveries.release('d', 's1', 50)
      expect(await store.webhookDeliveries.findById('d')).toMatchObject({
        leaseOwner: null,
        leaseExpiresAt: null,
        nextAttemptAt: 50,
        attempts: 0,
        roundAttempts: 0,
      })
      await store.webhookDeliveries.giveUp('e', 's2', 'no', at(3))
      expect(await store.webhookDeliveries.findById('e')).toMatchObject({ status: 'PENDING' })
      await store.webhookDeliveries.giveUp('e', 's1', 'tries used up', at(3))
      expect(await store.webhookDeliveries.findById('e')).toMatchObject({
        status: 'EXHAUSTED',
        attempts: 0,
        roundAttempts: 0,
        lastError: 'tries used up',
        nextAttemptAt: null,
        leaseOwner: null,
        updatedAt: at(3),
      })
    })

    it('redelivers from now unless an attempt is in flight', async () => {
      const { store } = await open()
      await store.webhookDeliveries.insert(delivery({ id: 'd', dueAt: 0 }))
      await store.webhookDeliveries.claimDue('s1', 0, 1000, 10)
      expect(await store.webhookDeliveries.redeliver('d', P1, 500, at(4))).toBe('in-flight')
      expect(await store.webhookDeliveries.redeliver('d', P1, 1000, at(4))).toBe('in-flight')
      expect(await store.webhookDeliveries.redeliver('d', P2, 500, at(4))).toBeUndefined()
      expect(await store.webhookDeliveries.redeliver('nope', P1, 500, at(4))).toBeUndefined()
      await store.webhookDeliveries.recordAttempts(
        's1',
        [
          {
            attempt: { deliveryId: 'd', attempt: 1, startedAt: at(1), statusCode: 500, latencyMs: 1, error: null, responseExcerpt: null },
            outcome: { status: 'EXHAUSTED' },
          },
        ],
        at(2),
      )
      expect(await store.webhookDeliveries.redeliver('d', P1, 3000, at(5))).toMatchObject({
        id: 'd',
        status: 'PENDING',
        roundAttempts: 0,
        attempts: 1,
        nextAttemptAt: 3000,
        leaseOwner: null,
        updatedAt: at(5),
      })
      // A lease that ran out is no attempt in flight.
      await store.webhookDeliveries.claimDue('s2', 3000, 4000, 10)
      expect(await store.webhookDeliveries.redeliver('d', P1, 4001, at(6))).toMatchObject({
        roundAttempts: 0,
        attempts: 2,
        nextAttemptAt: 4001,
      })
    })

    it('lists newest first with totals, by status and by job', async () => {
      const { store } = await open()
      await store.webhookDeliveries.insert(delivery({ id: 'd1', jobId: 'j1' }))
      await store.webhookDeliveries.insert(delivery({ id: 'd2', jobId: 'j2' }))
      await store.webhookDeliveries.insert(delivery({ id: 'd3', jobId: 'j1', dueAt: 0 }))
      await store.webhookDeliveries.insert(delivery({ id: 'd4', projectId: P2 }))
      await store.webhookDeliveries.claimDue('s', 0, 10, 1)
      await store.webhookDeliveries.giveUp('d3', 's', 'x', at(1))
      const ids = async (query: Partial<Parameters<Store['webhookDeliveries']['list']>[1]>) => {
        const page = await store.webhookDeliveries.list(P1, { limit: 10, offset: 0, ...query })
        return { ids: page.records.map((record) => record.id), total: page.total, filtered: page.filtered }
      }
      expect(await ids({})).toEqual({ ids: ['d3', 'd2', 'd1'], total: 3, filtered: 3 })
      expect(await ids({ limit: 1, offset: 1 })).toEqual({ ids: ['d2'], total: 3, filtered: 3 })
      expect(await ids({ status: 'EXHAUSTED' })).toEqual({ ids: ['d3'], total: 3, filtered: 1 })
      expect(await ids({ jobId: 'j1' })).toEqual({ ids: ['d3', 'd1'], total: 3, filtered: 2 })
      expect(await ids({ jobId: 'j1', status: 'PENDING' })).toEqual({ ids: ['d1'], total: 3, filtered: 1 })
    })
  })

  describe('change version', () => {
    it('moves after every write of this process, and not after reads', async () => {
      const { store } = await open()
      const before = store.changeVersion()
      await store.accounts.findDefaultProject()
      await store.jobs.list(P1, listAll)
      expect(store.changeVersion()).toBe(before)
      await store.settings.set('x', 1)
      const afterSet = store.changeVersion()
      expect(afterSet).not.toBe(before)
      await store.transaction(async (tx) => {
        await tx.jobs.insert(job({ id: 'v' }))
      })
      const afterTransaction = store.changeVersion()
      expect(afterTransaction).not.toBe(afterSet)
      await store.transaction(async (tx) => tx.jobs.findById('v'))
      await store.jobs.claimNext('nobody', 0, 1)
      // Neither a read nor the echo of this store's own commits moves it later.
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect([store.changeVersion(), store.changeVersion()]).toEqual([afterTransaction, afterTransaction])
    })

    it('moves after a write that waited for an open transaction, read while it waited', async () => {
      const { store } = await open()
      const before = store.changeVersion()
      let release!: () => void
      let begun!: () => void
      const began = new Promise<void>((resolve) => (begun = resolve))
      const held = store.transaction(() => {
        begun()
        return new Promise<void>((resolve) => (release = resolve))
      })
      await began
      // SQLite: the write queues behind the transaction; PostgreSQL: another connection takes it.
      const waited = store.settings.set('waited', 1)
      store.changeVersion()
      release()
      await held
      await waited
      expect(store.changeVersion()).not.toBe(before)
    })

    it('moves after a write by another store on the same database', async () => {
      const { store, another } = await open()
      const second = await another()
      await new Promise((resolve) => setTimeout(resolve, 100))
      const before = store.changeVersion()
      await second.settings.set('from-the-other', true)
      await until(() => store.changeVersion() !== before, 2_000)
    })
  })
})

describe('PostgreSQL only', () => {
  const opened: PostgresStore[] = []
  afterEach(async () => {
    for (const store of opened.splice(0).reverse()) await store.close()
  })
  async function openTwo(options: Partial<Parameters<typeof openPostgresStore>[0]> = {}): Promise<[PostgresStore, PostgresStore]> {
    const url = await (await postgresCluster()).createDatabase()
    const stores = await Promise.all([openPostgresStore({ url, ...options }), openPostgresStore({ url, ...options })])
    opened.push(...stores)
    return stores
  }

  it('migrates once when two instances open a fresh database together', async () => {
    const [first] = await openTwo()
    const { rows } = await first.pool.query<{ version: number; times: number }>(
      'SELECT version, count(*)::int AS times FROM schema_migrations GROUP BY version ORDER BY version',
    )
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(row.times).toBe(1)
  })

  it('claims a job without writing any index (a HOT update: no index names a lease column)', async () => {
    const [store] = await openTwo()
    await seedAccounts(store)
    for (let index = 0; index < 3; index += 1) await store.jobs.insert(job({ status: 'PENDING', createdAt: at(index) }))
    const client = await store.pool.connect()
    try {
      // The transaction's own counters: exact at once (the statistics views lag).
      await client.query('BEGIN')
      await client.query(`UPDATE jobs SET lease_owner = 'w', lease_expires_at = 1000, attempts = attempts + 1
        WHERE seq = (SELECT seq FROM jobs WHERE status = 'PENDING' ORDER BY created_at, id LIMIT 1)`)
      const { rows } = await client.query<{ updated: number; hot: number }>(
        "SELECT pg_stat_get_xact_tuples_updated('jobs'::regclass) AS updated, pg_stat_get_xact_tuples_hot_updated('jobs'::regclass) AS hot",
      )
      expect(rows[0]).toEqual({ updated: 1, hot: 1 })
      await client.query('ROLLBACK')
    } finally {
      client.release()
    }
    const { rows: indexes } = await store.pool.query<{ definition: string }>(
      "SELECT indexdef AS definition FROM pg_indexes WHERE tablename = 'jobs'",
    )
    for (const { definition } of indexes) expect(definition).not.toMatch(/lease_/)
  })

  it('upgrades a database of schema 5: its jobs are found and counted through the new GIN index', async () => {
    const url = await (await postgresCluster()).createDatabase()
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      // Schema 5 (as shipped before the search index took the project, status and type), with jobs in it.
      await migrate(client, MIGRATIONS.slice(0, 5))
      const db = clientDb(client)
      const accounts = new PostgresAccountsRepository(db)
      await accounts.insertProject({ id: P1, name: 'Default', isDefault: true, createdAt: at(0) })
      await accounts.insertLocalUser('user-1', 'Local', at(0))
      await accounts.insertKey({
        id: 'key-1',
        projectId: P1,
        userId: 'user-1',
        name: 'first',
        keyHash: 'hash-1',
        keyHint: 'vd_abc…wxyz',
        createdAt: at(0),
      })
      // Written as schema 5 holds a job: without the columns later migrations added (0010's source_url and progress).
      const columns = JOB_COLUMNS.filter(([field]) => field !== 'sourceUrl' && field !== 'progress')
      const insertAtSchema5 = (record: JobRecord) =>
        client.query(
          `INSERT INTO jobs (${columns.map(([, column]) => column).join(', ')}, search)
            VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')}, array_to_tsvector($${columns.length + 1}::text[]))`,
          [
            ...columns.map(([field]) =>
              field === 'aiParts' || field === 'jobResponse'
                ? record[field] === null
                  ? null
                  : JSON.stringify(record[field])
                : record[field],
            ),
            jobSearchLexemes(record.title, record.text),
          ],
        )
      await insertAtSchema5(job({ title: 'Refund request', text: 'late payment', status: 'FAILED', createdAt: at(1) }))
      await insertAtSchema5(job({ title: 'Refund', text: 'on time', status: 'FAILED', createdAt: at(2) }))
      await insertAtSchema5(job({ title: 'Other', text: 'late refund', createdAt: at(3) }))
    } finally {
      await client.end()
    }
    const store = await openPostgresStore({ url })
    opened.push(store)
    expect((await store.pool.query<{ version: number }>('SELECT max(version) AS version FROM schema_migrations')).rows[0]?.version).toBe(
      MIGRATIONS.at(-1)!.version,
    )
    // The words of the jobs already there, for prefixes to be written out (0007).
    const { rows: words } = await store.pool.query<{ word: string }>(
      "SELECT word FROM job_words WHERE word IN ('refund', 'late', 'payment', 'time') ORDER BY word",
    )
    expect(words.map((row) => row.word)).toEqual(['late', 'payment', 'refund', 'time'])
    // One index holds a search's every condition, so its bitmap needs no test on the table's rows.
    const { rows: indexes } = await store.pool.query<{ definition: string }>(
      "SELECT indexdef AS definition FROM pg_indexes WHERE tablename = 'jobs' AND indexdef LIKE '%USING gin%'",
    )
    expect(indexes.map((index) => index.definition)).toEqual([
      'CREATE INDEX jobs_search_by_project ON public.jobs USING gin (project_id, status, type, search)',
    ])
    const page = await store.jobs.list(P1, { ...listAll, words: ['refu', 'late'], status: 'FAILED' })
    expect(page).toMatchObject({ total: 3, filtered: 1 })
    expect(page.records.map((record) => record.title)).toEqual(['Refund request'])
    expect(await store.jobs.list(P1, { ...listAll, words: ['refund'] })).toMatchObject({ total: 3, filtered: 3 })
  })

  it('finds a prefix of more words than it writes out, and nothing for a prefix no job has', async () => {
    const [store] = await openTwo()
    await seedAccounts(store)
    const many = Array.from({ length: 70 }, (_, index) => `zq${index}`)
    await store.jobs.insert(job({ title: 'Many', text: many.join(' '), createdAt: at(1) }))
    await store.jobs.insert(job({ title: 'One', text: 'zq33 and more', createdAt: at(2) }))
    await store.jobs.insert(job({ title: 'Near', text: 'zr1', createdAt: at(3) }))
    expect(await store.jobs.list(P1, { ...listAll, words: ['zq'] })).toMatchObject({ total: 3, filtered: 2 })
    expect(await store.jobs.list(P1, { ...listAll, words: ['zq3', 'mor'] })).toMatchObject({ total: 3, filtered: 1 })
    expect(await store.jobs.list(P1, { ...listAll, words: ['zq', 'zr'] })).toMatchObject({ total: 3, filtered: 0 })
    expect(await store.jobs.list(P1, { ...listAll, words: ['zz'] })).toEqual({ records: [], total: 3, filtered: 0 })
  })

  it('counts searches in job_search as in jobs, through claims, ends, other projects and deletes', async () => {
    const [store] = await openTwo()
    await seedAccounts(store)
    const texts = ['late refund', 'refunded late', 'late payment', 'payment refund late', 'on time']
    for (const [index, text] of texts.entries()) await store.jobs.insert(job({ text, status: 'PENDING', createdAt: at(index) }))
    await store.jobs.insert(job({ projectId: P2, apiKeyId: 'key-2', text: 'late refund', createdAt: at(9) }))
    await store.jobs.claimNext('w', 0, 1000)
    await store.jobs.complete(
      (await store.jobs.claimNext('w', 0, 1000))!.id,
      'w',
      { jobResponse: {}, usageSeconds: 1, totalCost: 1 },
      at(10),
    )
    await store.jobs.fail((await store.jobs.claimNext('w', 0, 1000))!.id, 'w', 'INTERNAL', 'x', at(11))
    const inJobs = async (tsquery: string, status?: string) =>
      (
        await store.pool.query<{ count: number }>(
          `SELECT count(*) AS count FROM jobs WHERE project_id = $1 AND search @@ $2::tsquery AND ($3::text IS NULL OR status = $3)`,
          [P1, tsquery, status ?? null],
        )
      ).rows[0]!.count
    for (const status of [undefined, 'PENDING', 'COMPLETED', 'FAILED'] as const) {
      for (const [words, tsquery] of [
        [['late'], "'late':*"],
        [['refund', 'late'], "'refund':* & 'late':*"],
        [['pay', 'ref'], "'pay':* & 'ref':*"],
      ] as const) {
        const page = await store.jobs.list(P1, { ...listAll, words: [...words], ...(status ? { status } : {}) })
        expect(page.filtered, `${words.join(' ')} ${status ?? ''}`).toBe(await inJobs(tsquery, status))
        expect(page.records).toHaveLength(page.filtered)
      }
    }
    expect((await store.pool.query('SELECT count(*)::int AS n FROM job_search')).rows[0]).toEqual({ n: 6 })
    await store.pool.query('DELETE FROM jobs WHERE project_id = $1', [P2])
    expect((await store.pool.query('SELECT count(*)::int AS n FROM job_search')).rows[0]).toEqual({ n: 5 })
  })

  it("wakes another instance's onWork listeners on announceWork, not its own, and per kind", async () => {
    const [first, second] = await openTwo()
    const heard: string[] = []
    first.onWork('jobs', () => heard.push('first:jobs'))
    const unsubscribe = second.onWork('jobs', () => heard.push('second:jobs'))
    second.onWork('webhooks', () => heard.push('second:webhooks'))
    first.announceWork('jobs')
    await until(() => heard.includes('second:jobs'))
    first.announceWork('webhooks')
    await until(() => heard.includes('second:webhooks'))
    unsubscribe()
    first.announceWork('jobs')
    second.announceWork('webhooks')
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(heard).toEqual(['second:jobs', 'second:webhooks'])
  })

  it('changes the version on every call while its listening connection is down, and listens again', async () => {
    const [first, second] = await openTwo({ reconnectDelay: { min: 200, max: 400 } })
    const pid = first.listenerProcessId
    expect(pid).toBeTypeOf('number')
    await second.pool.query('SELECT pg_terminate_backend($1)', [pid])
    await until(() => !first.listening)
    expect(first.changeVersion()).not.toBe(first.changeVersion())
    await until(() => first.listening)
    expect(first.listenerProcessId).not.toBe(pid)
    const heard: string[] = []
    first.onWork('jobs', () => heard.push('jobs'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    const before = first.changeVersion()
    expect(first.changeVersion()).toBe(before)
    await second.settings.set('after-reconnect', 1)
    second.announceWork('jobs')
    await until(() => first.changeVersion() !== before && heard.length === 1)
  })

  it('answers disk full and connection losses as storage failures', async () => {
    const { storageFailureOf } = await import('../../src/store/storage-errors')
    const [first] = await openTwo()
    const error = await first.pool
      .query("DO $$ BEGIN RAISE EXCEPTION 'full' USING ERRCODE = 'disk_full'; END $$")
      .catch((failure: unknown) => failure)
    expect(storageFailureOf(error)).toBe('disk-full')
    const deadlock = await first.pool
      .query("DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = 'deadlock_detected'; END $$")
      .catch((failure: unknown) => failure)
    expect(storageFailureOf(deadlock)).toBe('busy')
    const refused = await openPostgresStore({ url: 'postgres://postgres@127.0.0.1:1/none' }).catch((failure: unknown) => failure)
    expect(storageFailureOf(refused)).toBe('busy')
    expect(storageFailureOf(new Error('unrelated'))).toBeUndefined()
    for (const code of ['57P01', '57P03', '08006', '08001', '40001', '40P01', '55P03', '53300', 'ECONNRESET'])
      expect(storageFailureOf({ code }), code).toBe('busy')
    expect(storageFailureOf(new Error('Connection terminated unexpectedly'))).toBe('busy')
    expect(storageFailureOf(new Error('wrapped', { cause: { code: '53100' } }))).toBe('disk-full')
    expect(storageFailureOf({ code: '23505' })).toBeUndefined()
  })

  describe('media', () => {
    async function media(chunkBytes = 4): Promise<{ media: PostgresMediaStore; other: PostgresMediaStore }> {
      const [first, second] = await openTwo()
      return { media: new PostgresMediaStore(first.pool, chunkBytes), other: new PostgresMediaStore(second.pool, chunkBytes) }
    }
    const bytes = Buffer.from('0123456789abcdefghij-tail')

    it('stores media whole in chunks, and reads it back whole or by ranges that span chunks', async () => {
      const { media: store, other } = await media()
      expect(await store.size('clip.mp3')).toBeUndefined()
      expect(await store.open('clip.mp3')).toBeUndefined()
      await store.put('clip.mp3', bytes)
      expect(await other.size('clip.mp3')).toBe(bytes.length)
      const whole = await other.open('clip.mp3')
      expect(whole?.size).toBe(bytes.length)
      expect(await text(whole!.stream)).toBe(bytes.toString())
      for (const [start, end] of [
        [0, 0],
        [1, 2],
        [3, 4],
        [2, 13],
        [4, 7],
        [20, 24],
        [24, 24],
        [5, 100],
      ] as const) {
        const opened = await other.open('clip.mp3', { start, end })
        expect(await text(opened!.stream), `${start}-${end}`).toBe(bytes.subarray(start, end + 1).toString())
      }
      await store.put('clip.mp3', Buffer.from('new'))
      expect(await text((await other.open('clip.mp3'))!.stream)).toBe('new')
      await store.put('empty.mp3', Buffer.alloc(0))
      expect(await store.size('empty.mp3')).toBe(0)
      expect(await text((await store.open('empty.mp3'))!.stream)).toBe('')
    })

    it('stores nothing when the put is aborted, and keeps 256 KiB chunks by default', async () => {
      const { media: store } = await media()
      const controller = new AbortController()
      controller.abort()
      await expect(store.put('gone.mp3', bytes, controller.signal)).rejects.toThrow()
      expect(await store.size('gone.mp3')).toBeUndefined()
      const big = randomBytes(600 * 1024)
      const defaults = new PostgresMediaStore(opened[0]!.pool)
      await defaults.put('big.mp3', big)
      const { rows } = await opened[0]!.pool.query<{ chunks: number }>(
        "SELECT count(*)::int AS chunks FROM media_chunks WHERE name = 'big.mp3'",
      )
      expect(rows[0]?.chunks).toBe(3)
      const range = await defaults.open('big.mp3', { start: 262_000, end: 530_000 })
      const chunks: Buffer[] = []
      for await (const chunk of range!.stream) chunks.push(chunk as Buffer)
      expect(Buffer.concat(chunks).equals(big.subarray(262_000, 530_001))).toBe(true)
    })
  })
})
