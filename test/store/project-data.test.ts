import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { JobRunner } from '../../src/jobs/job-runner'
import type { Store } from '../../src/store/ports'
import { ProjectRowError, RESTORED_LEASE_OWNER } from '../../src/store/project-rows'
import { openPostgresStore } from '../../src/store/postgres/store'
import type { AttemptRecord, JobRecord, ProjectRow } from '../../src/store/records'
import { openSqliteStore } from '../../src/store/sqlite/store'
import { jobRecord } from '../helpers/job-record'
import { makeTempDir } from '../helpers/temp-dir'
import { agentRecord, at, lazyPostgresCluster, newDelivery, P1, P2, phoneNumberRecord, seedAccounts } from '../helpers/store-fixtures'

/*
 * Store.projectData on both engines, each on a real database (a SQLite file, a throwaway
 * PostgreSQL cluster): export, replace, reset, and rows that travel from one engine to the other.
 */

const postgresCluster = lazyPostgresCluster()

type EngineName = 'sqlite' | 'postgres'
const ENGINE_NAMES: EngineName[] = ['sqlite', 'postgres']

const opened: Store[] = []
afterEach(async () => {
  for (const store of opened.splice(0).reverse()) await store.close()
})

/** A fresh database of `engine` with two projects, a user and a key in each. */
async function freshStore(engine: EngineName): Promise<Store> {
  const store =
    engine === 'sqlite'
      ? openSqliteStore(join(makeTempDir(), 'voicedesk.db'))
      : await openPostgresStore({ url: await (await postgresCluster()).createDatabase() })
  opened.push(store)
  await seedAccounts(store)
  return store
}

const hex = () => randomBytes(6).toString('hex')

function job(fields: Partial<JobRecord> = {}): JobRecord {
  return jobRecord({
    id: `job-${hex()}`,
    projectId: P1,
    apiKeyId: 'key-1',
    userId: 'user-1',
    attempts: 0,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  })
}

const agent = agentRecord
const phoneNumber = phoneNumberRecord
const delivery = newDelivery

/**
 * A project with a bit of everything: agents (one cloned), numbers (one assigned), jobs of
 * every type and status (Arabic, accents, a NUL in a text, AI parts, media), deliveries in
 * every state with their attempts; and a job and an agent in the other project.
 */
