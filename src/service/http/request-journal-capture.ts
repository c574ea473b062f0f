import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { WebSocket } from 'ws'
import type { JournalBody, JournalHeaderSet, JournalRecord } from '../../store/request-journal'
import { keyHint } from '../ops/api-keys'
import { BODY_TEXT_LIMIT, isSecretName, jsonBody, REDACTED, redactQuery, SECRET_HEADERS, textBody } from '../request-journal/redaction'
import type { RequestJournal } from '../request-journal/request-journal'
import type { RequestGate } from './request-gates'

/** What readMediaUpload saw of an upload: its text parts and the file's name and size (never its bytes). */
export interface UploadForJournal {
  fields: Record<string, unknown>
  file: { filename: string; size: number; mimetype: string } | null
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The journal's entry for a journaled request, made when its gate saw it; undefined for the others. */
    journalAnswer: AnsweredRequest | undefined
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

const KEY_IN_AUTHORIZATION = /^\S+\s+(\S+)/

/** The key of an Authorization header (`Token <key>`), if any. */
function keyInAuthorization(authorization: string | undefined): string | undefined {
  const match = authorization === undefined ? null : KEY_IN_AUTHORIZATION.exec(authorization)
  return match?.[1] || undefined
}

/** The raw key the caller sent (header or ?api_key=), to scrub from every text the entry keeps. */
function keysSent(headers: IncomingHttpHeaders, query: unknown): readonly string[] {
  const header = headers['x-api-key']
  const apiKey = (query as Record<string, unknown> | undefined)?.api_key
  // The common case, a key in Authorization only: the same few headers again and again, read once each.
  if (header === undefined && apiKey === undefined) return authorizationKeys(headers.authorization ?? '')
  const keys: string[] = []
  const key = keyInAuthorization(headers.authorization)
  if (key) keys.push(key)
  if (typeof header === 'string') keys.push(header)
  if (typeof apiKey === 'string') keys.push(apiKey)
  return keys
}

/** A bounded memo: the same few names and keys come again and again. */
function memo<T>(limit: number, compute: (key: string) => T): (key: string) => T {
  let known = new Map<string, T>()
  return (key) => {
    let value = known.get(key)
    if (value === undefined && !known.has(key)) {
      value = compute(key)
      if (known.size >= limit) known = new Map()
      known.set(key, value)
    }
    return value as T
  }
}

const isSecretHeader = memo(512, (name) => SECRET_HEADERS.has(name.toLowerCase()) || isSecretName(name))
const hintOf = memo(64, keyHint)
const authorizationKeys = memo(64, (authorization): readonly string[] => {
  const key = keyInAuthorization(authorization === '' ? undefined : authorization)
  return key ? [key] : []
})

type HeaderObject = Readonly<Record<string, string | string[] | number | undefined>>

/** Node's header object as sent, the values of secret headers redacted (a copy only then; the object itself otherwise). */
function redactedHeaders(headers: HeaderObject): JournalHeaderSet {
  let copy: Record<string, string | string[] | number | undefined> | undefined
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined || !isSecretHeader(name)) continue
    copy ??= { ...headers }
    copy[name] = Array.isArray(value) ? value.map(() => REDACTED) : REDACTED
  }
  return copy ?? headers
}

function sameHeaderValue(one: string | string[] | number | undefined, other: string | string[] | number | undefined): boolean {
  if (one === other) return true
  if (!Array.isArray(one) || !Array.isArray(other) || one.length !== other.length) return false
  for (let index = 0; index < one.length; index += 1) if (one[index] !== other[index]) return false
  return true
}

/** Whether `headers` holds the same names, in the same order, with the same values as `names` and `known`. */
function sameHeaders(headers: HeaderObject, names: readonly string[], known: HeaderObject): boolean {
  let index = 0
  for (const name in headers) {
    if (name !== names[index] || !sameHeaderValue(headers[name], known[name])) return false
    index += 1
  }
  return index === names.length
}

/** How many distinct recent header sets (of requests, of answers) are remembered with their redacted form. */
const RECENT_HEADER_SETS = 8

/**
 * Header sets, redacted, the same object for the same headers: a client sends the same headers
 * again and again, so most entries of a batch share one set, which the store then keeps once
 * without serialising each to compare (compared here name by name, in order, with no copy).
 */
class RecentHeaderSets {
  private recent: { names: string[]; headers: HeaderObject; redacted: JournalHeaderSet }[] = []

  redacted(headers: HeaderObject): JournalHeaderSet {
    for (const known of this.recent) if (sameHeaders(headers, known.names, known.headers)) return known.redacted
    // Kept as a copy: the request's own object is not held past its batch.
    const copy = { ...headers }
    const redacted = redactedHeaders(copy)
    if (this.recent.length >= RECENT_HEADER_SETS) this.recent.pop()
    this.recent.unshift({ names: Object.keys(copy), headers: copy, redacted })
    return redacted
  }
}

const requestHeaderSets = new RecentHeaderSets()
const responseHeaderSets = new RecentHeaderSets()

