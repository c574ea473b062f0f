import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingMessage } from 'node:http'
import type { WebSocket } from 'ws'
import type { JournalBody, NewJournalEntry } from '../../store/request-journal'
import { keyHint } from '../ops/api-keys'
import { jsonBody, redactHeaders, redactQuery, textBody } from '../request-journal/redaction'
import type { RequestJournal } from '../request-journal/request-journal'

/** What readMediaUpload saw of an upload: its text parts and the file's name and size (never its bytes). */
export interface UploadForJournal {
  fields: Record<string, unknown>
  file: { filename: string; size: number; mimetype: string } | null
}

/** A request being journaled: references only, taken as it passes; the entry is built in the journal's batch. */
interface Capture {
  startedAt: number
  startedMs: number
  /** The answer's payload as Fastify sends it: text is kept, a Buffer or a stream only by size. */
  payload?: unknown
  /** Set once the request became a WebSocket: the session writes its own entry when it closes. */
  upgraded?: boolean
}

declare module 'fastify' {
  interface FastifyRequest {
    journalCapture: Capture | undefined
    /** Set by readMediaUpload for the journal. */
    uploadForJournal: UploadForJournal | undefined
  }
}

/** What the journal records: /v1 and the call socket; not /healthz, media, the operator UI, nor /_voicedesk itself. */
function isJournaled(url: string): boolean {
  return url.startsWith('/v1/') || url.startsWith('/v1?') || url === '/v1' || url.startsWith('/stream/')
}

function splitUrl(url: string): { path: string; query: string } {
  const mark = url.indexOf('?')
  return mark === -1 ? { path: url, query: '' } : { path: url.slice(0, mark), query: url.slice(mark + 1) }
}

/** The raw key the caller sent (header or ?api_key=), to scrub from every text the entry keeps. */
function keysSent(request: FastifyRequest): string[] {
  const keys: string[] = []
  const authorization = request.headers.authorization
  const match = authorization === undefined ? null : /^\S+\s+(\S+)/.exec(authorization)
  if (match) keys.push(match[1]!)
  const header = request.headers['x-api-key']
  if (typeof header === 'string') keys.push(header)
  const query = request.query as Record<string, unknown> | undefined
  if (query && typeof query.api_key === 'string') keys.push(query.api_key)
  return keys
}

/** The job or conversation a request touched: its id in the URL, else a job the answer names. */
function resourceOf(request: FastifyRequest, path: string, responseText: string | null): string | null {
  const params = request.params as Record<string, unknown> | undefined
  const query = request.query as Record<string, unknown> | undefined
  for (const value of [params?.jobId, query?.jobId]) if (typeof value === 'string' && value !== '') return value
  if (responseText === null || !(path.startsWith('/v1/jobs') || path.startsWith('/v1/realtime/stt') || path.startsWith('/v1/voice-agents/conversation'))) return null
  try {
    const data = (JSON.parse(responseText) as { data?: unknown }).data
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null
    const { jobId, id } = data as { jobId?: unknown; id?: unknown }
    if (typeof jobId === 'string') return jobId
    return typeof id === 'string' ? id : null
  } catch {
    return null
  }
}

function contentTypeOf(headers: Record<string, unknown>): string | null {
  const value = headers['content-type']
  return typeof value === 'string' ? value : null
}

function requestBodyOf(request: FastifyRequest, secrets: string[]): JournalBody | null {
  const contentType = contentTypeOf(request.headers)
  const lengthHeader = request.headers['content-length']
  const size = lengthHeader === undefined ? null : Number(lengthHeader)
  if (request.uploadForJournal) return jsonBody(request.uploadForJournal, contentType, size, secrets)
  if (request.body !== undefined && request.body !== null) return jsonBody(request.body, contentType, size, secrets)
  if (size !== null && size > 0) return { contentType, size, text: null, truncated: false }
  return null
}

/** How many distinct recent answers are remembered (their text once in memory, redacted once). */
const RECENT_ANSWERS = 64

/**
 * Recent answer texts, each held once: a client asking the same thing again gets the same
 * bytes, and the queue then keeps one string instead of one per request (less memory to
 * collect), and the redacted body is made once.
 */
let recentAnswers = new Map<string, { text: string; redacted?: { contentType: string | null; secrets: string; body: JournalBody } }>()

function rememberedAnswer(text: string): string {
  const known = recentAnswers.get(text)
  if (known) return known.text
  if (recentAnswers.size >= RECENT_ANSWERS) recentAnswers = new Map()
  recentAnswers.set(text, { text })
  return text
}

function answerBody(text: string, contentType: string | null, secrets: string[]): JournalBody {
  const known = recentAnswers.get(text)
  const secretsKey = secrets.join('\n')
  if (known?.redacted && known.redacted.contentType === contentType && known.redacted.secrets === secretsKey) return known.redacted.body
  const body = textBody(text, contentType, secrets)
  if (known) known.redacted = { contentType, secrets: secretsKey, body }
  return body
}

