/**
 * Realtime speech over a real service on 127.0.0.1: POST /v1/realtime/tts answers the audio
 * itself, /v1/realtime/tts-stream streams it as it is made, /v1/realtime/ws speaks over a
 * WebSocket; every refusal is an envelope (or an error frame), and each synthesis is recorded
 * as a priced TTS job.
 */
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { ttsCost } from '../../../src/service/ops/prices'
import { VOICES } from '../../../src/shared/voices'
import { readWav, rms } from '../../engines/tts/wav-reading'
import { startTestService, type TestService } from '../../helpers/test-service'

const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id
/** 20 words. */
const SENTENCE = 'Your table for four is booked for eight tonight, and we will hold it for fifteen minutes after that time.'
const LONG =
  'Thank you for calling the front desk. We have received your request and a member of our team will call you back within one business day. '.repeat(
    25,
  )

async function listening(): Promise<{
  service: TestService
  baseUrl: string
  post: (path: string, body: unknown, headers?: Record<string, string>) => Promise<Response>
}> {
  const service = await startTestService({ port: 0 })
  await service.runtime.start()
  const baseUrl = service.runtime.context.baseUrl()
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Token ${service.key}`, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  return { service, baseUrl, post }
}

const pcmSamples = (bytes: Buffer) => new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))

describe('POST /v1/realtime/tts', () => {
  it('answers a valid WAV of plausible duration, and records the usage as a priced TTS job', async () => {
    const { post, service } = await listening()
    const response = await post('/v1/realtime/tts', { text: SENTENCE, voiceId: AVA })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('audio/wav')
    const wav = Buffer.from(await response.arrayBuffer())
    const file = readWav(wav)
    expect(file).toMatchObject({
      riff: 'RIFF',
      riffSize: wav.length - 8,
      wave: 'WAVE',
      audioFormat: 1,
      channels: 1,
      sampleRate: 22_050,
      bitsPerSample: 16,
      dataSize: wav.length - 44,
    })
    const seconds = file.samples.length / file.sampleRate
    // 20 words at a speaking pace: 4 to 10 seconds.
    expect(seconds).toBeGreaterThan(4)
    expect(seconds).toBeLessThan(10)
    expect(Number(response.headers.get('x-audio-duration'))).toBeCloseTo(seconds, 2)
    expect(rms(file.samples)).toBeGreaterThan(500)

    const jobs = (await service.call('POST', `/v1/jobs/all?projectId=${service.runtime.bootstrap.projectId}`)).json().data.jobs as Record<
      string,
      unknown
    >[]
    expect(jobs).toHaveLength(1)
    const job = (await service.call('GET', `/v1/jobs?jobId=${jobs[0]!.id as string}`)).json().data
    expect(job).toMatchObject({
      type: 'TTS',
      status: 'COMPLETED',
      processingType: 'REALTIME',
      totalCost: ttsCost(SENTENCE),
      mediaUrl: null,
    })
    expect(Number(job.usageTime)).toBeCloseTo(seconds, 2)
  })

  it('answers 16 kHz PCM when asked by format or by Accept, resampled from the same speech', async () => {
    const { post } = await listening()
    const wav = readWav(Buffer.from(await (await post('/v1/realtime/tts', { text: SENTENCE, voiceId: AVA })).arrayBuffer()))
    const wavSeconds = wav.samples.length / wav.sampleRate
    for (const [body, headers] of [
      [{ text: SENTENCE, voiceId: AVA, format: 'pcm' }, {}],
      [{ text: SENTENCE, voiceId: AVA }, { accept: 'audio/pcm' }],
    ] as const) {
      const response = await post('/v1/realtime/tts', body, headers)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('audio/pcm;rate=16000;bits=16;channels=1')
      const bytes = Buffer.from(await response.arrayBuffer())
      expect(bytes.subarray(0, 4).toString('latin1')).not.toBe('RIFF')
      expect(bytes.length % 2).toBe(0)
      const seconds = bytes.length / 2 / 16_000
      // eSpeak varies by a few samples from run to run.
      expect(Math.abs(seconds - wavSeconds)).toBeLessThan(0.05)
      expect(rms(pcmSamples(bytes))).toBeGreaterThan(500)
    }
  })

  it("accepts the cloud's field names: speaker (a voice name, any case), voice, voice_id, with dialect and mulaw false", async () => {
    const { post } = await listening()
    for (const body of [
      { text: 'Hello there.', speaker: 'ava', dialect: 'en', mulaw: false },
      { text: 'Hello there.', voice: 'Layla', languageId: 'ar' },
      { text: 'Hello there.', voice_id: AVA },
      { text: 'Hello there.', voiceId: 'Ava', speaker: 'AVA' },
    ]) {
      const response = await post('/v1/realtime/tts', body)
      expect(response.status, JSON.stringify(body)).toBe(200)
      expect(readWav(Buffer.from(await response.arrayBuffer())).samples.length).toBeGreaterThan(10_000)
    }
  })

  it('refuses every bad input with a clear envelope, on both POST routes', async () => {
    const { post, baseUrl } = await listening()
    const cases: [unknown, number, string, RegExp][] = [
      [{ text: '', voiceId: AVA }, 400, 'VALIDATION_ERROR', /text: Must not be empty/],
      [{ text: '   \n ', voiceId: AVA }, 400, 'VALIDATION_ERROR', /text: Must not be empty/],
      [{ text: 'x'.repeat(5_001), voiceId: AVA }, 400, 'VALIDATION_ERROR', /At most 5,000 characters/],
      [{ text: 'Hello' }, 400, 'VALIDATION_ERROR', /voiceId: Required/],
      [{ text: 'Hello', voiceId: 'Nobody' }, 400, 'VALIDATION_ERROR', /Unknown voice "Nobody"/],
      [{ text: 'Hello', voiceId: 'Ava', speaker: 'Omar' }, 400, 'VALIDATION_ERROR', /speaker: Names another voice/],
      [{ text: 'Hello', voiceId: AVA, format: 'mp3' }, 400, 'VALIDATION_ERROR', /format/],
      [{ text: 'Hello', voiceId: AVA, mulaw: true }, 400, 'VALIDATION_ERROR', /μ-law audio is not served/],
      [{ text: 'Hello', voiceId: AVA, rate: 2 }, 400, 'VALIDATION_ERROR', /rate/],
      ['{"text":', 400, 'INVALID_JSON', /JSON/],
    ]
    for (const path of ['/v1/realtime/tts', '/v1/realtime/tts-stream']) {
      for (const [body, status, code, message] of cases) {
        const response = await post(path, body)
        expect(response.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(status)
        const envelope = (await response.json()) as { success: boolean; message: string; error: { code: string } }
        expect(envelope).toMatchObject({ success: false, error: { code } })
        expect(envelope.message).toMatch(message)
      }
      const noKey = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Hi', voiceId: AVA }),
      })
      expect(noKey.status).toBe(401)
      expect(((await noKey.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED')
      const text = await post(path, 'Hello', { 'content-type': 'text/plain' })
      expect(text.status).toBe(415)
    }
  })
})

describe('POST /v1/realtime/tts-stream', () => {
  it('streams a long text chunk by chunk: the first audio arrives long before the synthesis ends', async () => {
    const { post } = await listening()
    await (await post('/v1/realtime/tts', { text: 'Warm up.', voiceId: AVA })).arrayBuffer()
    const started = performance.now()
    const response = await post('/v1/realtime/tts-stream', { text: LONG, voiceId: AVA })
    expect(response.status).toBe(200)
    expect(response.headers.get('transfer-encoding')).toBe('chunked')
    expect(response.headers.get('content-type')).toBe('audio/wav')
    const reader = response.body!.getReader()
    const arrivals: { at: number; bytes: number }[] = []
    const parts: Buffer[] = []
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      arrivals.push({ at: performance.now() - started, bytes: value.byteLength })
      parts.push(Buffer.from(value))
    }
    const ended = performance.now() - started
    const audio = Buffer.concat(parts)
    // A streaming WAV header (sizes unknown), then 22,050 Hz samples.
    expect(audio.toString('latin1', 0, 4)).toBe('RIFF')
    expect(audio.readUInt32LE(4)).toBe(0xffffffff)
    expect(audio.readUInt32LE(24)).toBe(22_050)
    expect(audio.readUInt32LE(40)).toBe(0xffffffff)
    const seconds = (audio.length - 44) / 2 / 22_050
    expect(seconds).toBeGreaterThan(100)
    expect(arrivals.length).toBeGreaterThan(20)
    // Audio came as it was made: the first samples well before the end, half of them before most of the time had passed.
    let received = 0
    const audioAt = (share: number) => arrivals.find((arrival) => (received += arrival.bytes) - 44 > share * (audio.length - 44))!.at
    const firstAudio = audioAt(0)
    received = 0
    const halfAudio = audioAt(0.5)
    expect(firstAudio).toBeLessThan(ended / 3)
    expect(halfAudio).toBeLessThan(ended * 0.85)
  })

  it('stops speaking when the client goes away, and records nothing for it', async () => {
    const { post, service } = await listening()
    const controller = new AbortController()
    const response = await fetch(`${service.runtime.context.baseUrl()}/v1/realtime/tts-stream`, {
      method: 'POST',
      headers: { authorization: `Token ${service.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: LONG, voiceId: AVA }),
      signal: controller.signal,
    })
    await response.body!.getReader().read()
    controller.abort()
    await new Promise((resolve) => setTimeout(resolve, 300))
    // The service goes on serving; only the completed request is a job.
    expect((await post('/v1/realtime/tts', { text: 'Still here.', voiceId: AVA })).status).toBe(200)
    const jobs = (await service.call('POST', `/v1/jobs/all?projectId=${service.runtime.bootstrap.projectId}`)).json().data.jobs as {
      title: string
    }[]
    expect(jobs.map((job) => job.title)).toEqual(['Still here.'])
  })

  it('streams 16 kHz PCM when asked', async () => {
    const { post } = await listening()
    const response = await post('/v1/realtime/tts-stream', { text: SENTENCE, voiceId: AVA }, { accept: 'audio/pcm' })
    expect(response.headers.get('content-type')).toBe('audio/pcm;rate=16000;bits=16;channels=1')
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(bytes.toString('latin1', 0, 4)).not.toBe('RIFF')
    const seconds = bytes.length / 2 / 16_000
    expect(seconds).toBeGreaterThan(4)
    expect(seconds).toBeLessThan(10)
  })
})

