/**
 * settings.testEngine over browser mode (a real runtime, POST /ipc/settings.testEngine). The
 * chat-model and speech-recognition servers are loopback doubles on 127.0.0.1: they stand for
 * servers outside this machine (Ollama, llama.cpp, vLLM, whisper.cpp, speaches, a hosted API),
 * each scripted to give one of the answers the operation must put in words.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestService } from '../helpers/test-service'
import { ipcClient } from './ipc-client'

const KEY = 'sk-test-connection-secret-4f2a9c'

interface SeenRequest {
  method: string
  path: string
  authorization: string | undefined
  contentType: string | undefined
}

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A loopback double of an OpenAI-compatible server; `answer` handles each request (after its body is read). */
async function startDouble(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = []
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      seen.push({
        method: request.method!,
        path: request.url!,
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
      })
      answer(request, response)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen }
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}
const modelList = (...ids: string[]) => ({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) })

/** A free port with nothing listening on it: connections are refused. */
async function closedPort(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}/v1`
}

async function start() {
  const service = await startTestService({ port: 0 })
  const url = await service.runtime.start()
  return { service, ipc: ipcClient(url, service.runtime.uiToken) }
}

describe('settings.testEngine: the AI engine', () => {
  it('finds the model in GET <baseUrl>/models, with the stored key, and says how long it took', async () => {
    const { ipc } = await start()
    const double = await startDouble((request, response) =>
      json(response, request.headers.authorization === `Bearer ${KEY}` ? 200 : 401, modelList('llama3.2', 'qwen2.5')),
    )
    await ipc.ok('settings.setAiEngine', { engine: 'openai-compatible', baseUrl: double.url, model: 'qwen2.5', apiKey: KEY })
    const result = await ipc.ok('settings.testEngine', { kind: 'ai' })
    expect(result).toMatchObject({
      kind: 'ai',
      outcome: 'reachable',
      ok: true,
      server: double.url,
      model: 'qwen2.5',
      checked: 'models',
      httpStatus: 200,
    })
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0)
    expect(result.message).toBe(`Model server at ${double.url} is reachable and lists the model qwen2.5`)
    expect(double.seen).toEqual([{ method: 'GET', path: '/v1/models', authorization: `Bearer ${KEY}`, contentType: undefined }])
    // The form's unsaved values, key left out: the stored key still goes with them.
    const unsaved = await ipc.ok('settings.testEngine', {
      kind: 'ai',
      setting: { engine: 'openai-compatible', baseUrl: double.url, model: 'mistral' },
    })
    expect(unsaved).toMatchObject({ outcome: 'modelMissing', ok: false, models: ['llama3.2', 'qwen2.5'], httpStatus: 200 })
    expect(unsaved.message).toMatch(/is reachable, but it does not list the model mistral \(it lists llama3\.2, qwen2\.5\)/)
    expect(double.seen[1]?.authorization).toBe(`Bearer ${KEY}`)
  })

  it('says 401 without the key, never returning it even when the server echoes it', async () => {
    const { ipc } = await start()
    const double = await startDouble((request, response) =>
      json(response, 401, { error: { message: `Incorrect API key provided: ${request.headers.authorization ?? 'none'}` } }),
    )
    const result = await ipc.ok('settings.testEngine', {
      kind: 'ai',
      setting: { engine: 'openai-compatible', baseUrl: double.url, model: 'm', apiKey: KEY },
    })
    expect(result).toMatchObject({ outcome: 'unauthorized', ok: false, httpStatus: 401 })
    expect(result.message).toMatch(
      /answered HTTP 401 Unauthorized \(the API key is missing or not accepted\): Incorrect API key provided: Bearer \*\*\*/,
    )
    expect(JSON.stringify(result)).not.toContain(KEY)
  })

  it('tells connection refused, a timeout, another HTTP error and an answer that is not an OpenAI model list apart', async () => {
    const { ipc } = await start()
    const test = (baseUrl: string, timeoutMs?: number) =>
      ipc.ok('settings.testEngine', {
        kind: 'ai',
        setting: { engine: 'openai-compatible', baseUrl, model: 'm', ...(timeoutMs ? { timeoutMs } : {}) },
      })

    const refused = await test(await closedPort())
    expect(refused).toMatchObject({ outcome: 'refused', ok: false })
    expect(refused.message).toMatch(
      /^Could not reach the model server at http:\/\/127\.0\.0\.1:\d+\/v1: connection refused \(is the server running\?\) \(ECONNREFUSED\)$/,
    )

    const silent = await startDouble(() => {}) // reads the request, never answers
    const timedOut = await test(silent.url, 1_000)
    expect(timedOut).toMatchObject({ outcome: 'timeout', ok: false })
    expect(timedOut.message).toBe(`The model server at ${silent.url} did not answer within 1000 ms`)
    expect(timedOut.elapsedMs).toBeGreaterThanOrEqual(990)

    const broken = await startDouble((_request, response) => json(response, 500, { error: 'model loading failed' }))
    expect(await test(broken.url)).toMatchObject({
      outcome: 'httpError',
      httpStatus: 500,
      message: expect.stringMatching(/answered HTTP 500 Internal Server Error: model loading failed$/),
    })

    const webPage = await startDouble((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<html><body>Welcome to nginx!</body></html>')
    })
    expect(await test(webPage.url)).toMatchObject({
      outcome: 'notOpenAiCompatible',
      httpStatus: 200,
      message: expect.stringMatching(/not an OpenAI-compatible model list: <html><body>Welcome to nginx!/),
    })
  })

  it('says there is nothing to test while the engine is offline, and refuses a form that is not an address', async () => {
    const { ipc } = await start()
    expect(await ipc.ok('settings.testEngine', { kind: 'ai' })).toMatchObject({
      outcome: 'notConfigured',
      ok: false,
      message: expect.stringMatching(/offline/),
    })
    expect(await ipc.ok('settings.testEngine', { kind: 'stt' })).toMatchObject({
      outcome: 'notConfigured',
      ok: false,
      message: expect.stringMatching(/Speech recognition is off/),
    })
    expect(
      await ipc.call('settings.testEngine', { kind: 'ai', setting: { engine: 'openai-compatible', baseUrl: 'ftp://x', model: 'm' } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'setting.baseUrl' }] },
    })
    expect(await ipc.call('settings.testEngine', { kind: 'tts' } as never)).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    })
  })
})

describe('settings.testEngine: speech recognition', () => {
  it('reads the model list of a server that has one', async () => {
    const { ipc } = await start()
    const double = await startDouble((_request, response) => json(response, 200, modelList('Systran/faster-whisper-small')))
    await ipc.ok('settings.setSttEngine', { engine: 'openai-compatible', baseUrl: double.url, model: 'Systran/faster-whisper-small' })
    expect(await ipc.ok('settings.testEngine', { kind: 'stt' })).toMatchObject({
      kind: 'stt',
      outcome: 'reachable',
      checked: 'models',
      model: 'Systran/faster-whisper-small',
    })
    expect(double.seen.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models'])
  })

  it('transcribes half a second of silence (a WAV) when the server has no /models route, as whisper.cpp', async () => {
    const { ipc } = await start()
    const double = await startDouble((request, response) => {
      if (request.url === '/v1/models') return json(response, 404, { error: 'Not Found' })
      if (request.headers.authorization !== `Bearer ${KEY}`) return json(response, 401, { error: 'bad key' })
      json(response, 200, { text: '' })
    })
    const setting = { engine: 'openai-compatible' as const, baseUrl: double.url, apiKey: KEY }
    expect(await ipc.ok('settings.testEngine', { kind: 'stt', setting })).toMatchObject({
      outcome: 'reachable',
      ok: true,
      checked: 'transcription',
    })
    expect(double.seen.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models', 'POST /v1/audio/transcriptions'])
    expect(double.seen[1]?.contentType).toMatch(/^multipart\/form-data/)
    const wrongKey = await ipc.ok('settings.testEngine', { kind: 'stt', setting: { ...setting, apiKey: 'another-key' } })
    expect(wrongKey).toMatchObject({ outcome: 'unauthorized', ok: false, checked: 'transcription', httpStatus: 401 })

    const notSpeech = await startDouble((request, response) =>
      request.url === '/v1/models' ? json(response, 404, {}) : json(response, 200, { hello: 'world' }),
    )
    expect(
      await ipc.ok('settings.testEngine', { kind: 'stt', setting: { engine: 'openai-compatible', baseUrl: notSpeech.url } }),
    ).toMatchObject({
      outcome: 'notOpenAiCompatible',
      checked: 'transcription',
      message: expect.stringMatching(/not a transcript/),
    })
  })
})
