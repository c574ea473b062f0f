// The speech-recognition client against a loopback double: a real node:http server on
// 127.0.0.1 that stands for a speech server outside this machine (whisper.cpp's server,
// speaches, LocalAI). It reads the multipart upload with the global Request's formData(),
// checks the WAV it was sent, and answers as the test tells it to.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { int16FromFloat32 } from '../../../src/engines/audio/pcm-encoding'
import { parseWavPcm16Mono, writeWavPcm16Mono } from '../../../src/engines/audio/wav-file'
import { createOpenAiCompatibleSttEngine, SttEngineError } from '../../../src/engines/stt/openai-compatible-stt-engine'
import { createEspeakTtsEngine } from '../../../src/engines/tts/tts-engine'
import { speak16k } from '../audio/call-audio'

const API_KEY = 'sk-test-9f8e7d6c5b4a3f2e1d0c'

interface Upload {
  headers: IncomingMessage['headers']
  fields: Record<string, string>
  file: { name: string; type: string; bytes: Buffer }
}

type Answer = (upload: Upload) => { status?: number; body: unknown } | 'hang'

let server: Server | undefined
const uploads: Upload[] = []

async function startDouble(answer: Answer): Promise<string> {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const parsed = await new Request('http://double/', {
        method: 'POST',
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks),
      }).formData()
      const fields: Record<string, string> = {}
      let file: Upload['file'] | undefined
      for (const [name, value] of parsed) {
        if (typeof value === 'string') fields[name] = value
        else file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) }
      }
      const upload = { headers: request.headers, fields, file: file! }
      uploads.push(upload)
      const reply = answer(upload)
      if (reply === 'hang') return
      response.writeHead(reply.status ?? 200, { 'content-type': typeof reply.body === 'string' ? 'text/plain' : 'application/json' })
      response.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body))
    })()
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
}

afterEach(async () => {
  uploads.length = 0
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
  server = undefined
})

const VERBOSE = {
  task: 'transcribe',
  language: 'english',
  duration: 2.4,
  text: ' Hello, I would like to book an appointment. ',
  segments: [{ id: 0, start: 0, end: 2.4, text: ' Hello, I would like to book an appointment.' }],
}