async function seedProject(store: Store): Promise<void> {
  const support = agent({ id: 'agent-support', agentName: 'Support desk', createdAt: at(1), updatedAt: at(2) })
  await store.voiceAgents.insert(support)
  // Versions as the service writes them: the support desk created, then changed; the sales agent cloned from it.
  await store.voiceAgents.addVersion({ ...support, agentName: 'Support', updatedAt: at(1) }, 'create', at(1))
  await store.voiceAgents.addVersion(support, 'update', at(2))
  const sales = agent({
    id: 'agent-sales',
    agentName: 'مبيعات',
    lang: 'ar',
    sourceId: 'agent-support',
    realTime: false,
    interrupt: true,
    outcomeResponseShape: null,
    tools: {},
    params: {},
    webhookUrl: null,
    webhookAuthKey: null,
    webhookAuthSecret: null,
    createdAt: at(1),
    updatedAt: at(1),
  })
  await store.voiceAgents.insert(sales)
  await store.voiceAgents.addVersion(sales, 'clone:agent-support', at(1))
  await store.phoneNumbers.insert(phoneNumber({ id: 'number-1', number: '+15550001', voiceAgentId: 'agent-support', createdAt: at(2) }))
  await store.phoneNumbers.insert(phoneNumber({ id: 'number-2', number: '+15550002', label: 'Back office', createdAt: at(3) }))
  // Voice dictionaries: two, the second active for both agents, the first for the sales agent after it.
  const dictionary = { projectId: P1, apiKeyId: 'key-1', createdAt: at(2), updatedAt: at(2) }
  await store.voiceDictionaries.insert({ ...dictionary, id: 'dict-names', name: 'Names', words: [{ word: 'سعد', pronunciation: 'سَعْد' }] })
  await store.voiceDictionaries.insert({ ...dictionary, id: 'dict-terms', name: 'Terms', words: [], createdAt: at(3) })
  await store.voiceDictionaries.setActive('dict-terms', 'agent-support', P1, true, at(3))
  await store.voiceDictionaries.setActive('dict-terms', 'agent-sales', P1, true, at(4))
  await store.voiceDictionaries.setActive('dict-names', 'agent-sales', P1, true, at(5))
  await store.jobs.insert(
    job({
      id: 'job-tts',
      type: 'TTS',
      status: 'COMPLETED',
      title: 'Welcome message',
      text: 'Café crème, naïve façade',
      voiceId: 'en-1',
      mediaFile: 'media-tts.mp3',
      totalCost: 1.5,
      usageSeconds: 3.25,
      createdAt: at(3),
    }),
  )
  await store.jobs.insert(
    job({
      id: 'job-ar',
      type: 'TRANSCRIPTION',
      status: 'COMPLETED',
      title: 'مكالمة العميل',
      text: 'مرحبا بكم في خدمة العملاء',
      mediaFile: 'media-ar.wav',
      createdAt: at(4),
    }),
  )
  await store.jobs.insert(
    job({
      id: 'job-nul',
      type: 'TRANSLATION',
      status: 'FAILED',
      title: 'Odd bytes',
      text: 'before\u0000after \uFFFF end',
      errorCode: 'ENGINE_FAILED',
      errorMessage: 'It broke',
      fromLng: 'en',
      toLng: 'ar',
      createdAt: at(5),
    }),
  )
  await store.jobs.insert(
    job({
      id: 'job-ai',
      type: 'AI_CONTENT',
      status: 'PENDING',
      title: 'Summary of the call',
      text: null,
      aiParts: ['summary', 'keywords'] as JobRecord['aiParts'],
      relevantJobId: 'job-ar',
      jobResponse: null,
      runAfter: 5_000,
      createdAt: at(6),
    }),
  )
  await store.jobs.insert(
    job({
      id: 'job-call',
      type: 'CONVERSATION',
      status: 'COMPLETED',
      title: 'Call with +15550001',
      text: 'agent: hello\ncaller: hi',
      voiceAgentId: 'agent-support',
      jobResponse: { turns: [{ role: 'agent', text: 'hello' }], outcome: { resolved: true } },
      usageSeconds: 61,
      totalCost: 0.75,
      createdAt: at(7),
    }),
  )
  await store.jobs.insert(
    job({
      id: 'job-progress',
      type: 'TRANSCRIPTION',
      status: 'PENDING',
      title: 'Long meeting',
      text: null,
      sourceUrl: 'https://example.test/meeting.mp3',
      progress: 0.25,
      createdAt: at(8),
    }),
  )
  await store.webhookDeliveries.insert(delivery({ id: 'delivery-ok', jobId: 'job-tts', createdAt: at(3) }))
  await store.webhookDeliveries.insert(delivery({ id: 'delivery-again', jobId: 'job-ar', createdAt: at(4) }))
  await store.webhookDeliveries.insert(delivery({ id: 'delivery-over', jobId: 'job-nul', event: 'job.failed', createdAt: at(5) }))
  await store.webhookDeliveries.claimDue('sender-1', 0, 1_000, 10)
  const attempt = (deliveryId: string, statusCode: number | null, error: string | null): AttemptRecord => ({
    deliveryId,
    attempt: 1,
    startedAt: at(9),
    statusCode,
    latencyMs: 12.5,
    error,
    responseExcerpt: statusCode === null ? null : 'body',
  })
  await store.webhookDeliveries.recordAttempts(
    'sender-1',
    [
      { attempt: attempt('delivery-ok', 200, null), outcome: { status: 'DELIVERED' } },
      { attempt: attempt('delivery-again', 503, 'HTTP 503'), outcome: { status: 'PENDING', nextAttemptAt: 6_000 } },
      { attempt: attempt('delivery-over', null, 'ECONNREFUSED'), outcome: { status: 'EXHAUSTED' } },
    ],
    at(10),
  )
  await store.jobs.insert(job({ id: 'job-other', projectId: P2, apiKeyId: 'key-2', title: 'Welcome elsewhere', createdAt: at(3) }))
  await store.voiceAgents.insert(agent({ id: 'agent-other', projectId: P2, apiKeyId: 'key-2' }))
}

