import { pipeline, Transform, type Readable } from 'node:stream'
import type { Dispatcher } from 'undici'
import { MediaTooLargeError, describeBytes } from '../../store/media-errors'
import type { MediaStore } from '../../store/ports'
import { guardedConnector, REFUSED_ADDRESS_CODE, type Lookup } from '../../webhooks/guarded-connector'
import { refusedAddressReason, type WebhookAddressPolicy } from '../../webhooks/webhook-address-policy'
import { describeUrl, MediaFetchError } from './media-fetch-error'
import { ownMediaName } from './own-media-url'

export interface FetchRemoteMediaOptions {
  maxBytes: number
  /** A remote server silent this long (connecting, answering, or between two pieces of the body) ends the fetch. */
  timeoutMs: number
  /** The whole fetch (redirects, connecting, the body) ends after this long, however steadily it moves. None by default. */
  deadlineMs?: number
  /**
   * A body that brings fewer than `bytesPerSecond` × `windowMs` / 1000 bytes in a window of
   * `windowMs` (counted from the answer's headers, window after window) ends the fetch: a
   * server that drips a byte now and then is never silent long enough for `timeoutMs`.
   */
  minRate?: { bytesPerSecond: number; windowMs: number }
  /** Redirects followed before the URL is refused (5 by default). */
  maxRedirects?: number
  /** Ends the fetch (the job stopped); the abort's own error is thrown, not a MediaFetchError. */
  signal?: AbortSignal
  /** The same address rules as webhooks (the operator's `--allow-webhook-host` list included), checked on every hop. */
  addressPolicy: WebhookAddressPolicy
  /** This service: a URL on its own `/media/<name>` is read from `media`, without HTTP. */
  own?: { baseUrl: string; media: MediaStore }
  /** How host names are resolved (dns.lookup by default; tests resolve names of their own). */
  lookup?: Lookup
}

export interface FetchedMedia {
  size: number
  /** The media type the server gave (lower case, without parameters), null when none. */
  contentType: string | null
  /** 'own' when the URL named this service's own media. */
  from: 'remote' | 'own'
}

/** Media types taken as media. No type at all is taken too: many file servers send none. */
const MEDIA_TYPE = /^(audio\/[^\s;]+|video\/[^\s;]+|application\/octet-stream|application\/ogg|binary\/octet-stream)$/

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host was not found',
  EAI_AGAIN: 'the host name lookup failed',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the connection closed before the media was whole',
  UND_ERR_CLOSED: 'the connection closed before the media was whole',
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another name",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate could not be verified",
}

const failed = (message: string, status?: number) => new MediaFetchError('MEDIA_FETCH_FAILED', message, status)
/** A failure that may pass if tried again later. */
const passing = (message: string, status?: number) => new MediaFetchError('MEDIA_FETCH_FAILED', message, status, true)

/**
 * Fetches the media at `url` into `into.media` under `into.name`, streamed (never whole in
 * memory) and whole or not at all. Follows up to `maxRedirects` redirects, each hop checked
 * again (http and https only, the address rules at connect time). Refuses answers that are
 * not media by their Content-Type, a Content-Length over `maxBytes` before reading, and stops
 * reading at the first byte past it. Failures about the URL are MediaFetchError; a failure of
 * the store (a full disk) and the caller's abort are thrown as they are.
 */
