/**
 * Deep links: hash routes for every screen, agent, job and delivery, read and written, and kept in
 * step with the store (zustand/vanilla, a plain object for the window).
 */
import { describe, expect, it } from 'vitest'
import type { IpcInput, IpcOperationName, IpcOutput } from '../../src/shared/ipc/operations'
import type { Call } from '../../src/renderer/src/api/call'
import { OperatorError } from '../../src/renderer/src/api/operator-error'
import { createAppStore } from '../../src/renderer/src/store/app-store'
import { hashOf, parseHashRoute, routeOf, startHashRouting } from '../../src/renderer/src/store/hash-route'

const JOB = '0b6f3f9e-5a43-4c1e-9d55-0f2b1f7d9a01'
const AGENT = '4d7b8f1e-2222-4c1e-9d55-0f2b1f7d9a02'
const DELIVERY = 'msg_0d5a74136102012b26575cc1ac2ca2e9'

/** Every call refused: routing needs no answer to select. */
const call = (<N extends IpcOperationName>(name: N, _input: IpcInput<N>): Promise<IpcOutput<N>> =>
  Promise.reject(new OperatorError({ code: 'NOT_FOUND', message: `no ${name}` }))) as Call

/** A window whose hash can be set by the page (hashchange fires, as a browser does) or by the store. */
function fakeWindow(hash = '') {
  const listeners: (() => void)[] = []
  const history: string[] = []
  const location = {
    _hash: hash,
    get hash() {
      return this._hash
    },
    set hash(value: string) {
      this._hash = value
      history.push(value)
      queueMicrotask(() => listeners.forEach((listener) => listener()))
    },
  }
  return {
    location,
    history,
    addEventListener: (_type: 'hashchange', listener: () => void) => void listeners.push(listener),
    /** The back button: the hash changes, then hashchange fires. */
    go(hash: string) {
      location._hash = hash
      listeners.forEach((listener) => listener())
    },
  }
}

describe('hash routes', () => {
  it('reads and writes a route for every screen and for each agent, job and delivery', () => {
    expect(parseHashRoute(`#/jobs/${JOB}`)).toEqual({ screen: 'jobs', id: JOB })
    expect(parseHashRoute(`#/agents/${AGENT}`)).toEqual({ screen: 'agents', id: AGENT })
    expect(parseHashRoute(`#/webhooks/${DELIVERY}`)).toEqual({ screen: 'webhooks', id: DELIVERY })
    expect(parseHashRoute('#/settings')).toEqual({ screen: 'settings', id: null })
    // Not routes: nothing, the token fragment, an unknown screen; an id where there is no item, or a strange one, is dropped.
    expect(parseHashRoute('')).toBeNull()
    expect(parseHashRoute('#token=abc')).toBeNull()
    expect(parseHashRoute('#/nowhere/1')).toBeNull()
    expect(parseHashRoute('#/settings/1')).toEqual({ screen: 'settings', id: null })
    expect(parseHashRoute('#/jobs/%3Cscript%3E')).toEqual({ screen: 'jobs', id: null })
    for (const route of [
      { screen: 'jobs', id: JOB },
      { screen: 'numbers', id: null },
    ] as const)
      expect(parseHashRoute(hashOf(route))).toEqual(route)
  })

  it('opens the route of the address at start, sets the hash as the operator moves, and follows the back button', async () => {
    const store = createAppStore({ call })
    const window = fakeWindow(`#/jobs/${JOB}`)
    startHashRouting(store, window)
    expect(routeOf(store.getState())).toEqual({ screen: 'jobs', id: JOB })
    expect(store.getState().jobs.detail?.id).toBe(JOB)

    store.getState().openAgent(AGENT)
    expect(window.location.hash).toBe(`#/agents/${AGENT}`)
    await Promise.resolve()
    store.getState().navigate('webhooks')
    void store.getState().selectDelivery(DELIVERY)
    expect(window.history).toEqual([`#/agents/${AGENT}`, '#/webhooks', `#/webhooks/${DELIVERY}`])
    await Promise.resolve()

    // Back: the delivery closes, then the agent opens again.
    window.go('#/webhooks')
    expect(routeOf(store.getState())).toEqual({ screen: 'webhooks', id: null })
    window.go(`#/agents/${AGENT}`)
    expect(routeOf(store.getState())).toEqual({ screen: 'agents', id: AGENT })
    // Following the address adds no history entry of its own.
    expect(window.history).toHaveLength(3)
  })

  it('opens a journaled request by its number, and an item of another screen without a step of its own in history', () => {
    expect(parseHashRoute('#/requests/42')).toEqual({ screen: 'requests', id: '42' })
    const store = createAppStore({ call })
    const window = fakeWindow('#/requests/42')
    startHashRouting(store, window)
    expect(routeOf(store.getState())).toEqual({ screen: 'requests', id: '42' })
    expect(store.getState().requests.selectedId).toBe(42)
    // Not a journal id: the list alone.
    window.go('#/requests/abc')
    expect(store.getState().requests.selectedId).toBeNull()
    // The link from a request to its job (the address set to #/jobs/<id>): the screen and the job
    // are one step, so Back returns to the request (no "#/jobs" in between).
    window.go(`#/jobs/${JOB}`)
    expect(routeOf(store.getState())).toEqual({ screen: 'jobs', id: JOB })
    expect(window.history).toEqual([])
  })
})
