// The Test call panel's logic without a browser: the live state folded from the service's frames
// (validated by the contract's own schema first, as the carriers deliver them), the setup kept per
// agent, the stub answers, and the audio frames' PCM16 encoding.
import { describe, expect, it } from 'vitest'
import { TestCallInputSchema, TestCallServerFrameSchema, type TestCallServerFrame } from '../../src/shared/ipc/streams'
import { floatToPcm16Base64, pcm16Base64ToFloat } from '../../src/renderer/src/features/test-call/pcm16-base64'
import {
  EXAMPLE_TOOL,
  initialParams,
  loadToolDrafts,
  saveToolDrafts,
  storageKeyOf,
  stubAnswerFor,
  toolProblems,
  toolsForCall,
  type ToolDraft,
} from '../../src/renderer/src/features/test-call/test-call-setup'
import {
  applyServerFrame,
  applyStreamClosed,
  CONNECTING,
  formatCallTime,
  markToolAnswered,
  outcomeFields,
  type LiveCallState,
} from '../../src/renderer/src/features/test-call/test-call-state'

const JOB = '0b7c6a53-6c55-4f1e-9d7e-3c2f7b9a1e10'
const SHAPE = {
  type: 'object',
  properties: { name: { type: 'string', description: 'Who called' }, guests: { type: 'integer' }, notes: { type: 'string' } },
  required: ['name', 'guests'],
}

/** Frames as a carrier delivers them: parsed by the contract's schema. */
function fold(frames: unknown[], from: LiveCallState = CONNECTING): LiveCallState {
  return frames
    .map((frame) => TestCallServerFrameSchema.parse(frame))
    .reduce<LiveCallState>((state, frame: TestCallServerFrame) => applyServerFrame(state, frame), from)
}

const started = {
  type: 'started',
  jobId: JOB,
  agentName: 'Olive Grove',
  dialogueEngine: 'offline',
  speechRecognition: { enabled: false, engine: null, model: null },
  outcomeShape: SHAPE,
}

