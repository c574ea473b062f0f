import { describe, expect, it } from 'vitest'
import { agentChanges, CONTEXT_LINES, lineRuns, versionOrigin } from '../../src/renderer/src/lib/agent-version-diff'
import { agentFixture } from './agent-fixture'

describe('where a version came from', () => {
  it('reads every source the service writes', () => {
    for (const kind of ['create', 'update', 'ui', 'import', 'migration'] as const) expect(versionOrigin(kind)).toEqual({ kind })
    expect(versionOrigin('clone:0b6f3f9e-5a43-4c1e-9d55-0f2b1f7d9a01')).toEqual({
      kind: 'clone',
      sourceId: '0b6f3f9e-5a43-4c1e-9d55-0f2b1f7d9a01',
    })
    expect(versionOrigin('restore:12')).toEqual({ kind: 'restore', version: 12 })
  })

  it('shows a source it does not know as written, never guessing', () => {
    for (const source of ['', 'clone:', 'restore:', 'restore:0', 'restore:01', 'restore:x', 'Create', 'update ', 'sync:3'])
      expect(versionOrigin(source)).toEqual({ kind: 'other', source })
  })
})

describe('a text compared line by line', () => {
  it('names the removed and the added line, keeping the others', () => {
    expect(lineRuns('Hello.\nHow can I help?', 'Hi there.\nHow can I help?')).toEqual([
      { change: 'removed', lines: ['Hello.'] },
      { change: 'added', lines: ['Hi there.'] },
      { change: 'same', lines: ['How can I help?'] },
    ])
  })

  it('treats an empty text as no lines and a missing last newline as no change', () => {
    expect(lineRuns('', 'Hi')).toEqual([{ change: 'added', lines: ['Hi'] }])
    expect(lineRuns('Hi', '')).toEqual([{ change: 'removed', lines: ['Hi'] }])
    expect(lineRuns('a\nb', 'a\nb\n')).toEqual([{ change: 'same', lines: ['a', 'b'] }])
  })

  it('folds long unchanged stretches, keeping the lines beside each change', () => {
    const lines = Array.from({ length: 40 }, (_, index) => `line ${index + 1}`)
    const changed = lines.map((line, index) => (index === 19 ? 'line twenty' : line))
    const runs = lineRuns(lines.join('\n'), changed.join('\n'))
    expect(runs).toEqual([
      { change: 'folded', count: 19 - CONTEXT_LINES },
      { change: 'same', lines: ['line 18', 'line 19'] },
      { change: 'removed', lines: ['line 20'] },
      { change: 'added', lines: ['line twenty'] },
      { change: 'same', lines: ['line 21', 'line 22'] },
      { change: 'folded', count: 20 - CONTEXT_LINES },
    ])
  })

  it('keeps a short unchanged stretch whole rather than folding one line', () => {
    const runs = lineRuns('a\nb\nc\nd\ne\nf\ng', 'A\nb\nc\nd\ne\nf\nG')
    expect(runs.find((run) => run.change === 'folded')).toBeUndefined()
    expect(runs).toContainEqual({ change: 'same', lines: ['b', 'c', 'd', 'e', 'f'] })
  })
})

describe('a version against the agent now', () => {
  it('is empty for the same agent, even with the shape’s keys in another order', () => {
    const agent = agentFixture()
    const reordered = agentFixture({
      outcomeResponseShape: { required: ['resolved'], properties: { resolved: { type: 'boolean' } }, type: 'object' },
      params: { customer: 'Dana', agentName: 'Emma' },
    })
    expect(agentChanges(agent, reordered)).toEqual([])
  })

  it('says each changed field: texts as line runs, settings as old and new', () => {
    const before = agentFixture()
    const after = agentFixture({
      greetingMessage: 'Good morning {{customer}}.',
      silenceThreshold: 9,
      interrupt: false,
      voiceRecord: { id: '1f7b1c3e-0000-4c1e-9d55-0f2b1f7d9a09', name: 'Noah', lang: 'en', gender: 'male' },
      webhookUrl: 'https://example.com/hook',
      webhookAuth: { authKey: 'X-Token', authSecret: '••••' },
      outcomeResponseShape: null,
      pokeMessages: ['Are you still there?', 'Hello?'],
    })
    const changes = agentChanges(before, after)
    expect(changes.map((change) => change.field)).toEqual([
      'greetingMessage',
      'outcomeResponseShape',
      'pokeMessages',
      'voice',
      'silenceThreshold',
      'interrupt',
      'webhookUrl',
      'webhookAuthKey',
    ])
    expect(changes[0]).toEqual({
      field: 'greetingMessage',
      kind: 'text',
      runs: [
        { change: 'removed', lines: ['Hello {{customer}}, this is {{agentName}}.'] },
        { change: 'added', lines: ['Good morning {{customer}}.'] },
      ],
    })
    expect(changes).toContainEqual({ field: 'voice', kind: 'value', before: 'Ava', after: 'Noah' })
    expect(changes).toContainEqual({ field: 'interrupt', kind: 'value', before: true, after: false })
    expect(changes).toContainEqual({ field: 'webhookUrl', kind: 'value', before: null, after: 'https://example.com/hook' })
    const shape = changes.find((change) => change.field === 'outcomeResponseShape')
    expect(shape?.kind === 'text' && shape.runs.every((run) => run.change === 'removed')).toBe(true)
  })

  it('compares params as sorted lines, so a changed value is one line', () => {
    const changes = agentChanges(agentFixture(), agentFixture({ params: { customer: 'Sam', agentName: 'Emma' } }))
    expect(changes).toEqual([
      {
        field: 'params',
        kind: 'text',
        runs: [
          { change: 'same', lines: ['agentName = Emma'] },
          { change: 'removed', lines: ['customer = Dana'] },
          { change: 'added', lines: ['customer = Sam'] },
        ],
      },
    ])
  })
})
