import { describe, expect, it } from 'vitest'
import type { Call } from '../../src/renderer/src/api/call'
import { createAppStore } from '../../src/renderer/src/store/app-store'

const neverCalled = (() => Promise.reject(new Error('no service in this test'))) as unknown as Call

function storeWithDraft() {
  const store = createAppStore({ call: neverCalled, schedule: () => () => {} })
  store.getState().openAgent('agent-a')
  store.getState().setUnsavedDraft({ agentId: 'agent-a', agentName: 'Front desk' })
  return store
}

describe('leaving an unsaved agent draft', () => {
  it('asks instead of changing screen, and stays when told to', () => {
    const store = storeWithDraft()
    store.getState().navigate('jobs')
    expect(store.getState().ui.screen).toBe('agents')
    expect(store.getState().ui.pendingLeave).toEqual({ screen: 'jobs' })
    store.getState().resolvePendingLeave('stay')
    expect(store.getState().ui).toMatchObject({
      screen: 'agents',
      openAgentId: 'agent-a',
      pendingLeave: null,
      unsavedDraft: { agentId: 'agent-a' },
    })
  })

  it('asks before opening another agent, then goes there once the draft is dropped or saved', () => {
    const store = storeWithDraft()
    store.getState().openAgent('agent-b')
    expect(store.getState().ui.openAgentId).toBe('agent-a')
    store.getState().resolvePendingLeave('leave')
    expect(store.getState().ui).toMatchObject({ screen: 'agents', openAgentId: 'agent-b', pendingLeave: null, unsavedDraft: null })
  })

  it('lets moves that keep the draft in view through: the agents screen, the same agent', () => {
    const store = storeWithDraft()
    store.getState().navigate('agents')
    store.getState().openAgent('agent-a')
    expect(store.getState().ui.pendingLeave).toBeNull()
  })

  it('never asks without an unsaved draft', () => {
    const store = storeWithDraft()
    store.getState().setUnsavedDraft(null)
    store.getState().navigate('settings')
    expect(store.getState().ui).toMatchObject({ screen: 'settings', pendingLeave: null })
  })
})
