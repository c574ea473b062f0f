import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createOpenAiCompatibleEngine } from '../../../src/engines/ai-content/openai-compatible-engine'

/*
 * These tests talk real HTTP to a server started here on 127.0.0.1. It stands in for a local
 * model server (Ollama, llama.cpp) and fakes only that server, which is outside this project;
 * the engine, fetch and the network path are the real ones.
 */

interface SeenRequest {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: { model?: string; messages?: { role: string; content: string }[]; temperature?: number; response_format?: { type: string } }
}

const servers: Server[] = []

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** Starts a model server whose answers `respond` writes; returns its /v1 base URL and the requests it saw. */
async function startModelServer(
  respond: (request: SeenRequest, response: ServerResponse) => void,
): Promise<{ baseUrl: string; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = []
  const server = createServer((request, response) => {
    let raw = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (raw += chunk))
    request.on('end', () => {
      const seenRequest = { method: request.method!, url: request.url!, headers: request.headers, body: JSON.parse(raw || '{}') }
      seen.push(seenRequest)
      respond(seenRequest, response)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen }
}

/** A chat completion as OpenAI-compatible servers answer it, with `content` as the assistant's message. */
function answerWith(content: string, status = 200) {
  return (_request: SeenRequest, response: ServerResponse) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: 'llama3.2',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
      }),
    )
  }
}

const TEXT = 'Host: Today we talk about heat pumps.\nGuest: A heat pump moves heat rather than making it, and insulation comes first.'
const API_KEY = 'sk-local-secret-123'