describe('the live call state', () => {
  it('follows a call from started to ended: activity, the sentence said, turns with their marks, outcome, end', () => {
    const state = fold([
      started,
      { type: 'activity', activity: 'speaking' },
      { type: 'agent-text', content: 'Hello, welcome.' },
      { type: 'audio', pcm16: 'AAA=' },
      { type: 'mark', name: 'm1' },
      { type: 'turn', turn: { role: 'agent', content: 'Hello, welcome.', startTime: 0, endTime: 1.2 } },
      { type: 'activity', activity: 'listening' },
      { type: 'turn', turn: { role: 'caller', content: 'My name is Sara', startTime: 2, endTime: 2, kind: 'typed' } },
      { type: 'outcome', result: { name: 'Sara' }, complete: false, final: false },
      { type: 'barge-in', at: 3.5 },
      { type: 'turn', turn: { role: 'caller', content: '', startTime: 3.5, endTime: 4, unrecognised: true } },
      { type: 'info', code: 'STT_ENGINE_NOT_CONFIGURED', message: 'Speech recognition is off' },
      { type: 'outcome', result: { name: 'Sara', guests: 4 }, complete: true, final: true },
      { type: 'outcome', result: { name: 'late partial' }, complete: false, final: false },
      { type: 'ended', jobId: JOB, status: 'COMPLETED', endReason: 'smart-end', duration: 9.4 },
    ])
    expect(state.phase).toBe('ended')
    expect(state.jobId).toBe(JOB)
    expect(state.activity).toBeNull()
    expect(state.saying).toBeNull()
    expect(
      state.transcript.map((entry) =>
        entry.kind === 'turn' ? `${entry.turn.role}:${entry.turn.kind ?? ''}:${entry.turn.unrecognised ?? false}` : `barge-in@${entry.at}`,
      ),
    ).toEqual(['agent::false', 'caller:typed:false', 'barge-in@3.5', 'caller::true'])
    // A final outcome is not replaced by a partial that arrives after it.
    expect(state.outcome).toEqual({ result: { name: 'Sara', guests: 4 }, complete: true, final: true })
    expect(state.notices).toEqual([{ code: 'STT_ENGINE_NOT_CONFIGURED', message: 'Speech recognition is off' }])
    expect(state.end).toEqual({ status: 'COMPLETED', endReason: 'smart-end', duration: 9.4 })
  })

  it('orders the transcript by time: a barge-in comes before the interrupted turn is written, and shows after its start', () => {
    const state = fold([
      started,
      { type: 'turn', turn: { role: 'agent', content: 'Hello.', startTime: 0, endTime: 1 } },
      { type: 'barge-in', at: 2.5 },
      { type: 'turn', turn: { role: 'agent', content: 'May I have your name?', startTime: 1.5, endTime: 2.5, interrupted: true } },
      { type: 'turn', turn: { role: 'caller', content: 'Sara', startTime: 2.5, endTime: 3 } },
    ])
    expect(state.transcript.map((entry) => (entry.kind === 'turn' ? entry.turn.content : 'barge-in'))).toEqual([
      'Hello.',
      'May I have your name?',
      'barge-in',
      'Sara',
    ])
  })

  it('shows the sentence being said until the agent listens again, and drops it on a barge-in', () => {
    const speaking = fold([started, { type: 'activity', activity: 'speaking' }, { type: 'agent-text', content: 'One moment.' }])
    expect(speaking.saying).toBe('One moment.')
    expect(fold([{ type: 'activity', activity: 'listening' }], speaking).saying).toBeNull()
    expect(fold([{ type: 'barge-in', at: 1 }], speaking).saying).toBeNull()
    expect(fold([{ type: 'poke', at: 8, content: 'Are you there?' }], speaking).saying).toBe('Are you there?')
  })

  it('keeps a tool call with its arguments, the stub answered and the service record', () => {
    const called = fold([started, { type: 'tool-call', id: 't1', name: 'check_availability', arguments: { date: '2026-12-01' }, at: 4 }])
    const answered = markToolAnswered(called, 't1', { available: true })
    const done = fold(
      [
        {
          type: 'tool-result',
          call: { id: 't1', name: 'check_availability', arguments: { date: '2026-12-01' }, response: { available: true }, at: 4 },
        },
      ],
      answered,
    )
    expect(done.toolCalls).toEqual([
      {
        id: 't1',
        name: 'check_availability',
        arguments: { date: '2026-12-01' },
        at: 4,
        answered: { available: true },
        record: { id: 't1', name: 'check_availability', arguments: { date: '2026-12-01' }, response: { available: true }, at: 4 },
      },
    ])
    // A result for a call the panel never saw (it came before the panel listened) is listed too.
    expect(
      fold([{ type: 'tool-result', call: { id: 't9', name: 'x', arguments: {}, error: 'timed out', at: 1 } }], done).toolCalls.at(-1),
    ).toMatchObject({
      id: 't9',
      record: { error: 'timed out' },
    })
  })

  it('fails a refused call with its error, and a call whose stream closed before it ended', () => {
    const refused = fold([{ type: 'refused', error: { code: 'NOT_FOUND', message: 'No such agent', details: [] } }])
    expect(refused).toMatchObject({ phase: 'failed', failure: { code: 'NOT_FOUND' } })
    expect(applyStreamClosed(refused, null)).toBe(refused)
    const broken = applyStreamClosed(fold([started]), { code: 'INTERNAL', message: 'The service went away', details: [] })
    expect(broken).toMatchObject({ phase: 'failed', failure: { message: 'The service went away' } })
    const ended = fold([started, { type: 'ended', jobId: JOB, status: 'COMPLETED', endReason: 'caller-hangup', duration: 2 }])
    expect(applyStreamClosed(ended, null)).toBe(ended)
    expect(applyStreamClosed(fold([started]), null).failure?.code).toBe('INTERNAL')
  })

  it('lists the outcome fields of an object shape, required ones marked, filled as values arrive', () => {
    expect(outcomeFields(SHAPE, { name: 'Sara', guests: null })).toEqual([
      { name: 'name', required: true, description: 'Who called', filled: true, value: 'Sara' },
      { name: 'guests', required: true, description: null, filled: false, value: null },
      { name: 'notes', required: false, description: null, filled: false, value: undefined },
    ])
    expect(outcomeFields({ type: 'string' }, 'x')).toBeNull()
    expect(outcomeFields(null, null)).toBeNull()
    expect(outcomeFields(SHAPE, ['not', 'an', 'object'])?.every((field) => !field.filled)).toBe(true)
  })
})

