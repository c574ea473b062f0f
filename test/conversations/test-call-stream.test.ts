import type { Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createBrowserBridge, type BrowserBridge, type WebSocketLike } from '../../src/renderer/src/api/browser-bridge'
import { ConversationStateSchema } from '../../src/shared/api/conversations'
import type { OutcomeShape } from '../../src/shared/api/outcome-shape'
import {
  BROWSER_STREAMS,
  TEST_CALL_SAMPLE_RATE,
  TestCallServerFrameSchema,
  type IpcStreamClose,
  type IpcStreamHandle,
  type TestCallServerFrame,
} from '../../src/shared/ipc/streams'
import { startTestService, type TestService } from '../helpers/test-service'
import { startWeatherModelDouble } from '../helpers/weather-model-double'
import { FrameWaiters } from '../helpers/frame-waiters'
import { onPostgres } from '../helpers/test-engine'

/*
 * The operator UI's test call (`calls.test`) end to end in browser mode: a real service on
 * 127.0.0.1 with a real database (SQLite, or PostgreSQL in the postgres project), and the
 * renderer's own browser bridge opening the stream over a real WebSocket (the `ws` package in
 * Node standing for the browser's). Its voice is the project's own TTS. A chat-model server is
 * outside this machine in real use: the one test that needs one uses a loopback double and says so.
 */

