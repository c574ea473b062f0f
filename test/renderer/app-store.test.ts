import { describe, expect, it } from 'vitest'
import type { JobListItem } from '../../src/shared/api/jobs'
import type { IpcInput, IpcOperationName, IpcOutput } from '../../src/shared/ipc/operations'
import type { Call } from '../../src/renderer/src/api/call'
import { OperatorError } from '../../src/renderer/src/api/operator-error'
import { createAppStore } from '../../src/renderer/src/store/app-store'
import { jobRowFixture } from './job-row-fixture'
import { JOBS_PAGE_SIZE } from '../../src/renderer/src/store/jobs-slice'
import { curlExample, jobAt, jobRowCount, pagesForRange } from '../../src/renderer/src/store/selectors'
import { agentFixture } from './agent-fixture'
import { manualClock } from './manual-clock'

type Calls = { name: IpcOperationName; input: unknown }[]

/** A fake service of `total` jobs; answers wait until `flush()`, like a real round trip. */
function fakeService(total: number) {
  const calls: Calls = []
  const pending: (() => void)[] = []
  let statusOf = (_index: number): JobListItem['status'] => 'COMPLETED'
  const call = (<N extends IpcOperationName>(name: N, input: IpcInput<N>): Promise<IpcOutput<N>> => {
    calls.push({ name, input })
    // The answer is what the service holds when the request arrives; it lands later.
    let jobs: JobListItem[] = []
    let filtered = total
    if (name === 'jobs.list') {
      const { skip = 1, take = 10, status } = input as { skip?: number; take?: number; status?: JobListItem['status'] }
      const all = Array.from({ length: total }, (_, index) => jobRowFixture(index, statusOf(index)))
      const matching = status === undefined ? all : all.filter((job) => job.status === status)
      filtered = matching.length
      jobs = matching.slice((skip - 1) * take, skip * take)
    }
    return new Promise((resolve, reject) => {
      pending.push(() => {
        if (name === 'jobs.list') {
          resolve({ jobs, total, filtered } as IpcOutput<N>)
        } else if (name === 'agents.list') {
          resolve({ agents: [agentFixture()], total: 1, filtered: 1 } as IpcOutput<N>)
        } else reject(new OperatorError({ code: 'NOT_FOUND', message: `no ${name}` }))
      })
    })
  }) as Call
  return {
    call,
    calls,
    setStatus(fn: (index: number) => JobListItem['status']) {
      statusOf = fn
    },
    async flush() {
      while (pending.length > 0) {
        pending.splice(0).forEach((answer) => answer())
        await new Promise((resolve) => setTimeout(resolve, 0))
      }
    },
    /** Answers the newest request first, so an older answer lands last (as a slow round trip can). */
    async flushNewestFirst() {
      while (pending.length > 0) {
        for (const answer of pending.splice(0).reverse()) {
          answer()
          await new Promise((resolve) => setTimeout(resolve, 0))
        }
      }
    },
  }
}