describe('the call setup', () => {
  const memory = () => {
    const items = new Map<string, string>()
    return { items, getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) }
  }

  it('keeps tools and stubs per agent, and reads nothing from what it cannot understand', () => {
    const storage = memory()
    const tools: ToolDraft[] = [{ ...EXAMPLE_TOOL, stubText: '{"available": false}' }]
    saveToolDrafts(storage, 'agent-1', tools)
    expect(loadToolDrafts(storage, 'agent-1')).toEqual(tools)
    expect(loadToolDrafts(storage, 'agent-2')).toEqual([])
    storage.setItem(storageKeyOf('agent-3'), '{not json')
    expect(loadToolDrafts(storage, 'agent-3')).toEqual([])
    storage.setItem(storageKeyOf('agent-4'), JSON.stringify([{ name: 'x' }, tools[0]]))
    expect(loadToolDrafts(storage, 'agent-4')).toEqual(tools)
    // A storage that refuses (full, private mode) loses only the fixtures.
    expect(() =>
      saveToolDrafts(
        {
          getItem: () => null,
          setItem: () => {
            throw new Error('QuotaExceededError')
          },
        },
        'a',
        tools,
      ),
    ).not.toThrow()
  })

  it('names what keeps a tool from being offered, and builds tools the contract accepts', () => {
    const good: ToolDraft = {
      name: 'book_table',
      description: ' Books a table ',
      parametersText: '{"type":"object"}',
      stubText: '{"ok":true}',
    }
    expect(toolProblems(good, [good])).toEqual([])
    expect(toolProblems({ ...good, name: 'has space' }, [])).toEqual(['badName'])
    expect(toolProblems(good, [good, good])).toEqual(['duplicateName'])
    expect(toolProblems({ ...good, parametersText: '{' }, [])).toEqual(['parametersNotJson'])
    expect(toolProblems({ ...good, parametersText: '[1]' }, [])).toEqual(['parametersNotObject'])
    expect(toolProblems({ ...good, stubText: 'yes' }, [])).toEqual(['stubNotJson'])
    const tools = toolsForCall([good, { ...good, name: 'bare', description: '', parametersText: '' }])
    expect(tools).toEqual([{ name: 'book_table', description: 'Books a table', parameters: { type: 'object' } }, { name: 'bare' }])
    expect(TestCallInputSchema.parse({ agentId: 'a', tools }).tools).toEqual(tools)
  })

  it('answers a tool call with the stub as it is at that moment', () => {
    const tools: ToolDraft[] = [{ ...EXAMPLE_TOOL, stubText: '{"available": true}' }]
    expect(stubAnswerFor(tools, EXAMPLE_TOOL.name)).toEqual({ available: true })
    expect(stubAnswerFor([{ ...tools[0]!, stubText: 'not json' }], EXAMPLE_TOOL.name)).toBe('not json')
    expect(stubAnswerFor(tools, 'unknown')).toEqual({ error: 'No stub is set for unknown' })
  })

  it('starts the params from every placeholder and param the agent has, with its values', () => {
    expect(
      initialParams({
        greetingMessage: 'Hi {{name}}',
        preamble: 'You book for {{ venue }} on {{date}}',
        params: { name: 'guest', date: '', extra: 'x' },
      }),
    ).toEqual({
      name: 'guest',
      venue: '',
      date: '',
      extra: 'x',
    })
  })
})

describe('audio frames and times', () => {
  it('encodes samples as base64 PCM16 LE and back, clipped to the range', () => {
    const samples = new Float32Array([0, 0.5, -0.5, 1, -1, 2, -2])
    const encoded = floatToPcm16Base64(samples)
    expect(Buffer.from(encoded, 'base64').length).toBe(14)
    expect(Buffer.from(encoded, 'base64').readInt16LE(6)).toBe(32_767)
    expect(Buffer.from(encoded, 'base64').readInt16LE(8)).toBe(-32_768)
    const decoded = [...pcm16Base64ToFloat(encoded)]
    expect(decoded.map((value) => Math.round(value * 1000) / 1000)).toEqual([0, 0.5, -0.5, 1, -1, 1, -1])
    // A 20 ms frame at 16 kHz fits the contract's frame size many times over.
    expect(floatToPcm16Base64(new Float32Array(320)).length).toBe(856)
  })

  it('writes call times as m:ss.s', () => {
    expect(formatCallTime(0)).toBe('0:00.0')
    expect(formatCallTime(5.25)).toBe('0:05.3')
    expect(formatCallTime(65.04)).toBe('1:05.0')
    expect(formatCallTime(-1)).toBe('0:00.0')
  })
})
