import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { OutcomeShape } from '../../../src/shared/api/outcome-shape'
import type { DialogueAgent, DialogueEvent, DialogueTool, ToolResult } from '../../../src/engines/dialogue/dialogue-engine'
import { createOpenAiCompatibleDialogueEngine } from '../../../src/engines/dialogue/openai-compatible-dialogue-engine'

/*
 * The chat model server here is a test double: a real node:http server on 127.0.0.1 that answers
 * as Ollama, llama.cpp server or vLLM would (server-sent events for streamed answers). It stands
 * for a model server outside this machine and fakes only that; the engine, fetch and the network
 * path are the real ones.
 */

interface ChatMessage {
  role: string
  content: string | null
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[]
  tool_call_id?: string
}

interface SeenRequest {
  url: string
  headers: IncomingMessage['headers']
  body: {
    model: string
    stream?: boolean
    messages: ChatMessage[]
    tools?: { type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }[]
    response_format?: { type: string }
  }
}

type Handler = (request: SeenRequest, response: ServerResponse, index: number) => void | Promise<void>

const servers: Server[] = []
const API_KEY = 'sk-local-secret-123'

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** Starts the model server double; `handlers[i]` answers the i-th request (the last one answers any beyond). */
async function startModelServer(...handlers: Handler[]): Promise<{ baseUrl: string; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = []
  const server = createServer((request, response) => {
    let raw = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (raw += chunk))
    request.on('end', () => {
      const seenRequest: SeenRequest = { url: request.url!, headers: request.headers, body: JSON.parse(raw || '{}') }
      const index = seen.push(seenRequest) - 1
      void handlers[Math.min(index, handlers.length - 1)]!(seenRequest, response, index)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen }
}

/** One streamed chunk as OpenAI-compatible servers send it. */
function chunk(delta: Record<string, unknown>): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'llama3.2', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`
}
const text = (content: string) => chunk({ content })
const toolCall = (index: number, fields: { id?: string; name?: string; arguments?: string }) =>
  chunk({
    tool_calls: [
      {
        index,
        ...(fields.id ? { id: fields.id, type: 'function' } : {}),
        function: { name: fields.name, arguments: fields.arguments ?? '' },
      },
    ],
  })

function startStream(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
}

/** Streams the chunks, then [DONE]. */
function streamed(...chunks: string[]): Handler {
  return (_request, response) => {
    startStream(response)
    for (const piece of chunks) response.write(piece)
    response.end('data: [DONE]\n\n')
  }
}

/** A whole (non-streamed) chat completion whose message is `content`. */
function completion(content: string): Handler {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify({
        id: 'chatcmpl-2',
        object: 'chat.completion',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
      }),
    )
  }
}

async function collect(events: AsyncIterable<DialogueEvent>): Promise<DialogueEvent[]> {
  const all: DialogueEvent[] = []
  for await (const event of events) all.push(event)
  return all
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

const agent: DialogueAgent = {
  agentName: 'Mona',
  lang: 'en',
  greeting: 'Hello Sara, this is Mona from Sunrise Clinic.',
  preamble: 'You book appointments for Sunrise Clinic. The caller is Sara.',
  outcome: 'Write down who called and which plan they chose.',
  outcomeShape: null,
  smartCallEnd: false,
}

const weatherTool: DialogueTool = {
  name: 'getWeather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
}

const say = (words: string): DialogueEvent => ({ type: 'say', text: words })

describe('the OpenAI-compatible dialogue engine: speaking', () => {
  it('opens with the greeting as it is, without asking the model, and keeps it in the history', async () => {
    const { baseUrl, seen } = await startModelServer(streamed(text('Sure.')))
    const engine = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2', apiKey: API_KEY })
    expect(engine.name).toBe('openai-compatible')
    const session = engine.startSession(agent, [])

    expect(await collect(session.open())).toEqual([say(agent.greeting)])
    expect(seen).toHaveLength(0)

    session.setCallerTraits({ gender: 'female' })
    await collect(session.respond('Can I book for Monday?'))
    const [request] = seen
    expect(request!.url).toBe('/v1/chat/completions')
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`)
    expect(request!.body.stream).toBe(true)
    expect(request!.body.model).toBe('llama3.2')
    const [system, greeting, caller] = request!.body.messages
    expect(system!.role).toBe('system')
    expect(system!.content).toContain(agent.preamble)
    expect(system!.content).toMatch(/Answer in English/)
    expect(system!.content).toMatch(/No Markdown/)
    expect(system!.content).toMatch(/a woman: address her with feminine forms in Arabic/)
    expect(greeting).toEqual({ role: 'assistant', content: agent.greeting })
    expect(caller).toEqual({ role: 'user', content: 'Can I book for Monday?' })
    expect(request!.body.tools!.map((tool) => tool.function.name)).toEqual(['end_call'])
  })

  it('yields the first sentence before the server has sent the rest, and never cuts inside a number', async () => {
    const firstSeen = deferred()
    let finished = false
    const { baseUrl, seen } = await startModelServer(async (_request, response) => {
      startStream(response)
      // A dot at the end of a piece: the next piece decides it is inside a number.
      response.write(text('The visit costs 3.'))
      response.write(text('5 dinars. It lasts'))
      // The rest is held until the test has seen the first sentence.
      await firstSeen.promise
      response.write(text(' half an hour!\nAnything else'))
      response.write(text('?'))
      response.end('data: [DONE]\n\n')
      finished = true
    })
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2' }).startSession(agent, [])
    const events = session.respond('How much is it?')[Symbol.asyncIterator]()

    const first = await events.next()
    expect(first.value).toEqual(say('The visit costs 3.5 dinars.'))
    expect(finished).toBe(false)
    firstSeen.resolve()
    const rest: DialogueEvent[] = []
    for (let next = await events.next(); !next.done; next = await events.next()) rest.push(next.value)
    expect(rest).toEqual([say('It lasts half an hour!'), say('Anything else?')])

    // The whole answer is in the history of the next request.
    await collect(session.respond('No, thanks.'))
    expect(seen[1]!.body.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'The visit costs 3.5 dinars. It lasts half an hour! Anything else?' },
      { role: 'user', content: 'No, thanks.' },
    ])
  })

  it('splits Arabic questions and ellipses, and leaves out a reasoning model’s <think> block', async () => {
    const { baseUrl } = await startModelServer(
      streamed(text('<think>The caller wants'), text(' a time.</think>أهلاً بك'), text('؟ لحظة… '), text('سأتحقق.')),
    )
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'qwen3' }).startSession({ ...agent, lang: 'ar' }, [])
    expect(await collect(session.respond('مرحبا'))).toEqual([say('أهلاً بك؟'), say('لحظة…'), say('سأتحقق.')])
  })
})

