import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { JobRunner, type JobHandler, type JobLane } from '../../src/jobs/job-runner'
import type { JobType } from '../../src/shared/api/jobs'
import type { JobsRepository } from '../../src/store/ports'
import type { JobOutcome } from '../../src/store/records'
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/store'
import { jobRecord } from '../helpers/job-record'
import { at, P1, P2, seedAccounts } from '../helpers/store-fixtures'
import { makeTempDir } from '../helpers/temp-dir'

/*
 * The job runner's lanes on a real SQLite store (the claim's SQL on both engines is the store
 * contract's): slots per lane, one project's share of a lane, and a lane whose due jobs wait for
 * its own slots asking the store again only when one of them ends (no busy timer).
 */

const OUTCOME: JobOutcome = { jobResponse: { ok: true }, usageSeconds: 1, totalCost: 1 }
const LANES: JobLane[] = [
  { name: 'media', types: ['TRANSCRIPTION'], slots: 3, perProject: 1 },
  { name: 'quick', types: ['TTS', 'AI_CONTENT', 'TRANSLATION', 'CONVERSATION'], slots: 2, perProject: 1 },
]

const opened: { store: SqliteStore; runner?: JobRunner }[] = []
afterEach(async () => {
  for (const { store, runner } of opened.splice(0)) {
    await runner?.stop(0)
    await store.close()
  }
})

/** A store with both test projects, its claims counted; jobs of `types` per project, queued in that order. */
async function queue(jobs: [projectId: string, type: JobType][]): Promise<{ store: SqliteStore; claims: () => number; ids: string[] }> {
  const store = openSqliteStore(join(makeTempDir(), 'voicedesk.db'))
  opened.push({ store })
  await seedAccounts(store)
  const ids: string[] = []
  for (const [index, [projectId, type]] of jobs.entries()) {
    const id = `${type.toLowerCase()}-${projectId}-${index}`
    ids.push(id)
    await store.jobs.insert(
      jobRecord({
        id,
        projectId,
        apiKeyId: projectId === P1 ? 'key-1' : 'key-2',
        type,
        status: 'PENDING',
        attempts: 0,
        createdAt: at(index),
        updatedAt: at(index),
      }),
    )
  }
  let claims = 0
  const jobsOfStore = store.jobs
  const counted: JobsRepository = Object.create(jobsOfStore) as JobsRepository
  counted.claimNext = (...args) => {
    claims += 1
    return jobsOfStore.claimNext(...args)
  }
  // The runner sees the counting repository; its transactions are the store's own.
  Object.defineProperty(store, 'jobs', { value: counted })
  return { store, claims: () => claims, ids }
}

function startRunner(store: SqliteStore, handlers: Partial<Record<JobType, JobHandler>>, lanes: JobLane[] = LANES): JobRunner {
  const runner = new JobRunner({ store, handlers, lanes, timeoutMs: 30_000 })
  opened.find((entry) => entry.store === store)!.runner = runner
  void runner.start()
  return runner
}

async function until(condition: () => boolean | Promise<boolean>, what: string, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('job lanes', () => {
  it("runs a lane's slots only, one project's share of them, and the other lane's jobs meanwhile; no claims while its due jobs wait for its slots", async () => {
    const { store, claims, ids } = await queue([
      [P1, 'TRANSCRIPTION'],
      [P1, 'TRANSCRIPTION'],
      [P1, 'TRANSCRIPTION'],
      [P2, 'TRANSCRIPTION'],
      [P2, 'TTS'],
      [P1, 'AI_CONTENT'],
    ])
    const running = new Set<string>()
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const held: JobHandler = async (job) => {
      running.add(job.id)
      await released
      running.delete(job.id)
      return OUTCOME
    }
    const runner = startRunner(store, { TRANSCRIPTION: held, TTS: async () => OUTCOME, AI_CONTENT: async () => OUTCOME })
    // Project 1's first transcription (its share: 1) and project 2's, though project 1's second is older.
    await until(() => running.size === 2, 'two transcriptions running')
    expect([...running].sort()).toEqual([ids[0], ids[3]].sort())
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(running.size).toBe(2)
    // The quick lane is not held up by them.
    await until(
      async () =>
        (await store.jobs.findById(ids[4]!))?.status === 'COMPLETED' && (await store.jobs.findById(ids[5]!))?.status === 'COMPLETED',
      'the quick jobs done',
    )
    // Project 1's other two are due, but wait for a media slot of its share (the lane's third slot stays free): the lane does not poll for them.
    const claimsWhileHeld = claims()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(claims()).toBe(claimsWhileHeld)
    expect(runner.activeJobs).toBe(2)
    release()
    await until(
      async () => (await Promise.all(ids.map((id) => store.jobs.findById(id)))).every((job) => job?.status === 'COMPLETED'),
      'every job done',
    )
  })

  it('keeps every limit with 40 jobs of two projects in both lanes at once, and runs them all', async () => {
    const jobs: [string, JobType][] = Array.from({ length: 40 }, (_, index) => [
      index % 3 === 0 ? P2 : P1,
      index % 2 === 0 ? 'TRANSCRIPTION' : 'TTS',
    ])
    const { store, ids } = await queue(jobs)
    const lanes: JobLane[] = [
      { name: 'media', types: ['TRANSCRIPTION'], slots: 3, perProject: 2 },
      { name: 'quick', types: ['TTS', 'AI_CONTENT', 'TRANSLATION', 'CONVERSATION'], slots: 3, perProject: 2 },
    ]
    const now = new Map<string, number>()
    const most = new Map<string, number>()
    const count = (key: string, by: number) => {
      now.set(key, (now.get(key) ?? 0) + by)
      most.set(key, Math.max(most.get(key) ?? 0, now.get(key)!))
    }
    const tracked: JobHandler = async (job) => {
      const lane = job.type === 'TRANSCRIPTION' ? 'media' : 'quick'
      count(lane, 1)
      count(`${lane}:${job.projectId}`, 1)
      await new Promise((resolve) => setTimeout(resolve, 15))
      count(lane, -1)
      count(`${lane}:${job.projectId}`, -1)
      return OUTCOME
    }
    startRunner(store, { TRANSCRIPTION: tracked, TTS: tracked }, lanes)
    await until(
      async () => (await Promise.all(ids.map((id) => store.jobs.findById(id)))).every((job) => job?.status === 'COMPLETED'),
      'every job done',
      20_000,
    )
    expect([most.get('media'), most.get('quick')]).toEqual([3, 3])
    for (const key of ['media:', 'quick:'].flatMap((lane) => [lane + P1, lane + P2])) expect(most.get(key)).toBeLessThanOrEqual(2)
  })

  it('refuses lanes that leave a job type out or hold one twice, and slots that are not whole numbers', async () => {
    const { store } = await queue([])
    const make = (lanes: JobLane[]) => () => new JobRunner({ store, handlers: {}, lanes })
    expect(make([LANES[0]!])).toThrow('JobRunnerOptions.lanes must put TRANSLATION jobs in exactly one lane, not 0')
    expect(make([...LANES, { name: 'again', types: ['TTS'], slots: 1, perProject: 1 }])).toThrow(
      'must put TTS jobs in exactly one lane, not 2',
    )
    expect(make([{ ...LANES[0]!, slots: 1.5 }, LANES[1]!])).toThrow('Job lane media: slots must be a whole number')
  })
})
