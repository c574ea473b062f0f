import { describe, expect, it } from 'vitest'
import type { Call } from '../../src/renderer/src/api/call'
import { createAppStore } from '../../src/renderer/src/store/app-store'

const neverCalled = (() => Promise.reject(new Error('no service in this test'))) as unknown as Call

/** A schedule whose timers run when the test says. */
function manualSchedule() {
  const timers = new Map<number, () => void>()
  let next = 0
  return {
    schedule: (run: () => void) => {
      const id = next++
      timers.set(id, run)
      return () => void timers.delete(id)
    },
    runAll: () => [...timers.values()].forEach((run) => run()),
    size: () => timers.size,
  }
}

describe('toasts', () => {
  it('collapse identical messages into one with a count, and go after one timeout', () => {
    const timers = manualSchedule()
    const store = createAppStore({ call: neverCalled, schedule: timers.schedule })
    store.getState().toast('error', 'Cannot reach the service')
    store.getState().toast('error', 'Cannot reach the service')
    store.getState().toast('error', 'Cannot reach the service')
    store.getState().toast('success', 'Saved.')
    expect(store.getState().ui.toasts.map((toast) => [toast.text, toast.count])).toEqual([
      ['Cannot reach the service', 3],
      ['Saved.', 1],
    ])
    // The repeats restarted the first toast's timer rather than adding timers.
    expect(timers.size()).toBe(2)
    timers.runAll()
    expect(store.getState().ui.toasts).toEqual([])
  })

  it('keeps different kinds of the same text apart', () => {
    const store = createAppStore({ call: neverCalled, schedule: manualSchedule().schedule })
    store.getState().toast('info', 'Done')
    store.getState().toast('success', 'Done')
    expect(store.getState().ui.toasts).toHaveLength(2)
  })
})