async function exported(store: Store, projectId = P1): Promise<ProjectRow[]> {
  const rows: ProjectRow[] = []
  for await (const row of store.projectData.exportProject(projectId)) rows.push(row)
  return rows
}

const listAll = { sort: 'createdAt', direction: 'asc', limit: 100, offset: 0 } as const

/** What the service reads of a project: every list (sorted and searched), statistics, deliveries and their attempts, counts. */
async function reads(store: Store, projectId = P1) {
  const sorts = ['createdAt', 'updatedAt', 'title', 'status', 'type', 'cost'] as const
  const jobLists = []
  for (const sort of sorts)
    for (const direction of ['asc', 'desc'] as const) jobLists.push(await store.jobs.list(projectId, { ...listAll, sort, direction }))
  const searches = []
  for (const words of [['welcome'], ['cafe'], ['مرحب'], ['after'], ['call', 'hello'], ['summ'], ['nothing']])
    searches.push(await store.jobs.list(projectId, { ...listAll, words }))
  const deliveries = await store.webhookDeliveries.list(projectId, { limit: 100, offset: 0 })
  return {
    jobLists,
    searches,
    failed: await store.jobs.list(projectId, { ...listAll, status: 'FAILED' }),
    statistics: (await store.jobs.statistics(projectId, '')).sort((a, b) => `${a.type}${a.status}`.localeCompare(`${b.type}${b.status}`)),
    agents: await store.voiceAgents.list(projectId, {}, 100, 0),
    agentSearch: await store.voiceAgents.list(projectId, { search: 'desk' }, 100, 0),
    numbers: await store.phoneNumbers.list(projectId, {}, 100, 0),
    dictionaries: await store.voiceDictionaries.list(projectId, {}, 100, 0),
    activeForSales: await store.voiceDictionaries.findActiveForAgent('agent-sales', projectId),
    deliveries,
    attempts: await Promise.all(deliveries.records.map((record) => store.webhookDeliveries.attemptsOf(record.id))),
    counts: await store.projectData.projectCounts(projectId),
  }
}