/** The job or conversation a request touched: its id in the URL, else a job the answer names. */
function resourceOf(params: unknown, query: unknown, path: string, responseText: string | null): string | null {
  const inPath = (params as Record<string, unknown> | undefined)?.jobId
  if (typeof inPath === 'string' && inPath !== '') return inPath
  const inQuery = (query as Record<string, unknown> | undefined)?.jobId
  if (typeof inQuery === 'string' && inQuery !== '') return inQuery
  if (
    responseText === null ||
    !(path.startsWith('/v1/jobs') || path.startsWith('/v1/realtime/stt') || path.startsWith('/v1/voice-agents/conversation'))
  )
    return null
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

function contentTypeOf(headers: Readonly<Record<string, unknown>>): string | null {
  const value = headers['content-type']
  return typeof value === 'string' ? value : null
}

/** An answer whose bytes are text worth keeping (JSON, text); audio and other bytes keep their size only. */
const TEXT_TYPE = /json|^text\//i

/** How many distinct recent answer texts are remembered, redacted (a client asking the same thing again gets the same text). */
const RECENT_ANSWERS = 64
let recentAnswers = new Map<string, { contentType: string | null; secrets: string; body: JournalBody }>()
/** Answers sent as prepared bytes (the GET of an agent sends the same Buffer from its cache): redacted once per Buffer. */
const answerBuffers = new WeakMap<Buffer, { contentType: string | null; secrets: string; body: JournalBody }>()

/** The answer's body, redacted and cut; the same answer (and key) gives the same object, which the store keeps once. */
function responseBodyOf(payload: unknown, headers: Readonly<Record<string, unknown>>, secrets: readonly string[]): JournalBody | null {
  const contentType = contentTypeOf(headers)
  const secretsKey = secrets.join('\n')
  if (typeof payload === 'string') {
    if (payload === '') return null
    const known = recentAnswers.get(payload)
    if (known && known.contentType === contentType && known.secrets === secretsKey) return known.body
    const body = textBody(payload, contentType, secrets)
    if (recentAnswers.size >= RECENT_ANSWERS) recentAnswers = new Map()
    recentAnswers.set(payload, { contentType, secrets: secretsKey, body })
    return body
  }
  if (Buffer.isBuffer(payload)) {
    const known = answerBuffers.get(payload)
    if (known && known.contentType === contentType && known.secrets === secretsKey) return known.body
    if (payload.length === 0) return null
    if (!TEXT_TYPE.test(contentType ?? '')) return { contentType, size: payload.length, text: null, truncated: false }
    const body = { ...textBody(payload.toString('utf8'), contentType, secrets), size: payload.length }
    answerBuffers.set(payload, { contentType, secrets: secretsKey, body })
    return body
  }
  const lengthHeader = headers['content-length']
  const declared = lengthHeader === undefined ? null : Number(lengthHeader)
  if (payload === undefined || payload === null) return declared ? { contentType, size: declared, text: null, truncated: false } : null
  // A stream (audio): its type and, when declared, its size.
  return { contentType, size: declared, text: null, truncated: false }
}

/**
 * A journaled HTTP request, as references to the request and its answer (no copying, no
 * redaction on the request path): queued when the answer ends, built in the journal's next batch.
 */
class AnsweredRequest {
  /** The payload as Fastify sent it (the last onSend's, should an error answer replace the first). */
  payload: unknown = undefined
  private latencyMs = 0
  private startedAtMs = 0

  constructor(
    private readonly journal: RequestJournal,
    private readonly onError: (error: unknown) => void,
    private readonly startedMs: number,
    private readonly request: FastifyRequest,
    /** Its status and headers are read when the entry is built: they stay as sent, and a copy on the request path costs each request. */
    private readonly reply: FastifyReply,
  ) {
    reply.raw.on('finish', this.finished)
  }

  /** The answer's last byte went to the socket: the entry is queued (a large one built now, to hold 64 KiB of it rather than all). */
  readonly finished = (): void => {
    this.latencyMs = performance.now() - this.startedMs
    this.startedAtMs = Math.round(this.journal.nowMs() - this.latencyMs)
    // A large body (up to 1 MiB of JSON, a long answer) is cut to 64 KiB now rather than held until the batch.
    const length = this.request.headers['content-length']
    const payload = this.payload
    const large =
      (length !== undefined && Number(length) > BODY_TEXT_LIMIT) || (typeof payload === 'string' && payload.length > BODY_TEXT_LIMIT)
    if (!large) return this.journal.record(this)
    try {
      this.journal.record(this.build())
    } catch (error) {
      this.onError(error)
    }
  }

  build(): JournalRecord {
    const request = this.request
    const { path, query } = splitUrl(request.url)
    const secrets = keysSent(request.headers, request.query)
    const responseHeaders = this.reply.getHeaders()
    const responseBody = responseBodyOf(this.payload, responseHeaders, secrets)
    const caller = request.caller
    return {
      projectId: caller?.projectId ?? null,
      kind: 'http',
      startedAtMs: this.startedAtMs,
      method: request.method,
      path,
      query: redactQuery(query),
      status: this.reply.statusCode,
      latencyMs: Math.round(this.latencyMs * 1000) / 1000,
      keyHint: caller && secrets[0] ? hintOf(secrets[0]) : null,
      resourceId: resourceOf(request.params, request.query, path, responseBody?.text ?? null),
      requestHeaders: requestHeaderSets.redacted(request.headers),
      requestBody: this.requestBody(secrets),
      responseHeaders: responseHeaderSets.redacted(responseHeaders),
      responseBody,
      socket: null,
    }
  }

  private requestBody(secrets: readonly string[]): JournalBody | null {
    const { headers, body } = this.request
    const upload = this.request.uploadForJournal
    const contentType = contentTypeOf(headers)
    const lengthHeader = headers['content-length']
    const size = lengthHeader === undefined ? null : Number(lengthHeader)
    if (upload) return jsonBody(upload, contentType, size, secrets)
    if (body !== undefined && body !== null) return jsonBody(body, contentType, size, secrets)
    if (size !== null && size > 0) return { contentType, size, text: null, truncated: false }
    return null
  }
}

/**
 * Journals every /v1 request (see RequestJournal), with no hook of its own before the route but
 * the gate this gives back, to run first of the root's: it makes a journaled request's entry
 * when the request was routed, and the entry listens for the answer's `finish`. onSend keeps
 * the answer's payload; at `finish` the entry is queued, to be built (redacted, cut to 64 KiB)
 * in the journal's next batch.
 * No `onResponse` hook: Fastify would add two listeners and a hook runner to every answer for it.
 * Requests the router refuses before any hook (a bad percent-escape, an id too long) are not
 * journaled. Registered first, so requests refused early (a wrong Host, a missing key) are.
 */
export function registerRequestJournalCapture(
  app: FastifyInstance,
  journal: RequestJournal,
  onError: (error: unknown) => void,
): RequestGate {
  app.decorateRequest('journalAnswer', undefined)
  app.decorateRequest('uploadForJournal', undefined)
  app.addHook('onSend', (request, _reply, payload, done) => {
    const answer = request.journalAnswer
    if (answer !== undefined) answer.payload = payload
    done(null, payload)
  })
  // WebSocket routes only (no cost to the others): the upgrade's request, for its session's entry.
  app.addHook('onRoute', (route) => {
    if (!(route as { websocket?: boolean }).websocket) return
    const remember: onRequestHookHandler = (request, _reply, done) => {
      if (request.headers.upgrade !== undefined && isJournaled(request.url))
        upgrades.set(request.raw, { request, startedAtMs: journal.nowMs(), startedMs: performance.now() })
      done()
    }
    route.onRequest =
      route.onRequest === undefined ? [remember] : [remember, ...(Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest])]
  })
  return (request, reply) => {
    if (isJournaled(request.url)) request.journalAnswer = new AnsweredRequest(journal, onError, performance.now(), request, reply)
    return undefined
  }
}