interface Received {
  frames: { type: string; payload: Record<string, unknown> }[]
  audio: Buffer[]
}

function openSocket(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers })
  const received: Received = { frames: [], audio: [] }
  const waiters: (() => void)[] = []
  socket.on('message', (data: Buffer, isBinary) => {
    if (isBinary) received.audio.push(data)
    else received.frames.push(JSON.parse(data.toString('utf8')) as Received['frames'][number])
    for (const waiter of waiters.splice(0)) waiter()
  })
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)))
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve())
    socket.on('error', reject)
  })
  const until = async (predicate: () => boolean) => {
    const deadline = Date.now() + 20_000
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out; frames: ${JSON.stringify(received.frames)}`)
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 200)
      })
    }
  }
  return { socket, received, closed, opened, until }
}

describe('the realtime TTS WebSocket /v1/realtime/ws', () => {
  it('speaks each request in order: ack, binary audio, end; a refused request leaves the socket open', async () => {
    const { service, baseUrl } = await listening()
    const ws = openSocket(`${baseUrl.replace(/^http/, 'ws')}/v1/realtime/ws`, { authorization: `Token ${service.key}` })
    await ws.opened
    ws.socket.send(JSON.stringify({ type: 'tts', payload: { text: SENTENCE, speaker: 'Ava' } }))
    ws.socket.send(JSON.stringify({ type: 'tts', payload: { text: '', speaker: 'Ava' } }))
    ws.socket.send('not json')
    ws.socket.send(JSON.stringify({ type: 'tts', payload: { text: 'And goodbye.', voiceId: AVA, format: 'wav' } }))
    await ws.until(() => ws.received.frames.filter((frame) => frame.type === 'end').length === 2)
    expect(ws.received.frames.map((frame) => frame.type)).toEqual(['ack', 'end', 'error', 'error', 'ack', 'end'])
    const [ack, end, empty, notJson, , secondEnd] = ws.received.frames
    expect(ack!.payload).toMatchObject({ format: 'pcm', sampleRate: 16_000, voiceId: AVA })
    expect(empty!.payload).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'payload.text', message: 'Must not be empty or only spaces' }],
    })
    expect(notJson!.payload).toMatchObject({ code: 'INVALID_FRAME' })
    // The first request's audio: 16 kHz PCM, as many bytes as the end frame counts.
    const total = ws.received.audio.reduce((sum, chunk) => sum + chunk.byteLength, 0)
    const secondBytes = secondEnd!.payload.bytes as number
    expect((end!.payload.bytes as number) + secondBytes).toBe(total)
    const firstSeconds = (end!.payload.bytes as number) / 2 / 16_000
    expect(firstSeconds).toBeGreaterThan(4)
    expect(end!.payload.durationSeconds).toBeCloseTo(firstSeconds, 2)
    // The second asked for a WAV: its audio starts with the header.
    const secondAudio = Buffer.concat(ws.received.audio).subarray(end!.payload.bytes as number)
    expect(secondAudio.toString('latin1', 0, 4)).toBe('RIFF')
    // Both are priced TTS jobs.
    const job = (await service.call('GET', `/v1/jobs?jobId=${end!.payload.jobId as string}`)).json().data
    expect(job).toMatchObject({ type: 'TTS', processingType: 'REALTIME', totalCost: ttsCost(SENTENCE) })
    ws.socket.close()
    expect(await ws.closed).toBe(1005)
  })

  it('takes the key from X-Api-Key or ?api_key=, and refuses a wrong or missing one with an error frame and a clean close', async () => {
    const { service, baseUrl } = await listening()
    const wsBase = `${baseUrl.replace(/^http/, 'ws')}/v1/realtime/ws`
    for (const [url, headers] of [
      [`${wsBase}?api_key=${service.key}`, {}],
      [wsBase, { 'x-api-key': service.key }],
    ] as const) {
      const ws = openSocket(url, headers)
      await ws.opened
      ws.socket.send(JSON.stringify({ type: 'tts', payload: { text: 'Hi.', voiceId: AVA } }))
      await ws.until(() => ws.received.frames.some((frame) => frame.type === 'end'))
      ws.socket.close()
    }
    for (const [url, message] of [
      [`${wsBase}?api_key=vd_wrong`, /unknown, revoked or malformed/],
      [wsBase, /Missing API key/],
    ] as const) {
      const ws = openSocket(url)
      await ws.opened
      ws.socket.send(JSON.stringify({ type: 'tts', payload: { text: 'Hi.', voiceId: AVA } }))
      expect(await ws.closed).toBe(1000)
      expect(ws.received.frames).toHaveLength(1)
      expect(ws.received.frames[0]).toMatchObject({
        type: 'error',
        payload: { code: 'UNAUTHORIZED', message: expect.stringMatching(message) },
      })
      expect(ws.received.audio).toEqual([])
    }
  })
})
