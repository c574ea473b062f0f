// The smaller rooms of a call, each alone: the tool bridge (tools run in the page), the observer
// (what the operator UI is told) and the recording (both sides on one timeline). No network:
// the page and the observer are the functions these rooms are given.
import { describe, expect, it } from 'vitest'
import type { ToolCallRecord } from '../../src/shared/api/conversations'
import type { ServerFrame } from '../../src/shared/api/stream-frames'
import { parseWavPcm16Mono } from '../../src/engines/audio/wav-file'
import { CallObserver } from '../../src/conversations/call-observer'
import { CallRecording } from '../../src/conversations/call-recording'
import type { CallActivity, CallObservation } from '../../src/conversations/call-session-options'
import { ToolBridge } from '../../src/conversations/tool-bridge'

function bridge(timeoutMs = 200) {
  const sent: ServerFrame[] = []
  const observed: CallObservation[] = []
  const saved: ToolCallRecord[] = []
  const records: ToolCallRecord[] = []
  const tools = new ToolBridge({
    tools: [{ name: 'getWeather', description: 'The weather', parameters: { type: 'object' } }],
    records,
    timeoutMs,
    send: (frame) => sent.push(frame),
    observe: (observation) => observed.push(observation),
    saved: async (record) => saved.push(record),
    seconds: () => 1.5,
  })
  return { tools, sent, observed, saved, records }
}

describe('ToolBridge', () => {
  it('sends a tools frame, answers with the page’s response, and records and writes the call', async () => {
    const { tools, sent, saved, records } = bridge()
    const result = tools.call('getWeather', { city: 'Dubai' })
    expect(sent).toEqual([
      { event: 'tools', content: [{ id: 'call_1', type: 'function', function: { name: 'getWeather', arguments: '{"city":"Dubai"}' } }] },
    ])
    tools.answer('call_1', { degrees: 31 })
    expect(await result).toEqual({ ok: true, response: { degrees: 31 } })
    expect(records).toEqual([{ id: 'call_1', name: 'getWeather', arguments: { city: 'Dubai' }, at: 1.5, response: { degrees: 31 } }])
    expect(saved).toEqual(records)
  })

  it('refuses a tool the page did not offer, times out a page that never answers, ignores answers for no call, and ends waiting calls at the end', async () => {
    const { tools, sent, records } = bridge(100)
    expect(await tools.call('launchRocket', {})).toEqual({ ok: false, error: 'The page offered no tool named launchRocket' })
    expect(sent).toEqual([])
    tools.answer('call_99', 'nobody asked')
    expect(await tools.call('getWeather', {})).toEqual({ ok: false, error: 'The page did not answer within 100 ms' })
    const waiting = tools.call('getWeather', { city: 'Amman' })
    tools.close()
    expect(await waiting).toEqual({ ok: false, error: 'The call has ended' })
    expect(await tools.call('getWeather', {})).toEqual({ ok: false, error: 'The call has ended' })
    expect(records.map((record) => record.error)).toEqual(['The page did not answer within 100 ms', 'The call has ended'])
  })

  it('keeps many calls at once apart: fifty tools in flight, answered in reverse order, each gets its own answer', async () => {
    const { tools } = bridge(5_000)
    const calls = Array.from({ length: 50 }, (_, index) => tools.call('getWeather', { index }))
    for (let index = 50; index >= 1; index -= 1) tools.answer(`call_${index}`, { index: index - 1 })
    const results = await Promise.all(calls)
    results.forEach((result, index) => expect(result).toEqual({ ok: true, response: { index } }))
  })
})

describe('CallObserver', () => {
  it('tells the activity only when it changed, the outcome only when it changed after the first look, and survives an observer that throws', () => {
    const observed: CallObservation[] = []
    const errors: string[] = []
    let activity: CallActivity | undefined = 'listening'
    let outcome: { result: unknown; complete: boolean } = { result: {}, complete: false }
    let throwing = false
    const observer = new CallObserver({
      transport: {
        observe: (observation) => {
          if (throwing) throw new Error('the panel went away')
          observed.push(observation)
        },
      },
      dialogue: { outcomeSoFar: () => outcome },
      agent: { outcomeResponseShape: { type: 'object', properties: {} } },
      activity: () => activity,
      onError: (_, context) => errors.push(context),
    })
    observer.checkActivity()
    observer.checkActivity()
    activity = 'speaking'
    observer.checkActivity()
    observer.checkOutcome()
    outcome = { result: { guests: 4 }, complete: false }
    observer.checkOutcome()
    observer.checkOutcome()
    activity = undefined
    observer.checkActivity()
    expect(observed).toEqual([
      { type: 'activity', activity: 'listening' },
      { type: 'activity', activity: 'speaking' },
      { type: 'outcome', result: { guests: 4 }, complete: false, final: false },
    ])
    throwing = true
    observer.observe({ type: 'barge-in', at: 1 })
    expect(errors).toEqual(['an observer of the call failed'])
  })

  it('costs nothing for the SDK’s socket, which observes nothing', () => {
    const observer = new CallObserver({
      transport: {},
      dialogue: {},
      agent: { outcomeResponseShape: null },
      activity: () => 'listening',
      onError: () => {},
    })
    expect(observer.enabled).toBe(false)
    observer.checkActivity()
    observer.observe({ type: 'barge-in', at: 1 })
  })
})

describe('CallRecording', () => {
  it('is exactly the call’s length: agent audio queued past the end is cut, a quiet end is padded', () => {
    const recording = new CallRecording()
    recording.addAgent(new Int16Array(16_000).fill(1_000), 1_500)
    expect(parseWavPcm16Mono(recording.toWav(2, [])).samples.length).toBe(32_000)
    expect(parseWavPcm16Mono(recording.toWav(4, [])).samples.length).toBe(64_000)
  })

  it('places the caller’s audio by their clock’s segments and mixes it with the agent’s, clipped', () => {
    const recording = new CallRecording()
    recording.addCaller(new Float32Array(1_600).fill(0.5))
    recording.addCaller(new Float32Array(1_600).fill(-0.25))
    recording.addAgent(new Int16Array(800).fill(30_000), 100)
    const { samples } = parseWavPcm16Mono(
      recording.toWav(1, [
        { fromSample: 0, atMs: 50 },
        { fromSample: 1_600, atMs: 500 },
      ]),
    )
    expect(samples[799]).toBe(0)
    expect(samples[800]).toBe(Math.round(0.5 * 32_767))
    // Agent and caller together: clipped, not wrapped.
    expect(samples[1_600]).toBe(32_767)
    expect(samples[8_000]).toBe(Math.round(-0.25 * 32_767))
    expect(samples[8_000 + 1_600]).toBe(0)
  })
})