describe('the OpenAI-compatible engine', () => {
  it('asks for the requested parts as JSON and returns exactly those parts', async () => {
    const parts = { summary: 'Heat pumps move heat; insulate first.', keywords: 'heat pump, insulation', extra: 'not asked for' }
    const { baseUrl, seen } = await startModelServer(answerWith(JSON.stringify(parts)))
    const engine = createOpenAiCompatibleEngine({ baseUrl, model: 'llama3.2', apiKey: API_KEY })
    expect(engine.name).toBe('openai-compatible')

    const result = await engine.generate({ text: TEXT, parts: ['summary', 'keywords'], title: 'Episode 12' })

    expect(result).toEqual({ summary: parts.summary, keywords: parts.keywords })
    expect(seen).toHaveLength(1)
    const [request] = seen
    expect(request!.method).toBe('POST')
    expect(request!.url).toBe('/v1/chat/completions')
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`)
    expect(request!.headers['content-type']).toMatch(/application\/json/)
    expect(request!.body.model).toBe('llama3.2')
    expect(typeof request!.body.temperature).toBe('number')
    expect(request!.body.response_format).toEqual({ type: 'json_object' })
    const prompt = request!.body.messages!.map((message) => message.content).join('\n')
    expect(prompt).toContain('summary')
    expect(prompt).toContain('keywords')
    expect(prompt).not.toContain('linkedInPost')
    expect(prompt).toContain('English')
    expect(prompt).toContain('A heat pump moves heat')
    expect(prompt).toContain('Episode 12')
  })

  it('asks for Arabic output for an Arabic text, sends no Authorization without a key, and accepts a fenced answer', async () => {
    const { baseUrl, seen } = await startModelServer(answerWith('```json\n{"summary": "ملخص قصير عن الري بالتنقيط."}\n```'))
    const engine = createOpenAiCompatibleEngine({ baseUrl: `${baseUrl}/`, model: 'qwen2.5' })

    const result = await engine.generate({ text: 'يخفض الري بالتنقيط استهلاك المياه في المزارع.', parts: ['summary'] })

    expect(result).toEqual({ summary: 'ملخص قصير عن الري بالتنقيط.' })
    expect(seen[0]!.url).toBe('/v1/chat/completions')
    expect(seen[0]!.headers.authorization).toBeUndefined()
    expect(seen[0]!.body.messages!.map((message) => message.content).join('\n')).toContain('Arabic')
  })

  it('takes a list of strings as lines', async () => {
    const { baseUrl } = await startModelServer(answerWith(JSON.stringify({ titles: ['One', 'Two', 'Three'] })))
    const engine = createOpenAiCompatibleEngine({ baseUrl, model: 'm' })
    await expect(engine.generate({ text: TEXT, parts: ['titles'] })).resolves.toEqual({ titles: 'One\nTwo\nThree' })
  })

  it('rejects an HTTP error with its status and message, never the API key', async () => {
    const { baseUrl } = await startModelServer((_request, response) => {
      response.writeHead(500, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: `model "llama3.2" not found (key ${API_KEY})` } }))
    })
    const engine = createOpenAiCompatibleEngine({ baseUrl, model: 'llama3.2', apiKey: API_KEY })
    const error = await engine.generate({ text: TEXT, parts: ['summary'] }).catch((caught: Error) => caught)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/answered HTTP 500 Internal Server Error for model llama3\.2/)
    expect((error as Error).message).toContain('model "llama3.2" not found')
    expect((error as Error).message).not.toContain(API_KEY)
  })

  it('rejects a message that is not JSON', async () => {
    const { baseUrl } = await startModelServer(answerWith('Sure! Here is your summary: heat pumps are great.'))
    const engine = createOpenAiCompatibleEngine({ baseUrl, model: 'm' })
    await expect(engine.generate({ text: TEXT, parts: ['summary'] })).rejects.toThrow(
      /the model answered invalid JSON: Sure! Here is your summary/,
    )
  })

  it('rejects a body that is not a chat completion', async () => {
    const { baseUrl } = await startModelServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<html>proxy login</html>')
    })
    const engine = createOpenAiCompatibleEngine({ baseUrl, model: 'm' })
    await expect(engine.generate({ text: TEXT, parts: ['summary'] })).rejects.toThrow(/answered invalid JSON instead of a chat completion/)
  })

  it('rejects an answer that lacks requested parts or has empty ones', async () => {
    const { baseUrl } = await startModelServer(answerWith(JSON.stringify({ summary: 'A summary.' })))
    const engine = createOpenAiCompatibleEngine({ baseUrl, model: 'm' })
    await expect(engine.generate({ text: TEXT, parts: ['summary', 'keywords', 'faq'] })).rejects.toThrow(/lacks the parts keywords, faq/)

    const { baseUrl: emptyUrl } = await startModelServer(answerWith(JSON.stringify({ summary: '   ', keywords: 42 })))
    const emptyEngine = createOpenAiCompatibleEngine({ baseUrl: emptyUrl, model: 'm' })
    await expect(emptyEngine.generate({ text: TEXT, parts: ['summary', 'keywords'] })).rejects.toThrow(
      /not non-empty text: summary, keywords/,
    )
  })

  it('rejects when nothing listens on the port', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const engine = createOpenAiCompatibleEngine({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: API_KEY })
    const error = (await engine.generate({ text: TEXT, parts: ['summary'] }).catch((caught: Error) => caught)) as Error
    expect(error.message).toMatch(new RegExp(`could not reach the model server at http://127.0.0.1:${port}/v1: connection refused`))
    expect(error.message).not.toContain(API_KEY)
  })

  it('rejects when the server does not answer in time', async () => {
    const { baseUrl } = await startModelServer(() => {
      // Never answers, like a model still loading.
    })
    const engine = createOpenAiCompatibleEngine({ baseUrl, model: 'm', timeoutMs: 200 })
    const started = performance.now()
    await expect(engine.generate({ text: TEXT, parts: ['summary'] })).rejects.toThrow(/did not answer within 200 ms/)
    expect(performance.now() - started).toBeLessThan(3_000)
  })

  it("rejects with the caller's AbortError when the caller aborts", async () => {
    const { baseUrl } = await startModelServer(() => {})
    const engine = createOpenAiCompatibleEngine({ baseUrl, model: 'm' })
    const controller = new AbortController()
    const running = engine.generate({ text: TEXT, parts: ['summary'] }, controller.signal)
    setTimeout(() => controller.abort(), 50)
    await expect(running).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('refuses a base URL that is not http(s)', () => {
    expect(() => createOpenAiCompatibleEngine({ baseUrl: 'not a url', model: 'm' })).toThrow(/not a URL/)
    expect(() => createOpenAiCompatibleEngine({ baseUrl: 'file:///tmp/model', model: 'm' })).toThrow(/http or https/)
  })
})