export async function fetchRemoteMedia(
  url: string,
  into: { media: MediaStore; name: string },
  given: FetchRemoteMediaOptions,
): Promise<FetchedMedia> {
  const maxRedirects = given.maxRedirects ?? 5
  // Our own limits (the deadline, the least rate) end the fetch through `cut`, its reason the MediaFetchError to throw.
  const cut = new AbortController()
  const deadlineMs = given.deadlineMs
  const deadline =
    deadlineMs === undefined
      ? undefined
      : setTimeout(
          () => cut.abort(failed(`${describeUrl(url)} did not send the whole media within ${seconds(deadlineMs)}; nothing was kept`)),
          deadlineMs,
        )
  const options: FetchRemoteMediaOptions & { cut: AbortController } = {
    ...given,
    cut,
    signal: given.signal ? AbortSignal.any([given.signal, cut.signal]) : cut.signal,
  }
  let current = parseMediaUrl(url)
  // Credentials in the URL go as Basic auth, to the origin they were given for only.
  let authorization = basicAuthorization(current)
  const firstOrigin = current.origin
  // Loaded on the first fetch: undici is a tenth of a second of every CLI start otherwise.
  const { Agent, buildConnector, request } = await import('undici')
  const dispatcher = new Agent({
    connect: guardedConnector(buildConnector, options.addressPolicy, { timeout: options.timeoutMs, lookup: options.lookup }),
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  })
  try {
    for (let redirects = 0; ; redirects += 1) {
      options.signal?.throwIfAborted()
      const ownName = options.own && ownMediaName(current, options.own.baseUrl)
      if (options.own && ownName !== undefined) return await copyOwnMedia(options.own.media, ownName, into, options)
      refuseAddressOf(current, options.addressPolicy)
      const response = await send(request, current, authorization, dispatcher, options)
      const { statusCode, headers } = response
      if (REDIRECT_STATUSES.has(statusCode)) {
        discard(response.body)
        const location = headers.location
        if (typeof location !== 'string' || location === '')
          throw failed(`${describeUrl(current)} answered a redirect (HTTP ${statusCode}) without a Location`, statusCode)
        if (redirects >= maxRedirects) throw failed(`${describeUrl(url)} redirected more than ${maxRedirects} times`, statusCode)
        current = parseMediaUrl(location, current)
        if (current.origin !== firstOrigin) authorization = undefined
        continue
      }
      if (statusCode < 200 || statusCode > 299) {
        discard(response.body)
        const refusal = statusCode >= 500 || statusCode === 429 ? passing : failed
        throw refusal(`${describeUrl(current)} answered HTTP ${statusCode}${statusText(statusCode)}`, statusCode)
      }
      return await storeBody(response, current, into, options)
    }
  } catch (error) {
    throw asFetchError(error, current, given, cut.signal)
  } finally {
    clearTimeout(deadline)
    void dispatcher.destroy().catch(() => undefined)
  }
}

/** `raw` (resolved against `base`, for a redirect's Location) when it is an http or https URL. */
function parseMediaUrl(raw: string, base?: URL): URL {
  let parsed: URL
  try {
    parsed = new URL(raw, base)
  } catch {
    throw failed(base ? `${describeUrl(base)} redirected to something that is not a URL` : 'The media URL is not a valid URL')
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw failed(
      `${base ? `${describeUrl(base)} redirected to` : 'The media URL is'} a ${parsed.protocol.replace(/:$/, '')}: URL; only http and https are fetched`,
    )
  }
  return parsed
}

function basicAuthorization(url: URL): string | undefined {
  if (url.username === '' && url.password === '') return undefined
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
  return `Basic ${Buffer.from(pair).toString('base64')}`
}

/** An IP literal the rules refuse is refused before connecting, in words about media (names are checked when connecting). */
function refuseAddressOf(url: URL, policy: WebhookAddressPolicy): void {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (policy.isAllowedHost(host)) return
  const reason = refusedAddressReason(host)
  if (reason)
    throw failed(`${describeUrl(url)}: ${host} is ${reason}; media is not fetched from there (allow it with --allow-webhook-host ${host})`)
}

async function send(
  request: typeof import('undici').request,
  url: URL,
  authorization: string | undefined,
  dispatcher: Dispatcher,
  options: FetchRemoteMediaOptions,
) {
  const target = new URL(url)
  target.username = ''
  target.password = ''
  target.hash = ''
  const headers: Record<string, string> = {
    accept: 'audio/*, video/*, application/octet-stream;q=0.9, */*;q=0.1',
    'user-agent': 'VoiceDesk',
  }
  if (authorization) headers.authorization = authorization
  return request(target, { method: 'GET', headers, dispatcher, signal: options.signal })
}

async function storeBody(
  response: Dispatcher.ResponseData,
  url: URL,
  into: { media: MediaStore; name: string },
  options: FetchRemoteMediaOptions & { cut: AbortController },
): Promise<FetchedMedia> {
  const body = response.body as unknown as Readable
  const header = response.headers['content-type']
  const contentType = typeof header === 'string' && header.trim() !== '' ? (header.split(';')[0] ?? '').trim().toLowerCase() : null
  if (contentType !== null && !MEDIA_TYPE.test(contentType)) {
    discard(body)
    const what = contentType === 'text/html' || contentType === 'application/xhtml+xml' ? `a web page (${contentType})` : contentType
    throw failed(`${describeUrl(url)} answered ${what}, not media (audio or video)`)
  }
  const length = Number(response.headers['content-length'])
  if (Number.isFinite(length) && length > options.maxBytes) {
    discard(body)
    throw new MediaFetchError(
      'MEDIA_TOO_LARGE',
      `${describeUrl(url)} holds ${describeBytes(length)}, more than the limit of ${describeBytes(options.maxBytes)}`,
    )
  }
  const metered = meteredBody(body, url, options)
  try {
    const { size } = await into.media.putStream(into.name, metered.stream, { maxBytes: options.maxBytes, signal: options.signal })
    return { size, contentType, from: 'remote' }
  } finally {
    metered.stop()
  }
}

