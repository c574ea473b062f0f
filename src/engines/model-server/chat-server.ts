/*
 * What every engine that talks to an OpenAI-compatible chat-completions server (Ollama,
 * llama.cpp server, vLLM, LocalAI, a hosted API) shares: where to post, the headers, and the
 * wording of its errors. An error message names the server and says what went wrong; it never
 * contains the API key, even when a server echoes the key back.
 */

import { describeServer, networkReason } from './server-address'

export interface ChatServerOptions {
  /** The API root, e.g. http://127.0.0.1:11434/v1 (Ollama) or http://127.0.0.1:8080/v1 (llama.cpp server). */
  baseUrl: string
  model: string
  /** Sent as `Authorization: Bearer <apiKey>` when given; never appears in an error message. */
  apiKey?: string
}

export interface ChatServer {
  /** The server as shown in messages: origin and path, never credentials written into the URL. */
  readonly server: string
  /** `{baseUrl}/chat/completions`. */
  readonly endpoint: string
  readonly model: string
  /** JSON request headers, with the key when there is one. */
  headers(accept?: string): Record<string, string>
  /** An Error with the key taken out of its message. */
  fail(message: string): Error
  /** The error for an answer outside 2xx: the status and the server's own words. */
  httpFailure(status: number, statusText: string, responseText: string): Error
  /**
   * The error for a fetch (or a body read) that threw: the caller's abort reason when `signal`
   * was aborted, "did not answer within" when `timedOut`, else "could not reach".
   */
  requestFailure(error: unknown, context: { signal?: AbortSignal; timedOut: boolean; timeoutMs: number; abortMessage: string }): Error
}

const SNIPPET_LENGTH = 200

/** Checks the address (throws when it is not an http(s) URL) and returns the shared helpers for it. */
export function chatServer(options: ChatServerOptions): ChatServer {
  const server = describeServer(options.baseUrl, 'model server')
  const redact = (message: string) => (options.apiKey ? message.split(options.apiKey).join('***') : message)
  const fail = (message: string) => new Error(redact(message))
  return {
    server,
    endpoint: `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`,
    model: options.model,
    headers(accept = 'application/json') {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept }
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`
      return headers
    },
    fail,
    httpFailure(status, statusText, responseText) {
      const reason = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`
      return fail(`the model server at ${server} answered ${reason} for model ${options.model}: ${errorDetail(responseText)}`)
    },
    requestFailure(error, { signal, timedOut, timeoutMs, abortMessage }) {
      if (signal?.aborted) return abortReason(signal, abortMessage)
      if (timedOut) return fail(`the model server at ${server} did not answer within ${timeoutMs} ms (model ${options.model})`)
      return fail(`could not reach the model server at ${server}: ${networkReason(error)}`)
    },
  }
}

/** An aborted signal's reason when it is an Error, else an Error named AbortError, like fetch's own. */
export function abortReason(signal: AbortSignal, message: string): Error {
  if (signal.reason instanceof Error) return signal.reason
  const error = new Error(message)
  error.name = 'AbortError'
  return error
}

/** Why fetch failed to connect, from undici's error cause (an AggregateError when several addresses were tried). */
/** An error answer's message ({"error": {"message"}} or {"error": "..."}), else the start of the body. */
export function errorDetail(responseText: string): string {
  try {
    const parsed = JSON.parse(responseText) as { error?: string | { message?: string } }
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message
    if (message) return snippet(message)
  } catch {
    // Not JSON: show the text itself.
  }
  return snippet(responseText) || '(empty body)'
}

/** The start of a text on one line, for messages. */
export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > SNIPPET_LENGTH ? `${flat.slice(0, SNIPPET_LENGTH)}…` : flat
}
