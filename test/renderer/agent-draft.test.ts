import { describe, expect, it } from 'vitest'
import { diffAgentDraft, draftFromAgent, hasChanges } from '../../src/renderer/src/lib/agent-draft'
import { agentFixture } from './agent-fixture'

describe('the changed fields of an agent draft', () => {
  it('sends nothing for an untouched draft', () => {
    const agent = agentFixture()
    const diff = diffAgentDraft(agent, draftFromAgent(agent))
    expect(diff).toEqual({ changes: {}, problems: [] })
    expect(hasChanges(diff)).toBe(false)
  })

  it('sends only what changed, converted to what the service takes', () => {
    const agent = agentFixture()
    const draft = {
      ...draftFromAgent(agent),
      agentName: 'Reception',
      silenceThreshold: '9',
      voiceId: '23122556-e2c0-461a-8eb5-b59a2ab5727b',
      params: [
        { key: 'customer', value: 'Dana' },
        { key: 'agentName', value: 'Emma' },
        { key: '', value: '' },
      ],
      pokeMessages: ['Are you still there?', '  '],
      webhookUrl: ' https://example.com/hook ',
    }
    // Params in another order and blank rows are no change.
    expect(diffAgentDraft(agent, draft)).toEqual({
      changes: {
        agentName: 'Reception',
        silenceThreshold: 9,
        voiceId: '23122556-e2c0-461a-8eb5-b59a2ab5727b',
        webhookUrl: 'https://example.com/hook',
      },
      problems: [],
    })
  })

  it('compares the outcome shape as data, not as text, and clears it when emptied', () => {
    const agent = agentFixture()
    const reformatted = {
      ...draftFromAgent(agent),
      outcomeShapeText: '{"required":["resolved"],"properties":{"resolved":{"type":"boolean"}},"type":"object"}',
    }
    expect(diffAgentDraft(agent, reformatted).changes).toEqual({})
    expect(diffAgentDraft(agent, { ...reformatted, outcomeShapeText: '' }).changes).toEqual({ outcomeResponseShape: null })
  })

  it('reports local problems instead of sending them', () => {
    const agent = agentFixture()
    const draft = {
      ...draftFromAgent(agent),
      params: [
        { key: 'a', value: '1' },
        { key: 'a', value: '2' },
      ],
      silenceThreshold: '2.5',
      outcomeShapeText: '{"type":"text"}',
    }
    const diff = diffAgentDraft(agent, draft)
    expect(diff.problems.map((problem) => [problem.field, problem.problem])).toEqual([
      ['params', 'duplicateParam'],
      ['silenceThreshold', 'wholeSeconds'],
      ['outcomeResponseShape', 'invalidShape'],
    ])
    expect(diff.changes).toEqual({})
  })

  it('keeps, replaces or clears the webhook authorization (its secret is write-only)', () => {
    const agent = agentFixture({ webhookAuth: { authKey: 'Bearer', authSecret: '••••' } })
    const draft = draftFromAgent(agent)
    expect(draft.webhookAuthSecret).toBe('')
    expect(diffAgentDraft(agent, draft).changes).toEqual({})
    expect(diffAgentDraft(agent, { ...draft, webhookAuthSecret: 's3cret' }).changes).toEqual({
      webhookAuth: { authKey: 'Bearer', authSecret: 's3cret' },
    })
    expect(diffAgentDraft(agent, { ...draft, webhookAuthKey: '' }).changes).toEqual({ webhookAuth: null })
    expect(diffAgentDraft(agent, { ...draft, webhookAuthKey: 'Token' }).problems).toEqual([
      { field: 'webhookAuth', problem: 'secretNeeded' },
    ])
  })

  it("starts from the agent's saved tools, and sends them only when a switch changed", () => {
    const agent = agentFixture({ tools: { genderDetection: false, smartCallEnd: true } })
    const draft = draftFromAgent(agent)
    expect(draft.tools).toEqual({ genderDetection: false, smartCallEnd: true })
    expect(diffAgentDraft(agent, draft).changes).toEqual({})
    expect(diffAgentDraft(agent, { ...draft, tools: { genderDetection: true, smartCallEnd: true } }).changes).toEqual({
      tools: { genderDetection: true, smartCallEnd: true },
    })
    // After saving, the draft is made again from the saved agent: its switches are the new values, unchanged.
    const saved = agentFixture({ tools: { genderDetection: true, smartCallEnd: false } })
    expect(draftFromAgent(saved).tools).toEqual({ genderDetection: true, smartCallEnd: false })
    expect(diffAgentDraft(saved, draftFromAgent(saved)).changes).toEqual({})
  })
})