describe('the OpenAI-compatible dialogue engine: tools', () => {
  it('runs a streamed tool call with its arguments in declared order, sends the result back and says the answer', async () => {
    const { baseUrl, seen } = await startModelServer(
      streamed(
        text('Let me check. '),
        toolCall(0, { id: 'call_7', name: 'getWeather' }),
        toolCall(0, { arguments: '{"unit": "celsius", ' }),
        toolCall(0, { arguments: '"extra": true, "city": "Dubai"}' }),
      ),
      streamed(text('It is sunny in Dubai, 31 degrees.')),
    )
    const calls: { name: string; args: Record<string, unknown> }[] = []
    const callTool = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
      calls.push({ name, args })
      return { ok: true, response: { sky: 'sunny', temperature: 31 } }
    }
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2' }).startSession(agent, [weatherTool])

    const events = await collect(session.respond('What is the weather in Dubai?', { callTool }))

    expect(events).toEqual([say('Let me check.'), say('It is sunny in Dubai, 31 degrees.')])
    expect(calls).toHaveLength(1)
    expect(calls[0]!.name).toBe('getWeather')
    expect(Object.keys(calls[0]!.args)).toEqual(['city', 'unit', 'extra'])
    expect(calls[0]!.args).toEqual({ city: 'Dubai', unit: 'celsius', extra: true })

    const offered = seen[0]!.body.tools!
    expect(offered[0]).toEqual({
      type: 'function',
      function: { name: 'getWeather', description: 'The weather in a city', parameters: weatherTool.parameters },
    })
    expect(offered[1]!.function.name).toBe('end_call')
    expect(offered[1]!.function.description).toMatch(/end the call after saying goodbye/i)

    const [assistant, tool] = seen[1]!.body.messages.slice(-2)
    expect(assistant!.role).toBe('assistant')
    expect(assistant!.content).toBe('Let me check.')
    expect(assistant!.tool_calls).toEqual([
      {
        id: 'call_7',
        type: 'function',
        function: { name: 'getWeather', arguments: '{"unit": "celsius", "extra": true, "city": "Dubai"}' },
      },
    ])
    expect(tool).toEqual({ role: 'tool', tool_call_id: 'call_7', content: JSON.stringify({ sky: 'sunny', temperature: 31 }) })
  })

  it('tells the model the error text when the tool fails', async () => {
    const { baseUrl, seen } = await startModelServer(
      streamed(toolCall(0, { id: 'call_1', name: 'getWeather', arguments: '{"city":"Doha"}' })),
      streamed(text('Sorry, I cannot see the weather right now.')),
    )
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2' }).startSession(agent, [weatherTool])
    const events = await collect(
      session.respond('Weather in Doha?', { callTool: async () => ({ ok: false, error: 'the weather service is down' }) }),
    )
    expect(events).toEqual([say('Sorry, I cannot see the weather right now.')])
    expect(seen[1]!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'Error: the weather service is down' })
  })

  it('answers the model that the tool is unavailable when the call has no callTool', async () => {
    const { baseUrl, seen } = await startModelServer(
      streamed(toolCall(0, { id: 'call_1', name: 'getWeather', arguments: '{"city":"Doha"}' })),
      streamed(text('I cannot check that on this call.')),
    )
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2' }).startSession(agent, [weatherTool])
    expect(await collect(session.respond('Weather in Doha?'))).toEqual([say('I cannot check that on this call.')])
    expect(seen[1]!.body.messages.at(-1)!.content).toMatch(/not available/)
  })

  it('tells the model the tool did not answer in time, and an abort while a tool runs rejects at once', async () => {
    const askWeather = streamed(toolCall(0, { id: 'call_1', name: 'getWeather', arguments: '{"city":"Doha"}' }))
    const { baseUrl, seen } = await startModelServer(
      askWeather,
      streamed(text('The weather service is slow today.')),
      askWeather,
      streamed(text('Alright.')),
    )
    const never = () => new Promise<ToolResult>(() => undefined)
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2', toolTimeoutMs: 100 }).startSession(agent, [
      weatherTool,
    ])
    expect(await collect(session.respond('Weather?', { callTool: never }))).toEqual([say('The weather service is slow today.')])
    expect(seen[1]!.body.messages.at(-1)!.content).toBe('Error: the tool getWeather did not answer within 100 ms')

    // The abort comes while the tool runs (not on a timer, which a busy machine can make fire before the model has asked for it).
    const controller = new AbortController()
    const toolRuns = () => {
      setImmediate(() => controller.abort(new Error('hung up')))
      return never()
    }
    const waiting = collect(session.respond('Weather again?', { signal: controller.signal, callTool: toolRuns }))
    await expect(waiting).rejects.toThrow('hung up')
    // The interrupted call is still answered in the history the next turn sends.
    await collect(session.respond('Never mind.'))
    expect(seen[3]!.body.messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'Error: the turn was interrupted before this ran.' },
      { role: 'user', content: 'Never mind.' },
    ])
  })

  it('stops running tools after four rounds in one turn: the last request offers only end_call', async () => {
    const { baseUrl, seen } = await startModelServer((request, response, index) => {
      const tools = request.body.tools!.map((tool) => tool.function.name)
      const answer = tools.includes('getWeather')
        ? streamed(toolCall(0, { id: `call_${index}`, name: 'getWeather', arguments: '{"city":"Doha"}' }))
        : streamed(text('I could not get the weather.'))
      return answer(request, response, index)
    })
    let runs = 0
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2' }).startSession(agent, [weatherTool])
    const events = await collect(session.respond('Weather?', { callTool: async () => ({ ok: true, response: (runs += 1) }) }))
    expect(runs).toBe(4)
    expect(seen).toHaveLength(5)
    expect(seen[4]!.body.tools!.map((tool) => tool.function.name)).toEqual(['end_call'])
    expect(events).toEqual([say('I could not get the weather.')])
  })

  it('ends the call when the model calls end_call: goodbye, or smart-end when the goal is met and the agent asks for it', async () => {
    const ending = (args: string) =>
      streamed(text('Thank you, goodbye.'), toolCall(0, { id: 'call_end', name: 'end_call', arguments: args }))
    const plain = await startModelServer(ending('{}'))
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl: plain.baseUrl, model: 'llama3.2' }).startSession(agent, [])
    expect(await collect(session.respond('That is all, bye.'))).toEqual([
      say('Thank you, goodbye.'),
      { type: 'end-call', reason: 'goodbye' },
    ])
    expect(plain.seen).toHaveLength(1)

    const smart = await startModelServer(ending('{"goal_met": true}'))
    const smartSession = createOpenAiCompatibleDialogueEngine({ baseUrl: smart.baseUrl, model: 'llama3.2' }).startSession(
      { ...agent, smartCallEnd: true },
      [],
    )
    expect(await collect(smartSession.respond('Yes, Monday at ten is right.'))).toEqual([
      say('Thank you, goodbye.'),
      { type: 'end-call', reason: 'smart-end' },
    ])
    const endCall = smart.seen[0]!.body.tools!.find((tool) => tool.function.name === 'end_call')!
    expect(endCall.function.parameters).toMatchObject({ properties: { goal_met: { type: 'boolean' } } })
    expect(smart.seen[0]!.body.messages[0]!.content).toMatch(/goal_met true/)
  })
})

