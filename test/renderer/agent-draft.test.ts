import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { translate, type MessageKey } from '../../src/renderer/src/i18n/dictionary'
import { diffAgentDraft, draftFromAgent, hasChanges } from '../../src/renderer/src/lib/agent-draft'
import { fieldErrorsOf } from '../../src/renderer/src/lib/field-errors'
import { validationDetails } from '../../src/service/ops/validation-details'
import { AGENT_LIMITS } from '../../src/shared/api/voice-agents'
import { IPC_OPERATIONS } from '../../src/shared/ipc/operations'
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

  it('checks the turn-taking numbers against the API’s own bounds: the bounds pass, one past them does not', () => {
    const agent = agentFixture({ endOfTurnSilenceMs: 600, maxCallerTurnSeconds: 15 })
    const draft = draftFromAgent(agent)
    expect([draft.endOfTurnSilenceMs, draft.maxCallerTurnSeconds]).toEqual(['600', '15'])
    const diffOf = (endOfTurnSilenceMs: string, maxCallerTurnSeconds: string) =>
      diffAgentDraft(agent, { ...draft, endOfTurnSilenceMs, maxCallerTurnSeconds })
    expect(diffOf(' 200 ', '120')).toEqual({ changes: { endOfTurnSilenceMs: 200, maxCallerTurnSeconds: 120 }, problems: [] })
    expect(diffOf('5000', '5')).toEqual({ changes: { endOfTurnSilenceMs: 5000, maxCallerTurnSeconds: 5 }, problems: [] })
    expect(diffOf('199', '121')).toEqual({
      changes: {},
      problems: [
        { field: 'endOfTurnSilenceMs', problem: 'atLeast', n: AGENT_LIMITS.endOfTurnSilenceMsMin },
        { field: 'maxCallerTurnSeconds', problem: 'atMost', n: AGENT_LIMITS.maxCallerTurnSecondsMax },
      ],
    })
    expect(diffOf('5001', '4').problems.map((problem) => [problem.problem, problem.n])).toEqual([
      ['atMost', 5000],
      ['atLeast', 5],
    ])
    // Not a whole number (a browser's number field may still hold these): never sent.
    for (const typed of ['', '600.5', '6e2', 'abc', '-']) {
      const diff = diffOf(typed, '15')
      expect(diff.problems, typed).toEqual([{ field: 'endOfTurnSilenceMs', problem: 'wholeNumber' }])
      expect(diff.changes, typed).toEqual({})
    }
  })

  it('says a turn-taking number out of range in the very words of the API’s refusal, in both languages', () => {
    const agent = agentFixture()
    const input = { id: agent.id, changes: { endOfTurnSilenceMs: 100, maxCallerTurnSeconds: 500 } }
    const parsed = (IPC_OPERATIONS['agents.update'].input as z.ZodType).safeParse(input)
    if (parsed.success) throw new Error('the API took an out-of-range turn-taking value')
    const problems = diffAgentDraft(agent, { ...draftFromAgent(agent), endOfTurnSilenceMs: '100', maxCallerTurnSeconds: '500' }).problems
    const keyOf = { atLeast: 'errors.atLeast', atMost: 'errors.atMost' } as Record<string, MessageKey>
    for (const locale of ['en', 'ar'] as const) {
      const apiSays = fieldErrorsOf(validationDetails(parsed.error.issues, 'input'), locale)
      const editorSays = Object.fromEntries(
        problems.map((problem) => [problem.field, [translate(locale, keyOf[problem.problem] ?? 'errors.invalid', { n: problem.n ?? '' })]]),
      )
      const read = (texts: Record<string, string[]>) =>
        Object.fromEntries(Object.entries(texts).map(([field, messages]) => [field, messages.map((m) => m.replace(/[\u2066\u2069]/g, ''))]))
      expect(read(editorSays)).toEqual(read(apiSays))
    }
  })
})
