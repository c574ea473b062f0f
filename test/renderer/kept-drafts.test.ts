import { describe, expect, it } from 'vitest'
import { draftFromAgent } from '../../src/renderer/src/lib/agent-draft'
import { draftStorageKeyOf, forgetDraft, keepDraft, keptDraftToOffer, type DraftStorage } from '../../src/renderer/src/lib/draft-storage'
import { agentFixture } from './agent-fixture'

/** localStorage as a map; `refuse` makes every call throw, as a browser with storage turned off does. */
function mapStorage(refuse = false): DraftStorage & { values: Map<string, string> } {
  const values = new Map<string, string>()
  const check = () => {
    if (refuse) throw new Error('SecurityError: storage is disabled')
  }
  return {
    values,
    getItem: (key) => (check(), values.get(key) ?? null),
    setItem: (key, value) => (check(), void values.set(key, value)),
    removeItem: (key) => (check(), void values.delete(key)),
  }
}

describe('unsaved agent drafts kept in the page’s storage', () => {
  it('offers back a kept draft that differs from the saved agent, as it was edited', () => {
    const agent = agentFixture()
    const storage = mapStorage()
    const edited = {
      ...draftFromAgent(agent),
      preamble: 'You are Emma, and you speak slowly.',
      params: [{ key: 'customer', value: 'Lina' }],
    }
    keepDraft(storage, agent.id, edited)
    expect(keptDraftToOffer(storage, agent)).toEqual(edited)
  })

  it('never writes the webhook secret, and offers the draft back without it', () => {
    const agent = agentFixture({ webhookUrl: 'https://example.com/hook', webhookAuth: { authKey: 'Bearer', authSecret: '••••' } })
    const storage = mapStorage()
    keepDraft(storage, agent.id, { ...draftFromAgent(agent), outcome: 'Changed', webhookAuthSecret: 'sk-very-secret-value' })
    const stored = storage.values.get(draftStorageKeyOf(agent.id))!
    expect(stored).not.toContain('sk-very-secret-value')
    expect(stored).not.toContain('webhookAuthSecret')
    expect(keptDraftToOffer(storage, agent)).toMatchObject({ outcome: 'Changed', webhookAuthSecret: '' })
  })

  it('offers a draft kept before the turn-taking fields with the agent’s saved values for them', () => {
    const agent = agentFixture({ endOfTurnSilenceMs: 900, maxCallerTurnSeconds: 30 })
    const storage = mapStorage()
    const {
      endOfTurnSilenceMs: _ms,
      maxCallerTurnSeconds: _s,
      webhookAuthSecret: _secret,
      ...older
    } = {
      ...draftFromAgent(agent),
      outcome: 'Changed before the update',
    }
    storage.setItem(draftStorageKeyOf(agent.id), JSON.stringify(older))
    expect(keptDraftToOffer(storage, agent)).toMatchObject({
      outcome: 'Changed before the update',
      endOfTurnSilenceMs: '900',
      maxCallerTurnSeconds: '30',
    })
  })

  it('does not offer a draft equal to the saved agent, and drops it', () => {
    const agent = agentFixture()
    const storage = mapStorage()
    keepDraft(storage, agent.id, draftFromAgent(agent))
    expect(keptDraftToOffer(storage, agent)).toBeNull()
    expect(storage.values.size).toBe(0)
  })

  it('keeps drafts per agent: another agent’s draft is not offered, and forgetting one leaves the other', () => {
    const first = agentFixture()
    const second = agentFixture({ id: '0b6f3f9e-5a43-4c1e-9d55-0f2b1f7d9a99', agentName: 'Night desk' })
    const storage = mapStorage()
    keepDraft(storage, first.id, { ...draftFromAgent(first), agentName: 'Front desk, renamed' })
    expect(keptDraftToOffer(storage, second)).toBeNull()
    keepDraft(storage, second.id, { ...draftFromAgent(second), agentName: 'Night desk, renamed' })
    forgetDraft(storage, first.id)
    expect(keptDraftToOffer(storage, first)).toBeNull()
    expect(keptDraftToOffer(storage, second)?.agentName).toBe('Night desk, renamed')
  })

  it('ignores and drops what is not a draft: not JSON, another shape, wrong types', () => {
    const agent = agentFixture()
    const storage = mapStorage()
    for (const junk of [
      '{not json',
      'null',
      '[]',
      JSON.stringify({ agentName: 'x' }),
      JSON.stringify({ ...draftFromAgent(agent), agentName: 'y', interrupt: 'yes' }),
    ]) {
      storage.values.set(draftStorageKeyOf(agent.id), junk)
      expect(keptDraftToOffer(storage, agent)).toBeNull()
      expect(storage.values.has(draftStorageKeyOf(agent.id))).toBe(false)
    }
  })

  it('a storage the browser refuses loses nothing but the kept copy: no throw', () => {
    const agent = agentFixture()
    const storage = mapStorage(true)
    expect(() => keepDraft(storage, agent.id, { ...draftFromAgent(agent), agentName: 'Renamed' })).not.toThrow()
    expect(() => forgetDraft(storage, agent.id)).not.toThrow()
    expect(keptDraftToOffer(storage, agent)).toBeNull()
  })

  it('many agents at once: each draft comes back as its own', () => {
    const storage = mapStorage()
    const agents = Array.from({ length: 200 }, (_, index) => agentFixture({ id: `agent-${index}`, agentName: `Agent ${index}` }))
    for (const agent of agents) keepDraft(storage, agent.id, { ...draftFromAgent(agent), greetingMessage: `Hello from ${agent.agentName}` })
    for (const agent of agents) expect(keptDraftToOffer(storage, agent)?.greetingMessage).toBe(`Hello from ${agent.agentName}`)
  })
})