function responseBodyOf(payload: unknown, headers: Record<string, unknown>, secrets: string[]): JournalBody | null {
  const contentType = contentTypeOf(headers)
  if (typeof payload === 'string') return payload === '' ? null : answerBody(payload, contentType, secrets)
  const lengthHeader = headers['content-length']
  const declared = lengthHeader === undefined ? null : Number(lengthHeader)
  if (Buffer.isBuffer(payload)) return { contentType, size: payload.length, text: null, truncated: false }
  if (payload === undefined || payload === null) return declared ? { contentType, size: declared, text: null, truncated: false } : null
  // A stream (audio): its type and, when declared, its size.
  return { contentType, size: declared, text: null, truncated: false }
}

function httpEntry(request: FastifyRequest, status: number, responseHeaders: Record<string, unknown>, capture: Capture, latencyMs: number): NewJournalEntry {
  const { path, query } = splitUrl(request.url)
  const secrets = keysSent(request)
  const responseBody = responseBodyOf(capture.payload, responseHeaders, secrets)
  const caller = request.caller
  return {
    projectId: caller?.projectId ?? null,
    kind: 'http',
    startedAt: new Date(capture.startedAt).toISOString(),
    method: request.method,
    path,
    query: redactQuery(query),
    status,
    latencyMs: Math.round(latencyMs * 1000) / 1000,
    keyHint: caller && secrets[0] ? keyHint(secrets[0]) : null,
    resourceId: resourceOf(request, path, responseBody?.text ?? null),
    requestHeaders: redactHeaders(request.headers),
    requestBody: requestBodyOf(request, secrets),
    responseHeaders: redactHeaders(responseHeaders as Record<string, string | string[] | number | undefined>),
    responseBody,
    socket: null,
  }
}

/**
 * Journals every /v1 request and every WebSocket session (see RequestJournal). The entry is
 * built (redacted, cut to 64 KiB) once the answer has been sent; the journal writes it later,
 * in a batch. Registered first, so requests refused early (a wrong Host, a missing key) are
 * journaled too. A failure to build one is logged, never the request's problem.
 */
export function registerRequestJournalCapture(app: FastifyInstance, journal: RequestJournal, onError: (error: unknown) => void): void {
  app.decorateRequest('journalCapture', undefined)
  app.decorateRequest('uploadForJournal', undefined)
  app.addHook('onRequest', (request, _reply, done) => {
    if (isJournaled(request.url)) {
      request.journalCapture = { startedAt: journal.now().getTime(), startedMs: performance.now() }
      if (request.headers.upgrade !== undefined) upgrades.set(request.raw, request)
    }
    done()
  })
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.journalCapture) request.journalCapture.payload = typeof payload === 'string' ? rememberedAnswer(payload) : payload
    done(null, payload)
  })
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    const capture = request.journalCapture
    if (capture && !capture.upgraded) {
      const status = reply.statusCode
      const headers = reply.getHeaders()
      const latencyMs = performance.now() - capture.startedMs
      try {
        journal.record(httpEntry(request, status, headers, capture, latencyMs))
      } catch (error) {
        onError(error)
      }
    }
    done()
  })
}

/** The raw requests of WebSocket upgrades, to their Fastify requests (a WeakMap: nothing kept once a request is gone). */
const upgrades = new WeakMap<IncomingMessage, FastifyRequest>()

/**
 * One entry per WebSocket session, written when it closes: when it opened and closed, the
 * close code and how many frames went each way (never their contents). The socket routes set
 * `request.caller` once the key is known, so the entry belongs to that project.
 * Call after registerWebSockets (it needs the WebSocket server).
 */
export function registerSocketJournal(app: FastifyInstance, journal: RequestJournal, onError: (error: unknown) => void): void {
  app.websocketServer.on('connection', (socket: WebSocket, raw: IncomingMessage) => {
    const request = upgrades.get(raw)
    const capture = request?.journalCapture
    if (!request || !capture) return
    capture.upgraded = true
    let framesIn = 0
    let framesOut = 0
    socket.on('message', () => (framesIn += 1))
    const send = socket.send.bind(socket) as (...args: unknown[]) => void
    socket.send = ((...args: unknown[]) => {
      framesOut += 1
      send(...args)
    }) as typeof socket.send
    socket.once('close', (code: number) => {
      const closedAt = journal.now().getTime()
      const latencyMs = performance.now() - capture.startedMs
      try {
        const { path, query } = splitUrl(request.url)
        const secrets = keysSent(request)
        const caller = request.caller
        journal.record({
          projectId: caller?.projectId ?? null,
          kind: 'websocket',
          startedAt: new Date(capture.startedAt).toISOString(),
          method: 'GET',
          path,
          query: redactQuery(query),
          status: 101,
          latencyMs: Math.round(latencyMs * 1000) / 1000,
          keyHint: caller && secrets[0] ? keyHint(secrets[0]) : null,
          resourceId: resourceOf(request, path, null),
          requestHeaders: redactHeaders(request.headers),
          requestBody: null,
          responseHeaders: [],
          responseBody: null,
          socket: { closedAt: new Date(closedAt).toISOString(), closeCode: code, framesIn, framesOut },
        })
      } catch (error) {
        onError(error)
      }
    })
  })
}