describe('createOpenAiCompatibleSttEngine', () => {
  let wav: Buffer
  beforeAll(async () => {
    const tts = await createEspeakTtsEngine()
    try {
      wav = writeWavPcm16Mono(
        int16FromFloat32(await speak16k(tts, 'Hello, I would like to book an appointment.', 'd7c17d05-0c73-4196-8cd2-25f2687d90b0')),
      )
    } finally {
      await tts.close()
    }
  })

  it('uploads the WAV as multipart form data with the model, language and verbose_json, and reads the transcript', async () => {
    const baseUrl = await startDouble((upload) => {
      const audio = parseWavPcm16Mono(upload.file.bytes)
      expect(audio.sampleRate).toBe(16_000)
      expect(audio.samples.length).toBeGreaterThan(16_000)
      return { body: VERBOSE }
    })
    const engine = createOpenAiCompatibleSttEngine({ baseUrl: `${baseUrl}/`, apiKey: API_KEY })
    expect(engine.name).toBe('openai-compatible')
    expect(engine.model).toBe('whisper-1')
    const transcript = await engine.transcribe(wav, { language: 'en' })
    expect(transcript).toEqual({
      text: 'Hello, I would like to book an appointment.',
      language: 'en',
      durationSeconds: 2.4,
      segments: [{ start: 0, end: 2.4, text: 'Hello, I would like to book an appointment.' }],
    })
    expect(uploads).toHaveLength(1)
    const [upload] = uploads
    expect(upload!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    expect(upload!.headers.authorization).toBe(`Bearer ${API_KEY}`)
    expect(upload!.fields).toEqual({ model: 'whisper-1', language: 'en', response_format: 'verbose_json' })
    expect(upload!.file.name).toBe('audio.wav')
    expect(upload!.file.type).toBe('audio/wav')
    expect(upload!.file.bytes.equals(wav)).toBe(true)
  })

  it('leaves out the language and the key when not given, and sends the chosen model', async () => {
    const baseUrl = await startDouble(() => ({ body: { text: 'مرحبا', language: 'ar' } }))
    const transcript = await createOpenAiCompatibleSttEngine({ baseUrl, model: 'Systran/faster-whisper-small' }).transcribe(wav)
    expect(transcript).toEqual({ text: 'مرحبا', language: 'ar' })
    expect(uploads[0]!.fields).toEqual({ model: 'Systran/faster-whisper-small', response_format: 'verbose_json' })
    expect(uploads[0]!.headers.authorization).toBeUndefined()
  })

  it('asks once more for json when the server refuses verbose_json', async () => {
    const baseUrl = await startDouble((upload) =>
      upload.fields.response_format === 'verbose_json'
        ? { status: 400, body: { error: { message: "Unsupported response_format 'verbose_json'", type: 'invalid_request_error' } } }
        : { body: { text: 'Hello there.' } },
    )
    expect(await createOpenAiCompatibleSttEngine({ baseUrl }).transcribe(wav)).toEqual({ text: 'Hello there.' })
    expect(uploads.map((upload) => upload.fields.response_format)).toEqual(['verbose_json', 'json'])
  })

  it('does not retry other client errors', async () => {
    const baseUrl = await startDouble(() => ({ status: 400, body: { error: 'file is too short' } }))
    await expect(createOpenAiCompatibleSttEngine({ baseUrl }).transcribe(wav)).rejects.toMatchObject({
      code: 'HTTP_ERROR',
      status: 400,
      transient: false,
    })
    expect(uploads).toHaveLength(1)
  })

  async function failure(promise: Promise<unknown>): Promise<SttEngineError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(SttEngineError)
    expect((error as Error).message).not.toContain(API_KEY)
    return error as SttEngineError
  }

  it('UNREACHABLE names the server and why, never the key', async () => {
    const baseUrl = await startDouble(() => ({ body: VERBOSE }))
    await new Promise((resolve) => server!.close(resolve))
    const error = await failure(createOpenAiCompatibleSttEngine({ baseUrl, apiKey: API_KEY }).transcribe(wav))
    expect(error.code).toBe('UNREACHABLE')
    expect(error.transient).toBe(true)
    expect(error.message).toBe(
      `Could not reach the speech server at ${baseUrl}: connection refused (is the server running?) (ECONNREFUSED)`,
    )
  })

  it("HTTP_ERROR gives the status and the server's own words, with the key struck out if it is echoed", async () => {
    const baseUrl = await startDouble(() => ({ status: 500, body: { error: { message: `model failed to load (key ${API_KEY})` } } }))
    const error = await failure(createOpenAiCompatibleSttEngine({ baseUrl, apiKey: API_KEY }).transcribe(wav))
    expect(error.code).toBe('HTTP_ERROR')
    expect(error.status).toBe(500)
    expect(error.transient).toBe(true)
    expect(error.message).toBe(
      `The speech server at ${baseUrl} answered HTTP 500 Internal Server Error (model whisper-1): model failed to load (key ***)`,
    )
  })

  it('TIMEOUT says how long it waited', async () => {
    const baseUrl = await startDouble(() => 'hang')
    const error = await failure(createOpenAiCompatibleSttEngine({ baseUrl, apiKey: API_KEY, timeoutMs: 300 }).transcribe(wav))
    expect(error.code).toBe('TIMEOUT')
    expect(error.transient).toBe(true)
    expect(error.message).toBe(`The speech server at ${baseUrl} did not answer within 300 ms (model whisper-1)`)
  })

  it.each([
    ['not JSON', 'Whisper says hi'],
    ['JSON without text', { transcript: 'hello' }],
  ])('BAD_RESPONSE for %s, quoting what came back', async (_, body) => {
    const baseUrl = await startDouble(() => ({ body }))
    const error = await failure(createOpenAiCompatibleSttEngine({ baseUrl, apiKey: API_KEY }).transcribe(wav))
    expect(error.code).toBe('BAD_RESPONSE')
    expect(error.transient).toBe(false)
    expect(error.message).toMatch(
      new RegExp(
        `^The speech server at ${baseUrl} answered something that is not a transcript \\(no "text"\\): .*(Whisper says hi|transcript)`,
      ),
    )
  })

  it("an abort rejects with the signal's reason, before or during the request", async () => {
    const baseUrl = await startDouble(() => 'hang')
    const engine = createOpenAiCompatibleSttEngine({ baseUrl })
    const reason = new Error('the caller hung up')
    await expect(engine.transcribe(wav, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
    const controller = new AbortController()
    const pending = engine.transcribe(wav, { signal: controller.signal })
    setTimeout(() => controller.abort(reason), 100)
    await expect(pending).rejects.toBe(reason)
  })

  it('refuses an address that is not an http(s) URL when created', () => {
    expect(() => createOpenAiCompatibleSttEngine({ baseUrl: 'localhost:8080' })).toThrow(/not a URL|http or https/)
    expect(() => createOpenAiCompatibleSttEngine({ baseUrl: 'ftp://example.com/v1' })).toThrow(
      'The speech server address must be http or https, not ftp:',
    )
  })
})