/** The raw requests of WebSocket upgrades, to their Fastify requests (a WeakMap: nothing kept once a request is gone). */
const upgrades = new WeakMap<IncomingMessage, { request: FastifyRequest; startedAtMs: number; startedMs: number }>()

/**
 * One entry per WebSocket session, written when it closes: when it opened and closed, the
 * close code and how many frames went each way (never their contents). The socket routes set
 * `request.caller` once the key is known, so the entry belongs to that project.
 * Call after WebSockets.register (it needs the WebSocket server).
 */
export function registerSocketJournal(app: FastifyInstance, journal: RequestJournal, onError: (error: unknown) => void): void {
  app.websocketServer.on('connection', (socket: WebSocket, raw: IncomingMessage) => {
    const upgrade = upgrades.get(raw)
    if (!upgrade) return
    const { request, startedAtMs, startedMs } = upgrade
    let framesIn = 0
    let framesOut = 0
    socket.on('message', () => (framesIn += 1))
    const send = socket.send.bind(socket) as (...args: unknown[]) => void
    socket.send = ((...args: unknown[]) => {
      framesOut += 1
      send(...args)
    }) as typeof socket.send
    socket.once('close', (code: number) => {
      const closedAt = journal.nowMs()
      const latencyMs = performance.now() - startedMs
      try {
        const { path, query } = splitUrl(request.url)
        const secrets = keysSent(request.headers, request.query)
        const caller = request.caller
        journal.record({
          projectId: caller?.projectId ?? null,
          kind: 'websocket',
          startedAtMs,
          method: 'GET',
          path,
          query: redactQuery(query),
          status: 101,
          latencyMs: Math.round(latencyMs * 1000) / 1000,
          keyHint: caller && secrets[0] ? hintOf(secrets[0]) : null,
          resourceId: resourceOf(request.params, request.query, path, null),
          requestHeaders: redactedHeaders(request.headers),
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