const handles: IpcStreamHandle<'calls.test'>[] = []
const servers: Server[] = []
afterEach(async () => {
  for (const handle of handles.splice(0)) handle.close()
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

interface Panel {
  service: TestService
  baseUrl: string
  bridge: BrowserBridge
}

const nodeWebSocket = (url: string) => new WebSocket(url) as unknown as WebSocketLike

async function startPanel(): Promise<Panel> {
  const service = await startTestService({ port: 0 })
  const baseUrl = (await service.runtime.start()).replace('localhost', '127.0.0.1')
  const bridge = createBrowserBridge({ token: service.runtime.uiToken, baseUrl, createWebSocket: nodeWebSocket })
  return { service, baseUrl, bridge }
}

async function data<T>(result: Promise<{ ok: true; data: T } | { ok: false; error: unknown }>): Promise<T> {
  const answer = await result
  if (!answer.ok) throw new Error(`Operation refused: ${JSON.stringify(answer.error)}`)
  return answer.data
}

const SMALL_SHAPE: OutcomeShape = {
  type: 'object',
  properties: {
    customerName: { type: 'string', description: 'The name of the caller' },
    guests: { type: 'integer', description: 'How many people are coming' },
  },
  required: ['customerName', 'guests'],
}

async function createAgent(panel: Panel, changes: Record<string, unknown> = {}): Promise<string> {
  const agent = await data(
    panel.bridge.operations['agents.create']({
      agentName: 'Panel Booker',
      lang: 'en',
      greetingMessage: 'Hello, this is Olive Grove.',
      outcomeResponseShape: SMALL_SHAPE,
      ...changes,
    } as never),
  )
  return agent.id
}

interface Received {
  frame: TestCallServerFrame
  at: number
}

/** The panel's side of a stream: every frame with when it came, marks echoed as played (when asked), and the close. */
class PanelCall {
  readonly frames: Received[] = []
  readonly closed: Promise<IpcStreamClose>
  /** When each mark was echoed (Date.now). */
  readonly playedAt = new Map<string, number>()
  private readonly waiters = new FrameWaiters()
  private playbackEnd = 0

  constructor(
    readonly handle: IpcStreamHandle<'calls.test'>,
    echoMarks = true,
  ) {
    handles.push(handle)
    handle.onFrame((frame) => {
      const now = Date.now()
      this.frames.push({ frame, at: now })
      // Playback as the panel does it: audio plays in order as it comes, a mark is echoed once what came before it has played.
      if (frame.type === 'audio')
        this.playbackEnd = Math.max(this.playbackEnd, now) + (Buffer.from(frame.pcm16, 'base64').length / 2 / TEST_CALL_SAMPLE_RATE) * 1000
      if (frame.type === 'clear') this.playbackEnd = now
      if (echoMarks && frame.type === 'mark') {
        const timer = setTimeout(
          () => {
            this.playedAt.set(frame.name, Date.now())
            handle.send({ type: 'played', mark: frame.name })
          },
          Math.max(0, this.playbackEnd - now),
        )
        timer.unref()
      }
      this.waiters.check()
    })
    this.closed = new Promise((resolve) => handle.onClose(resolve))
  }

  of<T extends TestCallServerFrame['type']>(type: T): Extract<TestCallServerFrame, { type: T }>[] {
    return this.frames
      .map((received) => received.frame)
      .filter((frame): frame is Extract<TestCallServerFrame, { type: T }> => frame.type === type)
  }

  waitFor<T>(predicate: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
    return this.waiters.waitFor(
      predicate,
      timeoutMs,
      () => `Timed out waiting for ${what}; frames: ${this.frames.map((received) => received.frame.type).join(', ')}`,
    )
  }

  /** Resolves with the nth frame of a type (1-based). */
  nth<T extends TestCallServerFrame['type']>(type: T, n: number, timeoutMs?: number): Promise<Extract<TestCallServerFrame, { type: T }>> {
    return this.waitFor(() => this.of(type)[n - 1], `${type} #${n}`, timeoutMs)
  }

  /** The agent's written turns so far. */
  agentTurns(): number {
    return this.of('turn').filter((frame) => frame.turn.role === 'agent').length
  }
}

function open(panel: Panel, input: Parameters<BrowserBridge['openStream']>[1], echoMarks = true): PanelCall {
  return new PanelCall(panel.bridge.openStream('calls.test', input), echoMarks)
}

async function jobOf(panel: Panel, jobId: string) {
  const { job } = await data(panel.bridge.operations['jobs.get']({ id: jobId }))
  return { job, state: ConversationStateSchema.parse(job.jobResponse) }
}

describe('a typed test call from the panel', () => {
  // A whole booking (about a minute of real-time audio) stores what a web call stores, which
  // web-sdk-protocol's typed call checks on PostgreSQL: here on SQLite only.
  it.skipIf(onPostgres)(
    'runs a template agent with the offline engine to its smart end: outcome frames growing, activity in order, audio and marks, then ended and a clean close',
    async () => {
      const panel = await startPanel()
      const templates = await data(panel.bridge.operations['templates.list']({}))
      const template = templates.find((candidate) => candidate.agentName.length > 0 && /restaurant/i.test(JSON.stringify(candidate)))!
      const agent = await data(panel.bridge.operations['agents.clone']({ sourceId: template.id, agentName: 'Olive & Ember test' }))
      await data(panel.bridge.operations['agents.update']({ id: agent.id, changes: { tools: { smartCallEnd: true } } }))
      const call = open(panel, { agentId: agent.id })

      const started = await call.nth('started', 1)
      expect(started).toMatchObject({ agentName: 'Olive & Ember test', dialogueEngine: 'offline', speechRecognition: { enabled: false } })
      expect(started.outcomeShape).toEqual(agent.outcomeResponseShape)
      await call.waitFor(
        () => call.of('info').some((frame) => frame.code === 'STT_ENGINE_NOT_CONFIGURED'),
        'the notice that recognition is off',
      )

      const script = [
        "yes I'd like to book a table",
        "I'm Sara Ali and we are 4 people for next friday",
        'at 8 pm',
        '0501234567',
        'terrace',
        'no',
        'no',
        'yes',
      ]
      const sentAt: number[] = []
      for (const [index, text] of script.entries()) {
        // Each caller turn once the agent's previous answer was heard and written (the greeting first).
        await call.waitFor(() => call.agentTurns() >= index + 1, `agent turn ${index + 1}`, 30_000)
        sentAt.push(Date.now())
        call.handle.send({ type: 'text', content: text })
      }
      const ended = await call.nth('ended', 1, 60_000)
      expect(ended).toMatchObject({ jobId: started.jobId, status: 'COMPLETED', endReason: 'smart-end' })
      expect(ended.duration).toBeGreaterThan(1)
      expect(await call.closed).toEqual({ kind: 'closed' })
      // `ended` is the last frame, and the service closed the stream (the panel never did).
      expect(call.frames.at(-1)!.frame.type).toBe('ended')
      for (const { frame } of call.frames) expect(TestCallServerFrameSchema.safeParse(frame).success, JSON.stringify(frame)).toBe(true)

      // The outcome fills in as the caller answers (final false, each a superset of the one before), then the extracted one.
      const outcomes = call.of('outcome')
      const live = outcomes.filter((frame) => !frame.final)
      expect(live.length).toBeGreaterThanOrEqual(4)
      for (const [index, frame] of live.entries()) {
        const fields = Object.keys(frame.result as object)
        if (index > 0) expect(fields.length).toBeGreaterThanOrEqual(Object.keys(live[index - 1]!.result as object).length)
        for (const field of fields) expect(Object.keys((agent.outcomeResponseShape as OutcomeShape).properties!)).toContain(field)
      }
      expect(live.at(-1)!.result).toMatchObject({
        requestType: 'new_reservation',
        guestName: 'Sara Ali',
        partySize: 4,
        time: '20:00',
        seatingPreference: 'terrace',
      })
      expect(live.at(-1)!.complete).toBe(false) // `status` is inferred at the end, not while the call runs
      const final = outcomes.at(-1)!
      expect(final).toMatchObject({ final: true, complete: true, result: { guestName: 'Sara Ali', partySize: 4 } })
      expect(outcomes.filter((frame) => frame.final)).toHaveLength(1)

      // What the agent is doing, each change once: it speaks the greeting, listens, thinks on each typed turn, speaks again.
      const activities = call.of('activity').map((frame) => frame.activity)
      for (let index = 1; index < activities.length; index += 1) expect(activities[index]).not.toBe(activities[index - 1])
      expect(activities.slice(0, 3)).toEqual(['thinking', 'speaking', 'listening'])
      expect(activities.join(' ')).toContain('listening thinking speaking listening thinking speaking')
      expect(activities.filter((activity) => activity === 'speaking').length).toBe(script.length + 1)

      // The agent's voice came as PCM16 audio, each utterance closed by a mark the panel echoed: its turn is written at once.
      const audio = call.of('audio')
      expect(audio.length).toBeGreaterThan(20)
      for (const frame of audio) expect(Buffer.from(frame.pcm16, 'base64').length % 2).toBe(0)
      const marks = call.of('mark')
      expect(marks.length).toBe(call.agentTurns())
      const turnFrames = call.frames.filter((received) => received.frame.type === 'turn' && received.frame.turn.role === 'agent')
      for (const [index, mark] of marks.entries()) expect(turnFrames[index]!.at - call.playedAt.get(mark.name)!).toBeLessThan(1_000)
      expect(call.of('agent-text').length).toBeGreaterThanOrEqual(script.length)
      // From a typed turn to the first of the agent's audio in the panel (the offline engine, espeak-ng warm).
      const firstAudioAfter = sentAt.map(
        (at) => call.frames.find((received) => received.frame.type === 'audio' && received.at >= at)!.at - at,
      )
      if (process.env.VOICEDESK_REPORT_LATENCY) console.log('typed turn -> first agent audio (ms):', firstAudioAfter.join(', '))
      for (const latency of firstAudioAfter) expect(latency).toBeLessThan(2_000)

      // The same call in the monitor: a COMPLETED conversation with its transcript.
      const { job, state } = await jobOf(panel, started.jobId)
      expect(job).toMatchObject({ type: 'CONVERSATION', status: 'COMPLETED' })
      expect(state.transcript.filter((turn) => turn.role === 'caller').map((turn) => turn.content)).toEqual(script)
      expect(state.transcript.filter((turn) => turn.role === 'caller').every((turn) => turn.kind === 'typed')).toBe(true)
      expect(state).toMatchObject({ endReason: 'smart-end', outcomeComplete: true })
      expect(call.of('turn').map((frame) => frame.turn)).toEqual(state.transcript)
    },
    120_000,
  )

  it('hangs up from the panel: bad frames get an info and the call goes on; caller PCM16 audio is heard; hang-up ends it and the stream closes', async () => {
    const panel = await startPanel()
    const agentId = await createAgent(panel)
    const call = open(panel, { agentId, params: { customerName: 'Sara' } })
    const started = await call.nth('started', 1)
    await call.nth('mark', 1)

    call.handle.send({ type: 'text', content: '   ' } as never)
    call.handle.send({ type: 'dance' } as never)
    call.handle.send({ type: 'audio', pcm16: 'AA==' }) // one byte: not PCM16
    const infos = await call.waitFor(
      () => call.of('info').filter((frame) => frame.code === 'INVALID_FRAME').length === 3 && call.of('info'),
      'three INVALID_FRAME infos',
    )
    expect(infos.filter((frame) => frame.code === 'INVALID_FRAME').map((frame) => frame.message)).toEqual([
      expect.stringMatching(/^Frame ignored: content:/),
      expect.stringMatching(/^Frame ignored: type:/),
      expect.stringMatching(/PCM16/),
    ])
    // 300 ms of silence from the microphone, as the panel sends it: heard (recorded), not answered.
    const silence = Buffer.alloc(16_000 * 0.1 * 2).toString('base64')
    for (let frame = 0; frame < 3; frame += 1) call.handle.send({ type: 'audio', pcm16: silence })
    call.handle.send({ type: 'text', content: 'My name is Sara Haddad' })
    await call.waitFor(
      () => call.of('turn').some((frame) => frame.turn.role === 'caller' && frame.turn.content === 'My name is Sara Haddad'),
      'the typed turn',
    )
    await call.waitFor(
      () => call.of('outcome').some((frame) => (frame.result as { customerName?: string }).customerName === 'Sara Haddad'),
      'the name in the outcome',
    )

    call.handle.send({ type: 'hang-up' })
    const ended = await call.nth('ended', 1)
    expect(ended).toMatchObject({ jobId: started.jobId, status: 'COMPLETED', endReason: 'caller-hangup' })
    expect(await call.closed).toEqual({ kind: 'closed' })
    const { job, state } = await jobOf(panel, started.jobId)
    expect(job.status).toBe('COMPLETED')
    expect(state.endReason).toBe('caller-hangup')
    expect(state.outcomeResult).toMatchObject({ customerName: 'Sara Haddad' })
  }, 60_000)

  it('ends the call when the panel closes its socket', async () => {
    const panel = await startPanel()
    const agentId = await createAgent(panel)
    const call = open(panel, { agentId })
    const started = await call.nth('started', 1)
    await call.nth('audio', 1)
    call.handle.close()
    expect(await call.closed).toEqual({ kind: 'closed' })
    const until = Date.now() + 5_000
    let state = (await jobOf(panel, started.jobId)).state
    while (state.endReason === null && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      state = (await jobOf(panel, started.jobId)).state
    }
    expect(state.endReason).toBe('caller-hangup')
    expect((await jobOf(panel, started.jobId)).job.status).toBe('COMPLETED')
  })
})

describe('refused streams', () => {
  it('refuses a wrong token, a bad input, an unknown agent, an unknown stream and a page of another origin, each with a refused frame and a clean close', async () => {
    const panel = await startPanel()
    const refusedBy = async (call: PanelCall) => {
      const close = await call.closed
      expect(call.frames.map((received) => received.frame.type)).toEqual(['refused'])
      expect(close.kind).toBe('failed')
      return (close as Extract<IpcStreamClose, { kind: 'failed' }>).error
    }

    const stranger = createBrowserBridge({ token: 'not-the-token', baseUrl: panel.baseUrl, createWebSocket: nodeWebSocket })
    expect(await refusedBy(new PanelCall(stranger.openStream('calls.test', { agentId: 'x' })))).toMatchObject({ code: 'UNAUTHORIZED' })

    const badInput = await refusedBy(
      open(panel, { agentId: '', params: { 'not a name': 'x' }, tools: [{ name: 'has space' }], extra: true } as never),
    )
    expect(badInput).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^Invalid input: /) })
    expect(badInput.details.map((detail) => detail.path).sort()).toEqual(['agentId', 'extra', 'params.not a name', 'tools.0.name'])

    const unknownAgent = await refusedBy(open(panel, { agentId: '00000000-0000-4000-8000-000000000000' }))
    expect(unknownAgent).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('voice agent') })

    const unknownStream = await refusedBy(new PanelCall(panel.bridge.openStream('calls.nope' as never, {} as never)))
    expect(unknownStream).toMatchObject({ code: 'NOT_FOUND', message: 'No stream named "calls.nope"' })

    // A page elsewhere that somehow has the token still may not open a stream (a WebSocket is not bound by CORS).
    const foreign = new WebSocket(
      `${panel.baseUrl.replace(/^http/, 'ws')}${BROWSER_STREAMS.path('calls.test')}?token=${panel.service.runtime.uiToken}`,
      {
        origin: 'http://evil.example',
      },
    )
    const received: string[] = []
    foreign.on('message', (message: Buffer) => received.push(message.toString('utf8')))
    const code = await new Promise<number>((resolve) => foreign.on('close', (closeCode) => resolve(closeCode)))
    expect(code).toBe(1000)
    expect(received.map((text) => JSON.parse(text) as unknown)).toEqual([
      { type: 'refused', error: expect.objectContaining({ code: 'FORBIDDEN' }) },
    ])

    // None of them made a conversation.
    const jobs = await data(panel.bridge.operations['jobs.list']({}))
    expect(jobs.total).toBe(0)
  })
})