const planShape: OutcomeShape = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    age: { type: 'integer' },
    plan: { type: 'string', enum: ['basic', 'pro'] },
  },
  required: ['name', 'plan'],
}
const outcomeAgent: DialogueAgent = { ...agent, outcomeShape: planShape }
const transcript = [
  { role: 'agent' as const, text: 'Which plan would you like?' },
  { role: 'caller' as const, text: 'The pro plan, I am Sara, 41.' },
]

describe('the OpenAI-compatible dialogue engine: outcome', () => {
  it('returns a valid first answer as complete, asked for as a JSON object with the schema and the transcript', async () => {
    const { baseUrl, seen } = await startModelServer(completion('{"name": "Sara", "age": 41, "plan": "pro"}'))
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2' }).startSession(outcomeAgent, [])
    expect(await session.outcome(transcript)).toEqual({ result: { name: 'Sara', age: 41, plan: 'pro' }, complete: true })
    expect(seen).toHaveLength(1)
    const { body } = seen[0]!
    expect(body.stream).toBeUndefined()
    expect(body.response_format).toEqual({ type: 'json_object' })
    expect(body.messages[0]!.content).toContain(outcomeAgent.outcome)
    expect(body.messages[0]!.content).toContain(JSON.stringify(planShape))
    expect(body.messages[1]!.content).toContain('Caller: The pro plan, I am Sara, 41.')
  })

  it('asks once more with the problems when the first answer does not fit, and keeps a valid second answer', async () => {
    const { baseUrl, seen } = await startModelServer(
      completion('{"name": "Sara", "age": "41", "plan": "pro"}'),
      completion('{"name": "Sara", "age": 41, "plan": "pro"}'),
    )
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2' }).startSession(outcomeAgent, [])
    expect(await session.outcome(transcript)).toEqual({ result: { name: 'Sara', age: 41, plan: 'pro' }, complete: true })
    expect(seen).toHaveLength(2)
    const retry = seen[1]!.body.messages
    expect(retry.at(-2)).toEqual({ role: 'assistant', content: '{"name": "Sara", "age": "41", "plan": "pro"}' })
    expect(retry.at(-1)!.content).toContain('/age must be integer')
  })

  it('keeps the best valid partial, marked incomplete with its problems, when both answers do not fit', async () => {
    const { baseUrl, seen } = await startModelServer(
      completion('not json at all'),
      completion('```json\n{"name": "Sara", "age": "forty-one", "plan": "gold", "mood": "happy"}\n```'),
    )
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2' }).startSession(outcomeAgent, [])
    const outcome = await session.outcome(transcript)
    expect(seen).toHaveLength(2)
    expect(seen[1]!.body.messages.at(-1)!.content).toMatch(/not a JSON object/)
    expect(outcome.result).toEqual({ name: 'Sara' })
    expect(outcome.complete).toBe(false)
    expect(outcome.problems).toEqual(
      expect.arrayContaining(['/age must be integer', expect.stringMatching(/^\/plan must be equal to one of the allowed values/)]),
    )
  })

  it('has no outcome to write when the agent has no shape', async () => {
    const { baseUrl, seen } = await startModelServer(completion('{}'))
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2' }).startSession(agent, [])
    expect(await session.outcome(transcript)).toEqual({ result: null, complete: true })
    expect(seen).toHaveLength(0)
  })
})

