import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import {
  BOOKING_SHAPE,
  clients,
  closeCallsAndServers,
  conversation,
  ended,
  servers,
  setUpCall,
  startCall,
  waitForTurn,
} from '../helpers/web-sdk-call'
import { WebSocket } from 'ws'
import { validateOutcome } from '../../src/engines/dialogue/outcome-validation'
import { SDK_FRAME_SAMPLES, SdkCallClient, quietNoise } from '../helpers/sdk-call-client'
import { voicedSpanMs } from '../engines/audio/call-audio'
import { CALLER_VOICES, spokenSamples } from '../helpers/spoken-audio'
import { startWeatherModelDouble } from '../helpers/weather-model-double'
import { onPostgres } from '../helpers/test-engine'

/*
 * Live calls end to end: a real service on 127.0.0.1, a real WebSocket client that speaks the
 * web SDK 0.3.1's frames (Float32 in, PCM16 out), real speech made by the project's own voice,
 * real webhooks to a loopback receiver. Speech recognition and chat models are servers outside
 * this machine in real use; here they are loopback doubles, and each test that uses one says so.
 */

/**
 * The protocol itself (frames, pacing, refusals, pokes, barge-in, speech servers, tools) does not
 * touch storage differently by engine: on PostgreSQL (project postgres-alone) only the tests whose
 * records do run again: conversation reads, a typed call's outcome and webhooks, a recording, a
 * conversation that never starts (the job loop's leases).
 */
const onSqliteOnly = onPostgres ? it.skip : it

afterEach(closeCallsAndServers)

describe('conversation-init and the conversation read', () => {
  it('answers the jobId in the envelope; a PENDING conversation shows in /v1/jobs as CONVERSATION', async () => {
    const setup = await setUpCall()
    const init = await setup.service.call('POST', '/v1/voice-agents/conversation-init', {
      body: { voiceAgentId: setup.agentId, params: { customerName: 'Sara' }, voiceEnablement: true },
    })
    expect(init.statusCode).toBe(200)
    const { jobId } = init.json<{ success: true; data: { jobId: string } }>().data
    expect(init.json()).toMatchObject({ success: true, message: 'Success' })
    const call = await conversation(setup, jobId)
    expect(call).toMatchObject({
      status: 'PENDING',
      agentName: 'Table Booker',
      params: { customerName: 'Sara' },
      transcript: [],
      recordingUrl: null,
      duration: null,
    })
    const list = await setup.service.call('POST', `/v1/jobs/all?projectId=${setup.service.runtime.bootstrap.projectId}`, {
      body: { type: 'CONVERSATION' },
    })
    expect(list.json<{ data: { jobs: { id: string; type: string; status: string }[] } }>().data.jobs).toEqual([
      expect.objectContaining({ id: jobId, type: 'CONVERSATION', status: 'PENDING' }),
    ])
  })

  it('answers every refusal in the JSON envelope (the SDK reads data.jobId whatever the status)', async () => {
    const setup = await setUpCall()
    const unknownAgent = await setup.service.call('POST', '/v1/voice-agents/conversation-init', {
      body: { voiceAgentId: '00000000-0000-4000-8000-000000000000' },
    })
    expect(unknownAgent.statusCode).toBe(404)
    expect(unknownAgent.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } })
    const badTool = await setup.service.call('POST', '/v1/voice-agents/conversation-init', {
      body: { voiceAgentId: setup.agentId, tools: [{ type: 'function', function: { name: 'has space' } }] },
    })
    expect(badTool.statusCode).toBe(400)
    expect(badTool.json()).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'body.tools.0.function.name' })] },
    })
    const noKey = await setup.service.call('POST', '/v1/voice-agents/conversation-init', {
      key: null,
      body: { voiceAgentId: setup.agentId },
    })
    expect(noKey.statusCode).toBe(401)
    const notACall = await setup.service.call('GET', '/v1/voice-agents/conversation/00000000-0000-4000-8000-000000000000')
    expect(notACall.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } })
  })
})