/** The body as it is, its pace checked window after window against `options.minRate` (none: passed through unchecked). */
function meteredBody(
  body: Readable,
  url: URL,
  options: FetchRemoteMediaOptions & { cut: AbortController },
): { stream: Readable; stop: () => void } {
  const rate = options.minRate
  if (!rate || rate.bytesPerSecond <= 0) return { stream: body, stop: () => undefined }
  const least = Math.ceil((rate.bytesPerSecond * rate.windowMs) / 1000)
  let inWindow = 0
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inWindow += chunk.length
      done(null, chunk)
    },
  })
  // The store reads the counter; a failure on either side ends both (the store's abort, the server's reset).
  pipeline(body, counter, () => undefined)
  const check = setInterval(() => {
    if (inWindow < least) {
      const pace = `${inWindow} ${inWindow === 1 ? 'byte' : 'bytes'} in ${seconds(rate.windowMs)}`
      options.cut.abort(
        failed(
          `${describeUrl(url)} sent the media too slowly (${pace}; at least ${describeBytes(rate.bytesPerSecond)} per second are needed); nothing was kept`,
        ),
      )
    }
    inWindow = 0
  }, rate.windowMs)
  return { stream: counter, stop: () => clearInterval(check) }
}

async function copyOwnMedia(
  source: MediaStore,
  name: string,
  into: { media: MediaStore; name: string },
  options: FetchRemoteMediaOptions,
): Promise<FetchedMedia> {
  const opened = await source.open(name)
  if (!opened) throw failed(`This service has no media named ${name}`, 404)
  if (opened.size > options.maxBytes) {
    discard(opened.stream)
    throw new MediaFetchError(
      'MEDIA_TOO_LARGE',
      `The media ${name} holds ${describeBytes(opened.size)}, more than the limit of ${describeBytes(options.maxBytes)}`,
    )
  }
  if (source === into.media && name === into.name) {
    discard(opened.stream)
    return { size: opened.size, contentType: null, from: 'own' }
  }
  const { size } = await into.media.putStream(into.name, opened.stream, { maxBytes: options.maxBytes, signal: options.signal })
  return { size, contentType: null, from: 'own' }
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    401: ' (the URL needs credentials)',
    403: ' (Forbidden)',
    404: ' (Not Found)',
    410: ' (Gone)',
    429: ' (Too Many Requests)',
  }
  return texts[status] ?? (status >= 500 ? ' (a server error)' : '')
}

const codeOf = (error: unknown): string | undefined => {
  const own = (error as { code?: unknown }).code
  if (typeof own === 'string') return own
  const cause = (error as { cause?: { code?: unknown } }).cause?.code
  return typeof cause === 'string' ? cause : undefined
}

/**
 * What a failure means for the caller: ours as they are (a deadline or a least rate passed: the
 * reason `cut` was aborted with); network and protocol failures as MediaFetchError; the rest
 * (the store's, the caller's abort) untouched.
 */
function asFetchError(error: unknown, url: URL, options: FetchRemoteMediaOptions, cut: AbortSignal): unknown {
  if (error instanceof MediaFetchError) return error
  if (cut.aborted && !options.signal?.aborted) return cut.reason
  if (error instanceof MediaTooLargeError) {
    return new MediaFetchError(
      'MEDIA_TOO_LARGE',
      `${describeUrl(url)} sent more than the limit of ${describeBytes(error.maxBytes)}; nothing was kept`,
    )
  }
  // The caller's own reason (a stream or undici may have wrapped it in an AbortError of theirs).
  if (options.signal?.aborted) return options.signal.reason ?? error
  const code = codeOf(error)
  if (code === REFUSED_ADDRESS_CODE) return failed(`${describeUrl(url)}: ${(error as Error).message.replace(/^Refused/, 'refused')}`)
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return passing(`${describeUrl(url)}: connecting took longer than ${seconds(options.timeoutMs)}`)
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return passing(`${describeUrl(url)} did not answer within ${seconds(options.timeoutMs)}`)
  if (code === 'UND_ERR_BODY_TIMEOUT')
    return passing(`${describeUrl(url)} stopped sending the media for ${seconds(options.timeoutMs)}; nothing was kept`)
  const known = code === undefined ? undefined : NETWORK_ERRORS[code]
  if (known) return passing(`${describeUrl(url)}: ${known} (${code})`)
  // Undici's own errors (a malformed answer, a body shorter than its Content-Length); a store's error (disk full) stays as it is.
  if (code?.startsWith('UND_ERR')) return passing(`${describeUrl(url)}: the answer was broken (${code})`)
  return error
}

/** Drops a body not wanted (a redirect's, a refused answer's): its connection closes; the error a destroyed body emits is expected. */
function discard(body: Readable): void {
  body.on('error', () => undefined)
  body.destroy()
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`