describe('the OpenAI-compatible dialogue engine: failures', () => {
  it('rejects with the HTTP status and the server’s words, never the key', async () => {
    const { baseUrl } = await startModelServer((_request, response) => {
      response.writeHead(500, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: `model "llama3.2" crashed (key ${API_KEY})` } }))
    })
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2', apiKey: API_KEY }).startSession(outcomeAgent, [])
    const error = await collect(session.respond('Hello?')).catch((caught: Error) => caught)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/answered HTTP 500 Internal Server Error for model llama3\.2: model "llama3\.2" crashed/)
    expect((error as Error).message).not.toContain(API_KEY)
    await expect(session.outcome(transcript)).rejects.toThrow(/HTTP 500/)
  })

  it('rejects with "could not reach" when nothing listens', async () => {
    const { baseUrl } = await startModelServer(streamed())
    const server = servers.pop()!
    await new Promise((resolve) => server.close(resolve))
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2', apiKey: API_KEY }).startSession(agent, [])
    const error = (await collect(session.respond('Hello?')).catch((caught: Error) => caught)) as Error
    expect(error.message).toMatch(/^could not reach the model server at http:\/\/127\.0\.0\.1:\d+\/v1: connection refused/)
    expect(error.message).not.toContain(API_KEY)
  })

  it('rejects with "did not answer within" when the server stays silent, before or during its answer', async () => {
    const silent = await startModelServer(() => undefined)
    const session = createOpenAiCompatibleDialogueEngine({
      baseUrl: silent.baseUrl,
      model: 'llama3.2',
      apiKey: API_KEY,
      timeoutMs: 200,
    }).startSession(agent, [])
    const error = (await collect(session.respond('Hello?')).catch((caught: Error) => caught)) as Error
    expect(error.message).toMatch(/did not answer within 200 ms \(model llama3\.2\)/)
    expect(error.message).not.toContain(API_KEY)

    const stalls = await startModelServer((_request, response) => {
      startStream(response)
      response.write(text('One moment. '))
    })
    const stalled = createOpenAiCompatibleDialogueEngine({ baseUrl: stalls.baseUrl, model: 'llama3.2', timeoutMs: 200 }).startSession(
      agent,
      [],
    )
    const said: DialogueEvent[] = []
    const midway = await (async () => {
      for await (const event of stalled.respond('Hello?')) said.push(event)
    })().catch((caught: Error) => caught)
    expect(said).toEqual([say('One moment.')])
    expect((midway as Error).message).toMatch(/did not answer within 200 ms/)
  })

  it('rejects the outcome with "did not answer within" when the server stays silent', async () => {
    const { baseUrl } = await startModelServer(() => undefined)
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2', apiKey: API_KEY, timeoutMs: 200 }).startSession(
      outcomeAgent,
      [],
    )
    await expect(session.outcome(transcript)).rejects.toThrow(/did not answer within 200 ms/)
  })

  it('stops at once on abort mid-stream: the request is dropped and the iteration rejects with the signal’s reason', async () => {
    const closed = deferred()
    const { baseUrl } = await startModelServer((_request, response) => {
      startStream(response)
      response.write(text('Let me see. Our opening hours'))
      response.on('close', closed.resolve)
    })
    const controller = new AbortController()
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2' }).startSession(agent, [])
    const events = session.respond('When are you open?', { signal: controller.signal })[Symbol.asyncIterator]()
    expect((await events.next()).value).toEqual(say('Let me see.'))
    const bargeIn = new Error('the caller barged in')
    const pending = events.next()
    controller.abort(bargeIn)
    await expect(pending).rejects.toBe(bargeIn)
    await closed.promise // the server saw the connection go
  })

  it('keeps what was said in the history when the host stops listening mid-answer', async () => {
    const { baseUrl, seen } = await startModelServer(streamed(text('First this. Then that. And more.')), streamed(text('Sure.')))
    const session = createOpenAiCompatibleDialogueEngine({ baseUrl, model: 'llama3.2' }).startSession(agent, [])
    for await (const event of session.respond('Tell me.')) {
      expect(event).toEqual(say('First this.'))
      break
    }
    await collect(session.respond('Stop.'))
    expect(seen[1]!.body.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'First this.' },
      { role: 'user', content: 'Stop.' },
    ])
  })
})