describe('a call over the web SDK protocol', () => {
  onSqliteOnly('greets with the filled greeting as PCM16 audio sent ahead of real time, then a mark the client echoes', async () => {
    const setup = await setUpCall()
    const startedAt = Date.now()
    const { client } = await startCall(setup)
    const greeting = await client.nth('answer', 1)
    expect(greeting.content).toBe('Hello Sara, thanks for calling Olive Grove.')
    await client.nth('mark', 1, 15_000)
    const media = client.frames.filter((received) => received.frame.event === 'media')
    expect(media.length).toBeGreaterThan(5)
    expect(media[0]!.at - startedAt).toBeLessThan(3_000)
    // Ahead of real time: whenever a frame arrives, the audio received (this frame included) is ahead of what has played by 200 ms at least.
    let received = 0
    const leads: number[] = []
    for (const frame of media) {
      received += Buffer.from((frame.frame as { media: { payload: string } }).media.payload, 'base64').length / 2 / 16_000
      leads.push(received - (frame.at - media[0]!.at) / 1000)
    }
    // The first frames come as one burst; from then on until the last frame the lead never falls under 200 ms.
    const burst = leads.findIndex((lead) => lead >= 0.5)
    expect(burst).toBeGreaterThan(0)
    expect(Math.min(...leads.slice(burst, -1))).toBeGreaterThanOrEqual(0.2)
    expect(client.protocolErrors).toEqual([])
    expect(client.framesOf('info')[0]).toMatchObject({ code: 'CALL_STARTED' })
  })

  onSqliteOnly('sends a client that asks for ?playback=unpaced each turn whole at once; refuses a playback it does not know', async () => {
    const setup = await setUpCall()
    const init = await setup.service.call('POST', '/v1/voice-agents/conversation-init', {
      body: { voiceAgentId: setup.agentId, params: { customerName: 'Sara' } },
    })
    const jobId = init.json<{ data: { jobId: string } }>().data.jobId
    const key = setup.service.key
    // The client puts `api_key=<this>` in the URL as the SDK does, so the extra parameter rides after the key.
    const refused = await SdkCallClient.connect(setup.baseUrl, jobId, `${key}&playback=fast`)
    clients.push(refused)
    expect(await refused.closed).toMatchObject({ code: 1000 })
    expect(refused.framesOf('info')).toEqual([
      expect.objectContaining({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^query\.playback: must be realtime/) }),
    ])
    expect((await conversation(setup, jobId)).status).toBe('PENDING')

    const client = await SdkCallClient.connect(setup.baseUrl, jobId, `${key}&playback=unpaced`)
    clients.push(client)
    const mark = await client.nth('mark', 1, 15_000)
    const media = client.frames.filter((received) => received.frame.event === 'media')
    const audioSeconds = media.reduce(
      (sum, frame) => sum + Buffer.from((frame.frame as { media: { payload: string } }).media.payload, 'base64').length / 2 / 16_000,
      0,
    )
    const markAt = client.frames.find((received) => received.frame === mark)?.at ?? Infinity
    expect(audioSeconds).toBeGreaterThan(1.5)
    // Paced, the mark would follow the audio by its length less the lead (600 ms); unpaced, it follows the synthesis.
    expect(markAt - media[0]!.at).toBeLessThan(audioSeconds * 1000 - 1_000)
  })

  onSqliteOnly('accepts a refused socket, says why in an info frame and closes it with 1000', async () => {
    const setup = await setUpCall()
    const { jobId, client } = await startCall(setup)
    await client.nth('answer', 1)
    const second = await SdkCallClient.connect(setup.baseUrl, jobId, setup.service.key)
    clients.push(second)
    expect(await second.closed).toMatchObject({ code: 1000 })
    expect(second.framesOf('info')).toEqual([expect.objectContaining({ code: 'CONVERSATION_NOT_PENDING' })])
    const badKey = await SdkCallClient.connect(setup.baseUrl, jobId, 'vd_not_a_key_0123456789abcdef')
    clients.push(badKey)
    expect(await badKey.closed).toMatchObject({ code: 1000 })
    expect(badKey.framesOf('info')).toEqual([expect.objectContaining({ code: 'UNAUTHORIZED' })])
    const other = await setup.service.otherProject()
    const otherKey = await SdkCallClient.connect(setup.baseUrl, jobId, other.key)
    clients.push(otherKey)
    expect(await otherKey.closed).toMatchObject({ code: 1000 })
    expect(otherKey.framesOf('info')).toEqual([expect.objectContaining({ code: 'NOT_FOUND' })])
  })

  onSqliteOnly(
    'refuses a query parameter given twice (api_key or another) after the handshake too, in an info frame, and the call can still connect',
    async () => {
      const setup = await setUpCall()
      const init = await setup.service.call('POST', '/v1/voice-agents/conversation-init', {
        body: { voiceAgentId: setup.agentId, params: { customerName: 'Sara' } },
      })
      const jobId = init.json<{ data: { jobId: string } }>().data.jobId
      const key = setup.service.key
      // The client puts `api_key=<this>` in the URL as the SDK does: a key with `&api_key=…` after it repeats the parameter.
      for (const repeatedQuery of [`${key}&api_key=${key}`, `${key}&api_key=vd_not_a_key_0123456789abcdef`, `${key}&lang=en&lang=ar`]) {
        const refused = await SdkCallClient.connect(setup.baseUrl, jobId, repeatedQuery)
        clients.push(refused)
        expect(await refused.closed).toMatchObject({ code: 1000 })
        const [info] = refused.framesOf('info')
        expect(refused.framesOf('info')).toHaveLength(1)
        expect(info).toMatchObject({
          code: 'VALIDATION_ERROR',
          message: expect.stringMatching(/^query\.(api_key|lang): Given more than once/),
        })
      }
      // Nothing was connected: the conversation is still PENDING, and a socket with the key once starts the call.
      expect((await conversation(setup, jobId)).status).toBe('PENDING')
      const client = await SdkCallClient.connect(setup.baseUrl, jobId, key)
      clients.push(client)
      expect(await client.nth('info', 1)).toMatchObject({ code: 'CALL_STARTED' })
    },
  )

  onSqliteOnly(
    "closes a socket that sends a frame over 1 MiB with 1009 and logs it at info, not error: it is the client's fault",
    async () => {
      const lines: { level: number; msg: string; err?: { code?: string } }[] = []
      const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) })
      const setup = await setUpCall({}, { log })
      const tooBigFrame = { event: 'text', content: 'x'.repeat(1024 * 1024) }
      // The call socket (offering deflate, as the SDK does; the service declines it).
      const { jobId, client } = await startCall(setup)
      client.send(tooBigFrame)
      expect(await client.closed).toMatchObject({ code: 1009 })
      // The realtime speech socket, not deflated.
      const realtime = new WebSocket(`${setup.baseUrl.replace(/^http/, 'ws')}/v1/realtime/ws`, {
        headers: { authorization: `Token ${setup.service.key}` },
        perMessageDeflate: false,
      })
      await new Promise((resolve, reject) => realtime.once('open', resolve).once('error', reject))
      const realtimeClosed = new Promise<number>((resolve) => realtime.once('close', resolve))
      realtime.send(JSON.stringify(tooBigFrame))
      expect(await realtimeClosed).toBe(1009)

      await expect.poll(() => lines.filter((line) => line.err?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH').length).toBe(2)
      expect(lines.filter((line) => line.level >= 50)).toEqual([])
      expect(lines.filter((line) => line.err?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH').map((line) => [line.level, line.msg])).toEqual([
        [30, 'a call socket failed: the client broke the WebSocket protocol'],
        [30, 'a realtime TTS socket failed: the client broke the WebSocket protocol'],
      ])
      // The call ended as the caller's going; the service answers on.
      await expect.poll(async () => (await conversation(setup, jobId)).status, { timeout: 10_000 }).not.toBe('PENDING')
      expect((await setup.service.call('GET', '/v1/voices')).statusCode).toBe(200)
    },
  )

  it('runs a typed call to its smart end: outcome valid against the shape, COMPLETED within 2 s, every webhook delivered', async () => {
    const setup = await setUpCall()
    const { jobId, client } = await startCall(setup)
    await client.nth('mark', 1, 15_000)
    client.send({ event: 'text', content: 'My name is Sara Haddad' })
    await client.nth('transcription', 1)
    client.send({ event: 'text', content: 'We are four people' })
    await client.nth('transcription', 2)
    client.send({ event: 'text', content: 'On the terrace please' })
    await client.nth('transcription', 3)
    await client.waitFor(
      () => client.framesOf('answer').some((frame) => /right|correct/i.test(frame.content)),
      60_000,
      'a confirmation question',
    )
    client.send({ event: 'text', content: 'Yes, that is right' })
    const closed = await client.closed
    expect(closed.code).toBe(1000)
    const { call, afterMs } = await ended(setup, jobId, Date.now())
    expect(afterMs).toBeLessThan(2_000)
    expect(call).toMatchObject({ status: 'COMPLETED', endReason: 'smart-end', outcomeComplete: true })
    expect(call.outcomeResult).toMatchObject({ customerName: 'Sara Haddad', guests: 4, seating: 'terrace' })
    expect(validateOutcome(BOOKING_SHAPE, call.outcomeResult).valid).toBe(true)
    expect(call.transcript.filter((turn) => turn.role === 'caller').map((turn) => turn.content)).toEqual([
      'My name is Sara Haddad',
      'We are four people',
      'On the terrace please',
      'Yes, that is right',
    ])
    expect(call.transcript[0]).toMatchObject({ role: 'agent', content: expect.stringContaining('Hello Sara') })
    // Each answer to a caller's turn is timed (analytics' latency).
    expect(call.answerDelays?.answers).toBeGreaterThanOrEqual(3)
    expect(call.answerDelays?.seconds).toBeGreaterThan(0)
    expect(call.recordingUrl).toMatch(/\/media\/.+\.wav$/)
    expect(call.duration).toBeGreaterThan(1)
    const recording = await fetch(call.recordingUrl!)
    expect(recording.status).toBe(200)
    expect(
      Buffer.from(await recording.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('RIFF')

    // call.started, call.answered, a transcription.update per finished turn, call.ended.
    const requests = await setup.receiver.waitForRequests(3 + call.transcript.length, 10_000)
    const events = requests.map(
      (request) => JSON.parse(request.body) as { eventType: string; callId: string; agentName: string; data: Record<string, unknown> },
    )
    // Deliveries due together go side by side (docs/api.md): call.answered may arrive before call.started.
    expect(events.find((event) => event.eventType === 'call.started')).toMatchObject({
      callId: jobId,
      agentName: 'Table Booker',
      agentId: setup.agentId,
    })
    expect(events.map((event) => event.eventType)).toContain('call.answered')
    // A turn's update is sent when it finishes (an agent turn once heard), so an agent turn still
    // playing when the caller's typed answer ends arrives after it: the transcript's order is startTime's.
    const updates = events
      .filter((event) => event.eventType === 'transcription.update')
      .map((event) => event.data.turn as { content: string; startTime: number })
    expect([...updates].sort((a, b) => a.startTime - b.startTime).map((turn) => turn.content)).toEqual(
      call.transcript.map((turn) => turn.content),
    )
    const end = events.find((event) => event.eventType === 'call.ended')!
    expect(end.data).toMatchObject({ endReason: 'smart-end', outcomeResult: call.outcomeResult, status: 'COMPLETED' })
    expect(requests[0]!.headers.authorization).toBe('Bearer call-secret')
    expect(requests[0]!.headers['webhook-id']).toMatch(/^msg_/)
  }, 120_000)

  onSqliteOnly(
    'pokes a silent caller with the agent’s poke messages in order, then ends the call for silence',
    async () => {
      const setup = await setUpCall({ silenceThreshold: 1, pokeMessages: ['Are you still there?', 'Hello, can you hear me?'] })
      const { jobId, client } = await startCall(setup)
      await client.nth('mark', 1, 15_000)
      const feeding = (async () => {
        const poked = () => client.framesOf('answer').some((frame) => frame.content === 'Hello, can you hear me?')
        for (let second = 0; second < 15 && !poked(); second += 1) await client.silence(1_000)
      })()
      await client.waitFor(
        () => client.framesOf('answer').some((frame) => frame.content === 'Hello, can you hear me?'),
        20_000,
        'the second poke',
      )
      // After the greeting and the agent's first question: the pokes, in order.
      expect(
        client
          .framesOf('answer')
          .map((frame) => frame.content)
          .slice(-2),
      ).toEqual(['Are you still there?', 'Hello, can you hear me?'])
      await feeding
      for (let second = 0; second < 6; second += 1) {
        if ((await conversation(setup, jobId)).status !== 'IN_PROGRESS') break
        await client.silence(1_000)
      }
      const { call } = await ended(setup, jobId, Date.now())
      expect(call).toMatchObject({ status: 'COMPLETED', endReason: 'silence', pokes: 2 })
      expect(call.transcript.filter((turn) => turn.kind === 'poke').map((turn) => turn.content)).toEqual([
        'Are you still there?',
        'Hello, can you hear me?',
      ])
    },
    120_000,
  )

  onSqliteOnly(
    'round-trips a tool through the page with a chat model (a loopback double standing for one outside this machine)',
    async () => {
      const model = await startWeatherModelDouble({
        callsToolWhen: 'always',
        argumentPieces: ['{"unit": "cel', 'sius", "city": "Dubai"}'],
        replyAfterTool: () => ['It is sunny and 31 degrees ', 'in Dubai.'],
      })
      servers.push(model.server)
      const setup = await setUpCall({ outcomeResponseShape: null, tools: {} })
      await setup.service.runtime.store.settings.set('aiContent', { engine: 'openai-compatible', baseUrl: model.url, model: 'tool-model' })
      const tools = [
        {
          type: 'function',
          function: {
            name: 'getWeather',
            description: 'The weather in a city',
            parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
          },
        },
      ]
      const { jobId, client } = await startCall(setup, { tools })
      const calls: unknown[][] = []
      client.toolHandler = (name, args) => {
        calls.push([name, ...args])
        return { forecast: 'sunny', degrees: 31 }
      }
      await client.nth('mark', 1, 15_000)
      client.send({ event: 'text', content: 'What is the weather in Dubai?' })
      const toolFrame = await client.nth('tools', 1, 10_000)
      // The model wrote the arguments unit first; the page gets them in the declared order (city, unit).
      expect(toolFrame.content[0]!.function).toEqual({ name: 'getWeather', arguments: '{"city":"Dubai","unit":"celsius"}' })
      await client.waitFor(
        () => client.framesOf('answer').some((frame) => frame.content === 'It is sunny and 31 degrees in Dubai.'),
        10_000,
        'the answer after the tool',
      )
      expect(calls).toEqual([['getWeather', 'Dubai', 'celsius']])
      expect(model.toolMessages).toEqual([JSON.stringify({ forecast: 'sunny', degrees: 31 })])
      await client.hangUp()
      const { call } = await ended(setup, jobId, Date.now())
      expect(call.toolCalls).toEqual([
        expect.objectContaining({
          name: 'getWeather',
          arguments: { city: 'Dubai', unit: 'celsius' },
          response: { forecast: 'sunny', degrees: 31 },
        }),
      ])
      expect(call.dialogueEngine).toBe('openai-compatible')
      const events = (await setup.receiver.waitForRequests(6, 10_000)).map(
        (request) => JSON.parse(request.body) as { eventType: string; data: { toolCall?: unknown } },
      )
      expect(events.find((event) => event.eventType === 'tool.executed')?.data.toolCall).toMatchObject({
        name: 'getWeather',
        response: { forecast: 'sunny', degrees: 31 },
      })
    },
    120_000,
  )

  it('keeps each caller’s clock: two calls at once, one sending 500 ms bursts, save the turn where the voice was and a recording as long as the call', async () => {
    const setup = await setUpCall({ greetingMessage: 'Hello.', pokeMessages: [], interrupt: false, outcomeResponseShape: null, tools: {} })
    const speech = await spokenSamples('I would like a table for two tonight.', CALLER_VOICES.en)
    // 2 s of a quiet room, the sentence, 1.5 s: sent from the socket's first frame on, so the voice's place in the call is known.
    const audio = new Float32Array(Math.round(3.5 * 16_000) + speech.length)
    audio.set(quietNoise(audio.length))
    audio.set(speech, 2 * 16_000)
    const [voiceStartMs, voiceEndMs] = voicedSpanMs(speech).map((ms) => 2_000 + ms) as [number, number]
    const send = async (client: SdkCallClient, burstFrames: number) => {
      for (let start = 0; start < audio.length; start += SDK_FRAME_SAMPLES * burstFrames) {
        for (let frame = start; frame < Math.min(audio.length, start + SDK_FRAME_SAMPLES * burstFrames); frame += SDK_FRAME_SAMPLES) {
          const bytes = Buffer.from(audio.slice(frame, frame + SDK_FRAME_SAMPLES).buffer)
          client.send({ event: 'media', streamSid: 'WEBSDK', media: { payload: bytes.toString('base64') } })
        }
        await new Promise((resolve) => setTimeout(resolve, (burstFrames * SDK_FRAME_SAMPLES * 1000) / 16_000))
      }
    }
    // Each starts sending as its socket opens: frames before the call is set up wait for it, so the call's time 0 is the first frame's.
    const calling = async (burstFrames: number) => {
      const call = await startCall(setup)
      await send(call.client, burstFrames)
      return call
    }
    const [steady, bursty] = await Promise.all([calling(5), calling(62)])
    for (const { client, jobId } of [steady, bursty]) {
      expect(await waitForTurn(setup, jobId, (turns) => turns.some((turn) => turn.role === 'caller'))).toBe(true)
      await client.hangUp()
      const { call } = await ended(setup, jobId, Date.now())
      const turn = call.transcript.find((candidate) => candidate.role === 'caller')!
      // The turn spans the voice (not the pre-roll, not the endpointing silence, not the gaps between bursts): within 30 ms
      // (frames decided 8 ms at a time, the voice measured in 10 ms windows). Where it starts depends on when this
      // process, busy with both calls, got to send the first frame: the exact place is the caller-turns unit test's.
      const where = JSON.stringify({ turn, voiceStartMs, voiceEndMs })
      expect(Math.abs((turn.endTime - turn.startTime) * 1000 - (voiceEndMs - voiceStartMs)), where).toBeLessThanOrEqual(30)
      expect(turn.startTime * 1000, where).toBeGreaterThanOrEqual(voiceStartMs - 30)
      expect(turn.startTime * 1000, where).toBeLessThan(voiceStartMs + 1_000)
      const wav = Buffer.from(await (await fetch(call.recordingUrl!)).arrayBuffer())
      expect(Math.abs((wav.length - 44) / 2 / 16_000 - call.duration!)).toBeLessThanOrEqual(0.1)
    }
  }, 120_000)

  it('a conversation whose socket never opens ends FAILED, and its agent hears of it', async () => {
    const setup = await setUpCall({}, { calls: { socketDeadlineMs: 300 } })
    const init = await setup.service.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: setup.agentId } })
    const { jobId } = init.json<{ data: { jobId: string } }>().data
    const { call } = await ended(setup, jobId, Date.now(), 5_000)
    expect(call).toMatchObject({ status: 'FAILED', error: { code: 'CONVERSATION_NOT_STARTED' } })
    const [request] = await setup.receiver.waitForRequests(1, 10_000)
    expect(JSON.parse(request!.body)).toMatchObject({ eventType: 'call.ended', callId: jobId, data: { status: 'FAILED' } })
    const late = await SdkCallClient.connect(setup.baseUrl, jobId, setup.service.key)
    clients.push(late)
    expect(await late.closed).toMatchObject({ code: 1000 })
    expect(late.framesOf('info')).toEqual([expect.objectContaining({ code: 'CONVERSATION_NOT_PENDING' })])
  })
})