describe.each(ENGINE_NAMES)('project data: %s', (engineName) => {
  it('exports every row of the project and none of another, as records, in write order', async () => {
    const store = await freshStore(engineName)
    await seedProject(store)
    const rows = await exported(store)
    expect(
      rows.map(
        (row) =>
          `${row.kind}:${'id' in row.record ? row.record.id : 'deliveryId' in row.record ? row.record.deliveryId : row.record.dictionaryId}`,
      ),
    ).toEqual([
      'agent:agent-sales',
      'agent:agent-support',
      'agentVersion:agent-sales',
      'agentVersion:agent-support',
      'agentVersion:agent-support',
      'phoneNumber:number-1',
      'phoneNumber:number-2',
      'voiceDictionary:dict-names',
      'voiceDictionary:dict-terms',
      'dictionaryActivation:dict-terms',
      'dictionaryActivation:dict-terms',
      'dictionaryActivation:dict-names',
      'job:job-tts',
      'job:job-ar',
      'job:job-nul',
      'job:job-ai',
      'job:job-call',
      'job:job-progress',
      'delivery:delivery-ok',
      'delivery:delivery-again',
      'delivery:delivery-over',
      'attempt:delivery-ok',
      'attempt:delivery-again',
      'attempt:delivery-over',
    ])
    expect(rows.find((row) => row.kind === 'job' && row.record.id === 'job-nul')?.record).toEqual(await store.jobs.findById('job-nul'))
    expect(rows.find((row) => row.kind === 'agent' && row.record.id === 'agent-support')?.record).toEqual(
      await store.voiceAgents.findInProject('agent-support', P1),
    )
    expect(await store.projectData.projectCounts(P1)).toEqual({
      agents: 2,
      agentVersions: 3,
      phoneNumbers: 2,
      voiceDictionaries: 2,
      dictionaryActivations: 3,
      jobs: 6,
      deliveries: 3,
      attempts: 3,
    })
    expect(await store.projectData.projectCounts(P2)).toEqual({
      agents: 1,
      agentVersions: 0,
      phoneNumbers: 0,
      voiceDictionaries: 0,
      dictionaryActivations: 0,
      jobs: 1,
      deliveries: 0,
      attempts: 0,
    })
  })

  it('replaces a project in a fresh database of either engine: the same rows, and the same reads', async () => {
    const source = await freshStore(engineName)
    await seedProject(source)
    const rows = await exported(source)
    const before = await reads(source)
    for (const target of ENGINE_NAMES) {
      const store = await freshStore(target)
      const { counts } = await store.projectData.replaceProject(P1, rows)
      expect(counts).toEqual({
        agents: 2,
        agentVersions: 3,
        phoneNumbers: 2,
        voiceDictionaries: 2,
        dictionaryActivations: 3,
        jobs: 6,
        deliveries: 3,
        attempts: 3,
      })
      expect(await exported(store)).toEqual(rows)
      expect(await reads(store)).toEqual(before)
      // Derived data is rebuilt, not copied: new jobs count and are found alongside the restored ones.
      await store.jobs.insert(job({ id: 'job-new', title: 'Welcome again', createdAt: at(20) }))
      const found = await store.jobs.list(P1, { ...listAll, words: ['welcome'] })
      expect(found.records.map((record) => record.id)).toEqual(['job-tts', 'job-new'])
      expect(found.total).toBe(7)
    }
  })

  it('travels SQLite → PostgreSQL → SQLite with equal rows and reads, from an archive of JSON lines', async () => {
    const source = await freshStore(engineName)
    await seedProject(source)
    const rows = await exported(source)
    const before = await reads(source)
    // As an archive carries them: one JSON text per row.
    const lines = rows.map((row) => JSON.stringify(row))
    const other = await freshStore(engineName === 'sqlite' ? 'postgres' : 'sqlite')
    await other.projectData.replaceProject(
      P1,
      lines.map((line) => JSON.parse(line) as ProjectRow),
    )
    expect(await reads(other)).toEqual(before)
    const back = await freshStore(engineName)
    await back.projectData.replaceProject(P1, await exported(other))
    expect((await exported(back)).map((row) => JSON.stringify(row))).toEqual(lines)
    expect(await reads(back)).toEqual(before)
  })

  it('resets a project: its data goes, its keys and users and the other project stay', async () => {
    const store = await freshStore(engineName)
    await seedProject(store)
    const otherBefore = await exported(store, P2)
    const { counts, mediaBefore } = await store.projectData.replaceProject(P1, [])
    expect(counts).toEqual({
      agents: 0,
      agentVersions: 0,
      phoneNumbers: 0,
      voiceDictionaries: 0,
      dictionaryActivations: 0,
      jobs: 0,
      deliveries: 0,
      attempts: 0,
    })
    // What the jobs named, for the caller to delete: read in the replace's own transaction.
    expect(mediaBefore.sort()).toEqual(['media-ar.wav', 'media-tts.mp3'])
    expect((await store.projectData.replaceProject(P1, [])).mediaBefore).toEqual([])
    expect(await store.projectData.projectCounts(P1)).toEqual(counts)
    expect(await exported(store)).toEqual([])
    expect(await store.jobs.list(P1, listAll)).toEqual({ records: [], total: 0, filtered: 0 })
    expect(await store.jobs.list(P1, { ...listAll, words: ['welcome'] })).toEqual({ records: [], total: 0, filtered: 0 })
    expect(await store.jobs.statistics(P1, '')).toEqual([])
    expect(await store.accounts.findActiveKeyByHash('hash-1')).toEqual({ apiKeyId: 'key-1', projectId: P1, userId: 'user-1' })
    expect(await store.accounts.findProject(P1)).toBeDefined()
    expect(await store.accounts.findLocalUserId()).toBe('user-1')
    expect(await exported(store, P2)).toEqual(otherBefore)
    expect((await store.jobs.list(P2, { ...listAll, words: ['welcome'] })).records.map((record) => record.id)).toEqual(['job-other'])
  })

  it('imports an archive made before versions: each agent gets version 1, its state as imported; a version of no agent of the rows is refused', async () => {
    const source = await freshStore(engineName)
    await seedProject(source)
    const rows = await exported(source)
    const withoutVersions = rows.filter((row) => row.kind !== 'agentVersion')
    const store = await freshStore(engineName)
    const { counts } = await store.projectData.replaceProject(P1, withoutVersions)
    expect(counts.agentVersions).toBe(2)
    const support = await store.voiceAgents.findInProject('agent-support', P1)
    expect(await store.voiceAgents.findVersion('agent-support', P1, 1)).toEqual({
      ...support,
      version: 1,
      source: 'import',
      versionedAt: support?.updatedAt,
    })
    expect(await store.voiceAgents.latestVersion('agent-sales', P1)).toBe(1)
    // The versions that came are kept as they were, numbers and sources included.
    await store.projectData.replaceProject(P1, rows)
    expect(await exported(store)).toEqual(rows)
    expect((await store.voiceAgents.listVersions('agent-support', P1, 10, 0)).records.map((r) => `${r.version}:${r.source}`)).toEqual([
      '2:update',
      '1:create',
    ])
    const stray = rows.find((row) => row.kind === 'agentVersion')
    const failure = await store.projectData.replaceProject(P1, [stray] as ProjectRow[]).catch((error: unknown) => error)
    expect((failure as Error).message).toMatch(/^Row 1 \(agentVersion agent-sales\): id agent-sales is not an agent of the rows before it/)
    expect(await exported(store)).toEqual(rows)
  })

  it('leaves everything as it was when a row is bad, names the row, and writes rows of unknown keys as the owner', async () => {
    const store = await freshStore(engineName)
    await seedProject(store)
    const rows = await exported(store)
    const before = await reads(store)
    const otherBefore = await exported(store, P2)
    const attempts: { rows: unknown[]; message: RegExp }[] = [
      {
        rows: [...rows.slice(0, 6), { kind: 'job', record: { ...job({ id: 'job-bad' }), totalCost: 'free' } }],
        message: /^Row 7 \(job job-bad\): record\.totalCost: /,
      },
      {
        rows: [...rows, { kind: 'job', record: { ...job({ id: 'job-extra' }), sneaky: true } }],
        message: /^Row 25 \(job job-extra\): .*sneaky/,
      },
      { rows: [{ kind: 'tape', record: {} }], message: /^Row 1 \(tape\): / },
      {
        rows: [{ kind: 'agent', record: agent({ id: 'agent-when', createdAt: 'yesterday' }) }],
        message: /^Row 1 \(agent agent-when\): record\.createdAt: /,
      },
      // Valid rows the database refuses: another project's job id, its preview token.
      {
        rows: [...rows, { kind: 'job', record: job({ id: 'job-other' }) }],
        message: /^Row 25 \(job job-other\): .*(UNIQUE|unique|already exists)/,
      },
      { rows: [...rows, { kind: 'agent', record: agent({ id: 'agent-other' }) }], message: /^Row 25 \(agent agent-other\): / },
      {
        rows: [
          ...rows.slice(0, 5),
          {
            kind: 'dictionaryActivation',
            record: { dictionaryId: 'dict-names', voiceAgentId: 'agent-sales', projectId: P1, activatedAt: at(1) },
          },
        ],
        message: /^Row 6 \(dictionaryActivation\): dictionaryId dict-names is not a voice dictionary of the rows before it/,
      },
      {
        rows: [{ kind: 'phoneNumber', record: phoneNumber({ voiceAgentId: 'agent-other' }) }],
        message: /^Row 1 \(phoneNumber number-\w+\): voiceAgentId agent-other is not an agent/,
      },
      {
        rows: [...rows.slice(0, 2), { kind: 'agent', record: agent({ apiKeyId: 'key-elsewhere' }) }],
        message: /^Row 3 \(agent agent-\w+\): apiKeyId key-elsewhere is not a key of this project/,
      },
    ]
    for (const attempt of attempts) {
      const failure = await store.projectData.replaceProject(P1, attempt.rows as ProjectRow[]).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(ProjectRowError)
      expect((failure as Error).message).toMatch(attempt.message)
      expect(await reads(store)).toEqual(before)
      expect(await exported(store)).toEqual(rows)
      expect(await exported(store, P2)).toEqual(otherBefore)
    }
    // A source that fails midway (a broken archive stream) leaves it as it was too.
    async function* broken() {
      yield rows[0]!
      throw new Error('archive truncated')
    }
    await expect(store.projectData.replaceProject(P1, broken())).rejects.toThrow('archive truncated')
    expect(await exported(store)).toEqual(rows)
    // With an owner, rows of keys and users this database does not have are written as the owner's.
    const foreign = rows.map((row) =>
      row.kind === 'job' || row.kind === 'phoneNumber' ? { ...row, record: { ...row.record, apiKeyId: 'key-x', userId: 'user-x' } } : row,
    ) as ProjectRow[]
    await store.projectData.replaceProject(P1, foreign, { owner: { apiKeyId: 'key-1', projectId: P1, userId: 'user-1' } })
    expect(await exported(store)).toEqual(rows)
  })

  it('exports one point in time while a writer keeps adding a job and its delivery in one transaction', async () => {
    const store = await freshStore(engineName)
    let written = 0
    let writing = true
    const writer = (async () => {
      while (writing) {
        const id = `job-w${String(written).padStart(6, '0')}`
        await store.transaction(async (tx) => {
          await tx.jobs.insert(job({ id, title: `Written ${written}` }))
          await tx.webhookDeliveries.insert(delivery({ id: `delivery-${id}`, jobId: id }))
        })
        written += 1
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    try {
      while (written < 200) await new Promise((resolve) => setTimeout(resolve, 5))
      const writtenAtStart = written
      const jobs = new Set<string>()
      const deliveries = new Set<string>()
      for await (const row of store.projectData.exportProject(P1)) {
        if (row.kind === 'job') jobs.add(row.record.id)
        if (row.kind === 'delivery') deliveries.add(row.record.jobId!)
        // A slow reader: the writer commits many times while the export is under way.
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
      expect(written).toBeGreaterThan(writtenAtStart + 10)
      expect(jobs.size).toBeGreaterThanOrEqual(writtenAtStart)
      expect([...deliveries].sort()).toEqual([...jobs].sort())
    } finally {
      writing = false
      await writer
    }
  })

  it('restores while a job runs: the runner’s completion of the old timeline writes nothing, and the call in progress is abandoned', async () => {
    const store = await freshStore(engineName)
    await store.jobs.insert(
      job({ id: 'job-running', type: 'TTS', status: 'PENDING', title: 'Spoken', text: 'Hello', jobResponse: null, createdAt: at(1) }),
    )
    await store.jobs.insert(
      job({
        id: 'job-live',
        type: 'CONVERSATION',
        status: 'PENDING',
        title: 'Live call',
        text: null,
        jobResponse: null,
        createdAt: at(2),
        runAfter: Number.MAX_SAFE_INTEGER,
      }),
    )
    const conversationOwner = 'host:1:call'
    const progress = { text: 'agent: hi', jobResponse: { turns: 1 }, usageSeconds: 3, totalCost: 0.1 }
    expect(await store.conversations.start('job-live', conversationOwner, Date.now() + 60_000, progress, at(3))).toBeDefined()

    let runs = 0
    let releaseFirstRun!: () => void
    const firstRunReleased = new Promise<void>((resolve) => (releaseFirstRun = resolve))
    let firstRunStarted!: () => void
    const started = new Promise<void>((resolve) => (firstRunStarted = resolve))
    const runner = new JobRunner({
      store,
      concurrency: 1,
      handlers: {
        TTS: async (_job, signal) => {
          runs += 1
          if (runs === 1) {
            firstRunStarted()
            await firstRunReleased
            return { jobResponse: { timeline: 'old' }, usageSeconds: 1, totalCost: 9 }
          }
          // A run of the new timeline waits until the runner stops.
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
          throw new Error('stopped')
        },
      },
    })
    await runner.start()
    try {
      runner.wake()
      await started
      const held = await store.jobs.findById('job-running')
      expect(held?.leaseOwner).toBe(runner.owner)
      const snapshot = await exported(store)
      await store.projectData.replaceProject(P1, snapshot)

      const restored = await store.jobs.findById('job-running')
      expect(restored).toMatchObject({ status: 'PENDING', leaseOwner: null, leaseExpiresAt: null, jobResponse: null })
      expect(await store.jobs.findById('job-live')).toMatchObject({
        status: 'IN_PROGRESS',
        leaseOwner: RESTORED_LEASE_OWNER,
        leaseExpiresAt: 0,
      })

      // The old timeline's work ends now: its compare-and-swap finds the lease gone.
      releaseFirstRun()
      await until(() => runs >= 2 || runner.activeJobs === 0)
      const after = await store.jobs.findById('job-running')
      expect(after?.status).toBe('PENDING')
      expect(after?.jobResponse).toBeNull()
      expect(after?.totalCost).toBe(restored?.totalCost)

      // The call's old socket loses its lease too; the sweep finds it abandoned.
      expect(await store.conversations.save('job-live', conversationOwner, progress, Date.now() + 60_000, at(4))).toBe(false)
      expect(
        await store.jobs.complete('job-live', conversationOwner, { jobResponse: {}, usageSeconds: 1, totalCost: 1 }, at(4)),
      ).toBeUndefined()
      expect(await store.conversations.requeueAbandoned(Date.now())).toBe(1)
      expect(await store.jobs.findById('job-live')).toMatchObject({ status: 'PENDING', leaseOwner: null })
    } finally {
      releaseFirstRun()
      await runner.stop(100)
    }
  })

  it('streams and replaces a project of thousands of jobs', async () => {
    const store = await freshStore(engineName)
    const count = 3_000
    await store.transaction(async (tx) => {
      for (let index = 0; index < count; index += 1) {
        await tx.jobs.insert(
          job({
            id: `job-${String(index).padStart(6, '0')}`,
            title: `Bulk ${index} ${index % 7 === 0 ? 'lucky' : 'plain'}`,
            createdAt: new Date(Date.UTC(2024, 4, 1) + index * 1_000).toISOString(),
          }),
        )
      }
    })
    const rows = await exported(store)
    expect(rows).toHaveLength(count)
    const target = await freshStore(engineName === 'sqlite' ? 'postgres' : 'sqlite')
    async function* streamed() {
      yield* rows
    }
    expect((await target.projectData.replaceProject(P1, streamed())).counts.jobs).toBe(count)
    expect(await target.jobs.list(P1, { ...listAll, words: ['lucky'], limit: 5 })).toEqual(
      await store.jobs.list(P1, { ...listAll, words: ['lucky'], limit: 5 }),
    )
    expect(await target.jobs.statistics(P1, '')).toEqual(await store.jobs.statistics(P1, ''))
  })
})

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  // The runner writes the job's end after its handler returned.
  await new Promise((resolve) => setTimeout(resolve, 100))
}
