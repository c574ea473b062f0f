/**
 * New jobs wait behind the "N new jobs" bar while the operator has scrolled down the list (the
 * rows under the pointer do not move); at the top they appear at once. The store alone (zustand/vanilla).
 */
import { describe, expect, it } from 'vitest'
import type { JobListItem } from '../../src/shared/api/jobs'
import type { IpcInput, IpcOperationName, IpcOutput } from '../../src/shared/ipc/operations'
import type { Call } from '../../src/renderer/src/api/call'
import { createAppStore } from '../../src/renderer/src/store/app-store'
import { jobRowFixture } from './job-row-fixture'
import { jobAt, jobRowCount } from '../../src/renderer/src/store/selectors'
import { manualClock } from './manual-clock'

const jobRow = (n: number): JobListItem => jobRowFixture(n, 'PENDING')

/** A service holding `count` jobs, newest first; `add` queues newer ones at the top. */
function fakeService(count: number) {
  let next = count
  const rows = Array.from({ length: count }, (_, index) => jobRow(count - index - 1))
  const call = (async <N extends IpcOperationName>(name: N, input: IpcInput<N>): Promise<IpcOutput<N>> => {
    await Promise.resolve()
    if (name !== 'jobs.list') throw new Error(`unexpected ${name}`)
    const { skip = 1, take = 10 } = input as { skip?: number; take?: number }
    return { jobs: rows.slice((skip - 1) * take, skip * take), total: rows.length, filtered: rows.length } as IpcOutput<N>
  }) as Call
  return {
    call,
    add(n: number): JobListItem[] {
      const added = Array.from({ length: n }, () => jobRow(next++))
      rows.unshift(...added.reverse())
      return added
    },
  }
}

const settle = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setTimeout(resolve, 0))
}

async function setUp() {
  const service = fakeService(250)
  const clock = manualClock()
  const store = createAppStore({ call: service.call, schedule: clock.schedule })
  store.getState().showJobPages([1])
  await settle()
  /** Jobs queued elsewhere, and their job.changed events, coalesced and refreshed. */
  const queue = async (n: number) => {
    const added = service.add(n)
    for (const job of added) store.getState().jobChanged({ id: job.id, status: 'PENDING', type: 'TTS', title: job.title })
    clock.runAll()
    await settle()
    return added
  }
  return { store, queue }
}

describe('the "N new jobs" bar', () => {
  it('at the top of the list, new jobs appear at once', async () => {
    const { store, queue } = await setUp()
    const [added] = await queue(1)
    expect(store.getState().jobs.newJobs).toBe(0)
    expect(jobAt(store.getState().jobs, 0)?.id).toBe(added!.id)
    expect(jobRowCount(store.getState().jobs)).toBe(251)
  })

  it('scrolled down, rows stay where they are and the bar counts the new jobs; clicking it shows them', async () => {
    const { store, queue } = await setUp()
    store.getState().setJobsAtTop(false)
    store.getState().showJobPages([2])
    await settle()
    const rowAt = (index: number) => jobAt(store.getState().jobs, index)?.id
    const before = [rowAt(0), rowAt(150), rowAt(199)]

    await queue(2)
    expect(store.getState().jobs.newJobs).toBe(2)
    await queue(1)
    expect(store.getState().jobs.newJobs).toBe(3)
    expect([rowAt(0), rowAt(150), rowAt(199)]).toEqual(before)
    expect(jobRowCount(store.getState().jobs)).toBe(250)

    // Statuses of the rows shown still change in place.
    const shown = jobAt(store.getState().jobs, 150)!
    store.getState().jobChanged({ id: shown.id, status: 'COMPLETED', type: 'TTS', title: shown.title })
    expect(jobAt(store.getState().jobs, 150)?.status).toBe('COMPLETED')

    store.getState().showNewJobs()
    await settle()
    expect(store.getState().jobs).toMatchObject({ newJobs: 0, atTop: true })
    expect(rowAt(0)).toBe('00000000-0000-4000-8000-000000000252')
    expect(jobRowCount(store.getState().jobs)).toBe(253)
  })

  it('scrolling back to the top shows the held jobs too', async () => {
    const { store, queue } = await setUp()
    store.getState().setJobsAtTop(false)
    await queue(4)
    expect(store.getState().jobs.newJobs).toBe(4)
    expect(jobAt(store.getState().jobs, 0)?.id).toBe('00000000-0000-4000-8000-000000000249')
    store.getState().setJobsAtTop(true)
    await settle()
    expect(store.getState().jobs.newJobs).toBe(0)
    expect(jobAt(store.getState().jobs, 0)?.id).toBe('00000000-0000-4000-8000-000000000253')
  })
})
