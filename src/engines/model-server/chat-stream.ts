import { snippet, type ChatServer } from './chat-server'

/*
 * One chat completion asked for with `stream: true` and read as server-sent events
 * (`data: {...}` lines, then `data: [DONE]`), piece by piece. A server that ignores `stream`
 * and answers one JSON completion is read too.
 */

/** A tool call as it arrives: fragments of one call share an index; the arguments come in pieces to concatenate. */
export interface ToolCallDelta {
  index: number
  id?: string
  name?: string
  arguments?: string
}

/** One piece of the answer: some text, some tool-call fragments, or both. */
export interface ChatDelta {
  content?: string
  toolCalls?: ToolCallDelta[]
}

export interface StreamOptions {
  signal?: AbortSignal
  /** The longest the server may stay silent: before it answers, and between two pieces of its answer. */
  timeoutMs: number
  /** The message of the AbortError thrown when `signal` has no Error as its reason. */
  abortMessage: string
}

interface RawToolCall {
  index?: number
  id?: string
  function?: { name?: string; arguments?: unknown }
}

interface RawChoice {
  delta?: { content?: string | null; tool_calls?: RawToolCall[] }
  message?: { content?: string | null; tool_calls?: RawToolCall[] }
}

/**
 * Posts `body` (with `stream: true` added) and yields the answer's pieces. Rejects with the
 * server's errors worded by `chat` (could not reach, HTTP status, did not answer within, a broken
 * stream); the caller's abort stops the request at once and rejects with the signal's reason.
 * Stopping the iteration early aborts the request too.
 */
export async function* streamChat(chat: ChatServer, body: Record<string, unknown>, options: StreamOptions): AsyncGenerator<ChatDelta> {
  const { signal, timeoutMs, abortMessage } = options
  const controller = new AbortController()
  const onAbort = () => controller.abort()
  signal?.addEventListener('abort', onAbort, { once: true })
  let timedOut = false
  let timer: NodeJS.Timeout | undefined
  const armTimer = () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
  }
  const failure = (error: unknown) => chat.requestFailure(error, { signal, timedOut, timeoutMs, abortMessage })

  try {
    if (signal?.aborted) throw failure(signal.reason)
    armTimer()
    let response: Response
    try {
      response = await fetch(chat.endpoint, {
        method: 'POST',
        headers: chat.headers('text/event-stream, application/json'),
        body: JSON.stringify({ ...body, stream: true }),
        signal: controller.signal,
      })
    } catch (error) {
      throw failure(error)
    }
    const readAll = async () => {
      try {
        return await response.text()
      } catch (error) {
        throw failure(error)
      }
    }
    if (response.status < 200 || response.status > 299) throw chat.httpFailure(response.status, response.statusText, await readAll())
    const contentType = response.headers.get('content-type') ?? ''
    if (!contentType.includes('text/event-stream') && contentType.includes('json')) {
      // The server ignored `stream`: one whole completion.
      yield deltaFrom(parseJson(chat, await readAll(), 'a chat completion'), 'message')
      return
    }
    if (!response.body) throw chat.fail(`the model server at ${chat.server} answered without a body`)

    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let buffered = ''
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>
      try {
        chunk = await reader.read()
      } catch (error) {
        if (signal?.aborted || timedOut) throw failure(error)
        throw chat.fail(`the model server at ${chat.server} broke off its answer: ${(error as Error).message}`)
      }
      armTimer()
      buffered += chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true })
      const lines = buffered.split(/\r?\n/)
      buffered = chunk.done ? '' : (lines.pop() ?? '')
      for (const line of lines) {
        if (!line.startsWith('data:')) continue // event:, id:, comments, blank separators
        const data = line.slice(5).trim()
        if (data === '[DONE]') return
        if (!data) continue
        const delta = deltaFrom(parseJson(chat, data, 'a stream event'), 'delta')
        if (delta.content || delta.toolCalls) yield delta
      }
      if (chunk.done) return
    }
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
    controller.abort()
  }
}

function parseJson(chat: ChatServer, text: string, what: string): unknown {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw chat.fail(`the model server at ${chat.server} sent something that is not JSON instead of ${what}: ${snippet(text)}`)
  }
  const error = (parsed as { error?: string | { message?: string } } | null)?.error
  if (error) {
    const message = typeof error === 'string' ? error : (error.message ?? JSON.stringify(error))
    throw chat.fail(`the model server at ${chat.server} reported an error for model ${chat.model}: ${snippet(message)}`)
  }
  return parsed
}

function deltaFrom(parsed: unknown, field: 'delta' | 'message'): ChatDelta {
  const choice = (parsed as { choices?: RawChoice[] } | null)?.choices?.[0]
  const part = choice?.[field]
  const delta: ChatDelta = {}
  if (typeof part?.content === 'string' && part.content) delta.content = part.content
  if (Array.isArray(part?.tool_calls) && part.tool_calls.length > 0) {
    delta.toolCalls = part.tool_calls.map((call, position) => ({
      index: typeof call.index === 'number' ? call.index : position,
      id: call.id || undefined,
      name: call.function?.name || undefined,
      arguments: argumentsText(call.function?.arguments),
    }))
  }
  return delta
}

/** Argument fragments are text; a few servers send the whole arguments as an object. */
function argumentsText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  return typeof value === 'string' ? value : JSON.stringify(value)
}
