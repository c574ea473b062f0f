/**
 * The Requests screen's store (zustand/vanilla, no DOM) against a real runtime in browser mode:
 * /v1 requests made with fetch, the store's operations sent over /ipc as the renderer sends
 * them. New rows appear at the top at once, wait behind the bar while scrolled down, replace
 * the list when more than a page arrived; older pages come by the cursor; refreshes are
 * throttled; a journal that is off is said, not an error.
 */
import { describe, expect, it } from 'vitest'
import type { Call } from '../../src/renderer/src/api/call'
import { OperatorError } from '../../src/renderer/src/api/operator-error'
import { createAppStore } from '../../src/renderer/src/store/app-store'
import { REQUESTS_PAGE_SIZE } from '../../src/renderer/src/store/requests-slice'
import type { IpcInput, IpcOperationName, IpcOutput } from '../../src/shared/ipc/operations'
import type { RuntimeConfig } from '../../src/service/runtime'
import { startTestService } from '../helpers/test-service'
import { ipcClient } from '../service/ipc-client'
import { manualClock } from './manual-clock'

const settle = async () => {
  for (let i = 0; i < 50; i += 1) await new Promise((resolve) => setTimeout(resolve, 2))
}

async function setUp(config: Partial<RuntimeConfig> = {}) {
  const service = await startTestService({ port: 0, ...config })
  const url = await service.runtime.start()
  const ipc = ipcClient(url, service.runtime.uiToken)
  // The renderer's call, over the real /ipc transport.
  const call = (async <N extends IpcOperationName>(name: N, input: IpcInput<N>): Promise<IpcOutput<N>> => {
    const result = await ipc.call(name, input)
    if (!result.ok) throw new OperatorError(result.error)
    return result.data
  }) as Call
  const clock = manualClock()
  const store = createAppStore({ call, schedule: clock.schedule })
  store.getState().navigate('requests')
  const get = async (path: string, times = 1) => {
    for (let index = 0; index < times; index += 1) {
      const response = await fetch(`${url}${path}`, { headers: { authorization: `Token ${service.key}` } })
      expect(response.status).toBeLessThan(500)
      await response.arrayBuffer()
    }
  }
  /** What a requests.written event does, once the throttle's timer ran. */
  const written = async () => {
    store.getState().requestsWritten()
    clock.runAll()
    await settle()
  }
  return { store, clock, get, written }
}

const ids = (rows: readonly { id: number }[]) => rows.map((row) => row.id)

describe('the Requests store', () => {
  it('shows new requests at once at the top, holds them while scrolled down, and shows them from the bar', async () => {
    const { store, get, written } = await setUp()
    await get('/v1/voices', 3)
    store.getState().openRequests()
    await settle()
    expect(ids(store.getState().requests.rows)).toEqual([3, 2, 1])

    await get('/v1/voice-agents/templates')
    await written()
    expect(ids(store.getState().requests.rows)).toEqual([4, 3, 2, 1])

    store.getState().setRequestsAtTop(false)
    await get('/v1/voices', 2)
    await written()
    expect(ids(store.getState().requests.rows)).toEqual([4, 3, 2, 1])
    expect(ids(store.getState().requests.held)).toEqual([6, 5])
    await store.getState().showNewRequests()
    expect(ids(store.getState().requests.rows)).toEqual([6, 5, 4, 3, 2, 1])
    expect(store.getState().requests.held).toEqual([])

    // Back at the top by scrolling: held rows show too.
    store.getState().setRequestsAtTop(false)
    await get('/v1/voices')
    await written()
    expect(store.getState().requests.held).toHaveLength(1)
    store.getState().setRequestsAtTop(true)
    await settle()
    expect(ids(store.getState().requests.rows)[0]).toBe(7)
  })

  it('refreshes at most once per throttle window, and only while the screen is shown', async () => {
    const { store, clock } = await setUp()
    store.getState().openRequests()
    await settle()
    store.getState().requestsWritten()
    store.getState().requestsWritten()
    store.getState().requestsWritten()
    expect(clock.pending).toBe(1)
    clock.runAll()
    store.getState().navigate('jobs')
    store.getState().requestsWritten()
    expect(clock.pending).toBe(0)
  })

  it('pages older requests by the cursor, and replaces the list when more than a page arrived while scrolled down', async () => {
    const { store, get, written } = await setUp()
    await get('/v1/voices', REQUESTS_PAGE_SIZE + 30)
    store.getState().openRequests()
    await settle()
    expect(store.getState().requests.rows).toHaveLength(REQUESTS_PAGE_SIZE)
    expect(store.getState().requests.next).toBe(31)
    await store.getState().loadMoreRequests()
    expect(store.getState().requests.rows).toHaveLength(REQUESTS_PAGE_SIZE + 30)
    expect(store.getState().requests.next).toBeNull()

    store.getState().setRequestsAtTop(false)
    await get('/v1/voice-agents/templates', REQUESTS_PAGE_SIZE + 5)
    await written()
    expect(store.getState().requests).toMatchObject({ heldMore: true })
    expect(store.getState().requests.rows).toHaveLength(REQUESTS_PAGE_SIZE + 30)
    await store.getState().showNewRequests()
    const { rows, next } = store.getState().requests
    expect(rows).toHaveLength(REQUESTS_PAGE_SIZE)
    expect(rows[0]!.id).toBe(2 * REQUESTS_PAGE_SIZE + 35)
    expect(next).toBe(rows[rows.length - 1]!.id)
  })

  it('keeps the cursor when more than a page arrives on an empty list', async () => {
    const { store, get, written } = await setUp()
    store.getState().openRequests()
    await settle()
    expect(store.getState().requests).toMatchObject({ loaded: true, rows: [], next: null })
    await get('/v1/voices', REQUESTS_PAGE_SIZE + 3)
    await written()
    expect(store.getState().requests.rows).toHaveLength(REQUESTS_PAGE_SIZE)
    expect(store.getState().requests.next).toBe(4)
    await store.getState().loadMoreRequests()
    expect(ids(store.getState().requests.rows).slice(-3)).toEqual([3, 2, 1])
  })

  it('filters, and starts again from the top on each change', async () => {
    const { store, get } = await setUp()
    await get('/v1/voices', 2)
    await get('/v1/jobs?jobId=00000000-0000-4000-8000-000000000000')
    store.getState().openRequests()
    await settle()
    store.getState().setRequestFilters({ status: '4xx' })
    await settle()
    expect(store.getState().requests.rows.map((row) => row.status)).toEqual([404])
    store.getState().setRequestFilters({ status: '', path: 'v1/voices' })
    await settle()
    expect(store.getState().requests.rows.map((row) => row.path)).toEqual(['/v1/voices', '/v1/voices'])
  })

  it('says the journal is off rather than failing', async () => {
    const { store } = await setUp({ journal: { enabled: false } })
    store.getState().openRequests()
    await settle()
    expect(store.getState().requests).toMatchObject({ off: true, error: null, rows: [] })
  })
})
