import { describe, expect, it } from 'vitest'
import type { IpcInput, IpcOperationName, IpcOutput, ServiceInfo } from '../../src/shared/ipc/operations'
import type { Call } from '../../src/renderer/src/api/call'
import { OperatorError } from '../../src/renderer/src/api/operator-error'
import { tokenFromPasted } from '../../src/renderer/src/api/ui-token'
import { createAppStore } from '../../src/renderer/src/store/app-store'
import { LINK_CHECK_MS, LINK_TIMEOUT_MS, LOST_AFTER_FAILURES } from '../../src/renderer/src/store/connection-slice'
import { agentFixture } from './agent-fixture'

const INFO: ServiceInfo = {
  url: 'http://127.0.0.1:8740',
  version: '1.0.0',
  dataDir: '/data',
  port: 8740,
  projectId: 'p',
  keyHint: '',
  runningJobs: 0,
  pendingJobs: 0,
  host: 'browser',
}

/** Timers on a clock the test moves. */
function fakeClock() {
  let now = 0
  let timers: { at: number; run: () => void; id: number }[] = []
  let nextId = 0
  return {
    now: () => now,
    schedule: (run: () => void, ms: number) => {
      const id = nextId++
      timers.push({ at: now + ms, run, id })
      return () => void (timers = timers.filter((timer) => timer.id !== id))
    },
    /** Moves the clock, running what falls due (and letting answers land between timers). */
    async advance(ms: number) {
      const end = now + ms
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 0))
        const due = timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0]
        if (!due) break
        timers = timers.filter((timer) => timer !== due)
        now = due.at
        due.run()
      }
      now = end
      await new Promise((resolve) => setTimeout(resolve, 0))
    },
  }
}

/** A service that is up, down (refuses connections) or hung (never answers). */
function fakeService() {
  let mode: 'up' | 'down' | 'hung' | 'new-token' = 'up'
  const calls: IpcOperationName[] = []
  const call = (<N extends IpcOperationName>(name: N, _input: IpcInput<N>): Promise<IpcOutput<N>> => {
    calls.push(name)
    if (mode === 'hung') return new Promise(() => {})
    if (mode === 'down') return Promise.reject(new OperatorError({ code: 'INTERNAL', message: 'Cannot reach the VoiceDesk service' }))
    if (mode === 'new-token') return Promise.reject(new OperatorError({ code: 'UNAUTHORIZED', message: 'token' }))
    if (name === 'service.info') return Promise.resolve(INFO as IpcOutput<N>)
    if (name === 'agents.list') return Promise.resolve({ agents: [agentFixture()], total: 1, filtered: 1 } as IpcOutput<N>)
    return Promise.reject(new OperatorError({ code: 'NOT_FOUND', message: name }))
  }) as Call
  return { call, calls, set: (next: typeof mode) => void (mode = next) }
}

describe('the link to the service', () => {
  it('is connected after the first check, and checked again every few seconds while watched', async () => {
    const clock = fakeClock()
    const service = fakeService()
    const store = createAppStore({ call: service.call, schedule: clock.schedule, now: clock.now })
    store.getState().watchLink(true)
    await clock.advance(0)
    expect(store.getState().link.state).toBe('connected')
    expect(store.getState().service.info?.url).toBe(INFO.url)
    await clock.advance(LINK_CHECK_MS * 3)
    expect(service.calls.filter((name) => name === 'service.info')).toHaveLength(4)
    // A hidden window is not checked.
    store.getState().watchLink(false)
    await clock.advance(LINK_CHECK_MS * 3)
    expect(service.calls.filter((name) => name === 'service.info')).toHaveLength(4)
  })

  it('says reconnecting with a countdown, then lost, then recovers by itself and loads the lists again', async () => {
    const clock = fakeClock()
    const service = fakeService()
    const store = createAppStore({ call: service.call, schedule: clock.schedule, now: clock.now })
    store.getState().watchLink(true)
    await store.getState().loadAgents()
    await clock.advance(0)
    service.set('down')
    await clock.advance(LINK_CHECK_MS)
    expect(store.getState().link).toMatchObject({ state: 'reconnecting', failures: 1, nextCheckAt: clock.now() + 1_000 })
    await clock.advance(1_000 + 2_000)
    expect(store.getState().link).toMatchObject({ state: 'lost', failures: LOST_AFTER_FAILURES })
    // Lost, but still tried: less often.
    const nextAt = store.getState().link.nextCheckAt!
    expect(nextAt - clock.now()).toBe(4_000)
    service.set('up')
    const agentLoadsBefore = service.calls.filter((name) => name === 'agents.list').length
    await clock.advance(4_000)
    expect(store.getState().link).toMatchObject({ state: 'connected', failures: 0, nextCheckAt: null, returns: 1 })
    expect(service.calls.filter((name) => name === 'agents.list').length).toBe(agentLoadsBefore + 1)
  })

  it('counts a check that never answers as failed', async () => {
    const clock = fakeClock()
    const service = fakeService()
    const store = createAppStore({ call: service.call, schedule: clock.schedule, now: clock.now })
    service.set('hung')
    store.getState().watchLink(true)
    await clock.advance(LINK_TIMEOUT_MS)
    expect(store.getState().link.state).toBe('reconnecting')
  })

  it('leaves a refused token to the way-back screen rather than calling the link broken', async () => {
    const clock = fakeClock()
    const service = fakeService()
    const store = createAppStore({ call: service.call, schedule: clock.schedule, now: clock.now })
    service.set('new-token')
    store.getState().watchLink(true)
    await clock.advance(LINK_CHECK_MS * 2)
    expect(store.getState().link.state).toBe('connecting')
    expect(service.calls.filter((name) => name === 'service.info')).toHaveLength(1)
  })
})

describe('a pasted way back in', () => {
  it('finds the token in the Operator UI link, its banner line, or alone', () => {
    const token = 'Zq3_x-9aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789ab'
    expect(tokenFromPasted(`http://127.0.0.1:8740/app/#token=${token}`)).toBe(token)
    expect(tokenFromPasted(`  Operator UI: http://127.0.0.1:8740/app/#token=${token}\n`)).toBe(token)
    expect(tokenFromPasted(token)).toBe(token)
    expect(tokenFromPasted('http://127.0.0.1:8740/app/')).toBeNull()
    expect(tokenFromPasted('hello')).toBeNull()
  })
})