describe('the jobs slice', () => {
  it('fetches the pages the table shows, 100 rows each, once', async () => {
    const service = fakeService(100_000)
    const store = createAppStore({ call: service.call })
    store.getState().showJobPages([1])
    store.getState().showJobPages([1])
    await service.flush()
    expect(jobRowCount(store.getState().jobs)).toBe(100_000)
    // Scrolled to rows 950-1010: pages 10 and 11 (1-based).
    store.getState().showJobPages(pagesForRange(950, 1_010))
    await service.flush()
    const lists = service.calls.filter((call) => call.name === 'jobs.list').map((call) => call.input)
    expect(lists).toEqual([
      expect.objectContaining({ take: JOBS_PAGE_SIZE, skip: 1, sort: { field: 'createdAt', direction: 'desc' } }),
      expect.objectContaining({ skip: 10 }),
      expect.objectContaining({ skip: 11 }),
    ])
    expect(jobAt(store.getState().jobs, 1_005)?.title).toBe('Job 1005')
    expect(jobAt(store.getState().jobs, 5_000)).toBeUndefined()
  })

  it('drops answers to a query that has since changed', async () => {
    const service = fakeService(500)
    service.setStatus((index) => (index % 5 === 0 ? 'FAILED' : 'COMPLETED'))
    const store = createAppStore({ call: service.call })
    store.getState().showJobPages([1])
    store.getState().setJobsQuery({ status: 'FAILED', search: 'x' })
    // The answer to the unfiltered query lands after the filtered one: it must not overwrite it.
    await service.flushNewestFirst()
    const lists = service.calls.filter((call) => call.name === 'jobs.list')
    expect(lists).toHaveLength(2)
    expect(lists[1]!.input).toMatchObject({ status: 'FAILED', search: 'x', skip: 1 })
    expect(store.getState().jobs.generation).toBe(1)
    const page = store.getState().jobs.pages[1] ?? []
    expect(page).toHaveLength(JOBS_PAGE_SIZE)
    expect(page.every((job) => job.status === 'FAILED')).toBe(true)
    expect(store.getState().jobs.filtered).toBe(100)
  })

  it('updates shown rows at once on job.changed and refetches the visible pages once per burst', async () => {
    const service = fakeService(250)
    const clock = manualClock()
    const store = createAppStore({ call: service.call, schedule: clock.schedule })
    store.getState().showJobPages([1, 2])
    await service.flush()
    const before = service.calls.length
    for (let index = 0; index < 20; index += 1) {
      store.getState().handleEvent({
        type: 'job.changed',
        job: { id: jobRowFixture(3).id, status: 'FAILED', type: 'TTS', title: 'Job 3' },
        runningJobs: 1,
        pendingJobs: 4,
      })
    }
    expect(jobAt(store.getState().jobs, 3)?.status).toBe('FAILED')
    expect(store.getState().service).toMatchObject({ runningJobs: 1, pendingJobs: 4 })
    expect(clock.pending).toBe(1)
    clock.runAll()
    await service.flush()
    expect(service.calls.slice(before).map((call) => (call.input as { skip: number }).skip)).toEqual([1, 2])
  })

  it('fetches a page again when it went stale while its request was on its way', async () => {
    const service = fakeService(50)
    const clock = manualClock()
    const store = createAppStore({ call: service.call, schedule: clock.schedule })
    store.getState().showJobPages([1])
    await service.flush()
    store.getState().refreshJobs() // a request on its way, answering COMPLETED...
    service.setStatus(() => 'FAILED')
    store.getState().refreshJobs() // ...when the job changes
    await service.flush()
    expect(service.calls.filter((call) => call.name === 'jobs.list')).toHaveLength(3)
    expect(jobAt(store.getState().jobs, 0)?.status).toBe('FAILED')
  })
})

describe('the agents and ui slices', () => {
  it('lists agents, keeps the newest edit, and forgets a deleted one', async () => {
    const service = fakeService(0)
    const store = createAppStore({ call: service.call })
    const loading = store.getState().loadAgents('front')
    await service.flush()
    await loading
    expect(service.calls[0]).toEqual({ name: 'agents.list', input: { take: 100, skip: 1, search: 'front' } })
    store.getState().upsertAgent(agentFixture({ agentName: 'Renamed' }))
    expect(store.getState().agents.items.map((agent) => agent.agentName)).toEqual(['Renamed'])
    store.getState().removeAgent(agentFixture().id)
    expect(store.getState().agents).toMatchObject({ items: [], total: 0 })
  })

  it('keeps language and theme in the preferences, and toasts go away by themselves', () => {
    const values = new Map<string, string>()
    const preferences = {
      getItem: (key: string) => values.get(key) ?? null,
      setItem: (key: string, value: string) => void values.set(key, value),
    }
    const clock = manualClock()
    const store = createAppStore({ call: fakeService(0).call, preferences, schedule: clock.schedule })
    store.getState().setLocale('ar')
    store.getState().setTheme('dark')
    expect(createAppStore({ call: fakeService(0).call, preferences }).getState().ui).toMatchObject({ locale: 'ar', theme: 'dark' })
    store.getState().toast('error', 'Nope')
    expect(store.getState().ui.toasts).toHaveLength(1)
    clock.runAll()
    expect(store.getState().ui.toasts).toHaveLength(0)
  })

  it('writes a curl example with a placeholder, never a real key', () => {
    expect(curlExample('http://127.0.0.1:8740')).toBe(
      'curl -H "Authorization: Token <your-api-key>" http://127.0.0.1:8740/v1/voice-agents/templates',
    )
  })
})