describe('a test call with a chat model', () => {
  it('round-trips a tool through the panel: tool-call, the stub answer as tool-response, tool-result; the outcome comes at the end only (a loopback chat-model double standing for a server outside this machine)', async () => {
    const model = await startWeatherModelDouble({
      callsToolWhen: 'asked-about-weather',
      argumentPieces: ['{"unit": "cel', 'sius", "city": "Dubai"}'],
      replyAfterTool: () => ['It is sunny and 31 degrees ', 'in Dubai.'],
    })
    servers.push(model.server)
    const panel = await startPanel()
    await panel.service.runtime.store.settings.set('aiContent', { engine: 'openai-compatible', baseUrl: model.url, model: 'tool-model' })
    const agentId = await createAgent(panel)
    const tools = [
      {
        name: 'getWeather',
        description: 'The weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
      },
    ]
    const call = open(panel, { agentId, tools })
    const started = await call.nth('started', 1)
    expect(started.dialogueEngine).toBe('openai-compatible')
    await call.nth('mark', 1)
    call.handle.send({ type: 'text', content: 'What is the weather in Dubai?' })
    const toolCall = await call.nth('tool-call', 1)
    expect(toolCall).toMatchObject({ name: 'getWeather', arguments: { city: 'Dubai', unit: 'celsius' } })
    call.handle.send({ type: 'tool-response', id: toolCall.id, response: { forecast: 'sunny', degrees: 31 } })
    const result = await call.nth('tool-result', 1)
    expect(result.call).toMatchObject({ id: toolCall.id, name: 'getWeather', response: { forecast: 'sunny', degrees: 31 } })
    await call.waitFor(
      () => call.of('agent-text').some((frame) => frame.content === 'It is sunny and 31 degrees in Dubai.'),
      'the answer after the tool',
    )
    expect(model.toolMessages).toEqual([JSON.stringify({ forecast: 'sunny', degrees: 31 })])
    call.handle.send({ type: 'hang-up' })
    await call.nth('ended', 1)
    // No outcome while the call ran (a model call per turn would slow the answers): only the one extracted at the end.
    expect(call.of('outcome').map((frame) => frame.final)).toEqual([true])
    const { state } = await jobOf(panel, started.jobId)
    expect(state.toolCalls).toEqual([expect.objectContaining({ name: 'getWeather', response: { forecast: 'sunny', degrees: 31 } })])
  }, 60_000)
})
