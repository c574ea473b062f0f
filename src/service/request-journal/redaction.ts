import type { JournalBody } from '../../store/request-journal'

/** What a redacted value reads as. */
export const REDACTED = '[REDACTED]'

/** The most of a body the journal keeps. */
export const BODY_TEXT_LIMIT = 64 * 1024

/** Headers whose values are credentials. */
export const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'cookie', 'set-cookie', 'webhook-signature'])

/**
 * Field and parameter names that carry a secret: `authSecret` (webhookAuth), `providerAuthToken`,
 * `apiKey`, `api_key`, `password`, `signingSecret`… Anchored at the end, so `maxTokens` stays.
 */
const SECRET_NAME = /(secret|password|passwd|token|api[-_]?key|authorization|credentials?)$/i

/**
 * Query parameters that carry a secret, in the service's own URLs and in URLs inside bodies
 * (a `webhookUrl` with `?token=`, a signed media URL's `X-Amz-Signature`, `?key=`, `?sig=`,
 * `?auth=`): the field names above, and more, as URLs name their secrets more tersely.
 */
const SECRET_PARAMETER = /(secret|passw(or)?d|token|key|sig|signature|auth|authorization|credentials?)$/i

/**
 * A cheap test before parsing a body to redact it: no secret name, no URL parameter that may
 * be one and no password in a URL anywhere, nothing to do.
 */
const MAY_HOLD_SECRET_NAME =
  /secret|passw|token|api[-_]?key|authorization|credential|[?&#][^=&#\s"]*(key|sig|signature|auth)=|:\/\/[^/?#\s"@]*@/i

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name)
}

/** An absolute URL (`https://…`, `wss://…`) as a string value of a body. */
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:\/\//i
/** The password of a URL's `user:password@`. */
const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:)[^/?#@]*@/i

/**
 * A URL found in a body with its secrets redacted and the rest as sent: the password of
 * `user:password@`, and secret parameters of its query and of its fragment (`#access_token=`).
 */
export function redactUrl(url: string): string {
  const withoutPassword = url.replace(URL_PASSWORD, `$1${REDACTED}@`)
  return withoutPassword.replace(/([?#])([^#]*)/g, (_match, mark: string, parameters: string) => mark + redactQuery(parameters))
}

/** A query string (without `?`) with the values of secret parameters redacted, the rest as sent. */
export function redactQuery(query: string): string {
  if (query === '') return ''
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      const rawName = equals === -1 ? pair : pair.slice(0, equals)
      let name = rawName
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '))
      } catch {
        // a malformed escape: judged as written
      }
      return equals !== -1 && SECRET_PARAMETER.test(name) ? `${rawName}=${encodeURIComponent(REDACTED)}` : pair
    })
    .join('&')
}

/**
 * A deep copy of a JSON value with the values of secret-named fields redacted. A string that
 * is itself a JSON object (an upload's `webhookAuth` text part) is redacted inside, and one
 * that is a URL (a `webhookUrl`, a `mediaUrl`) keeps no password or secret parameter.
 */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson)
  if (typeof value === 'string') {
    if (!MAY_HOLD_SECRET_NAME.test(value)) return value
    if (value.startsWith('{')) return redactJsonText(value)
    return ABSOLUTE_URL.test(value) ? redactUrl(value) : value
  }
  if (value === null || typeof value !== 'object') return value
  const copy: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(value))
    copy[name] = isSecretName(name) && field !== null && field !== '' ? REDACTED : redactJson(field)
  return copy
}

function redactJsonText(text: string): string {
  try {
    return JSON.stringify(redactJson(JSON.parse(text)))
  } catch {
    return text
  }
}

/** Every occurrence of each secret (the raw key the caller sent) replaced, wherever it hides in the text. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = text
  for (const secret of secrets) if (secret.length >= 8 && scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(REDACTED)
  return scrubbed
}

/** The first BODY_TEXT_LIMIT bytes of a text (a character cut in two is dropped). */
function firstBytes(text: string): { text: string; truncated: boolean } {
  if (text.length <= BODY_TEXT_LIMIT / 4 || Buffer.byteLength(text) <= BODY_TEXT_LIMIT) return { text, truncated: false }
  return {
    text: Buffer.from(text)
      .subarray(0, BODY_TEXT_LIMIT)
      .toString('utf8')
      .replace(/\uFFFD$/, ''),
    truncated: true,
  }
}

/** A body given as parsed JSON (a request's): serialised, redacted, cut to 64 KiB. */
export function jsonBody(value: unknown, contentType: string | null, size: number | null, secrets: readonly string[]): JournalBody {
  const serialised = JSON.stringify(redactJson(value)) ?? ''
  const { text, truncated } = firstBytes(scrubSecrets(serialised, secrets))
  return { contentType, size: size ?? Buffer.byteLength(serialised), text, truncated }
}

/** A body given as text (an answer's): JSON is redacted field by field when it may hold a secret; any text is scrubbed of the caller's key. */
export function textBody(raw: string, contentType: string | null, secrets: readonly string[]): JournalBody {
  let text = raw
  if (/json/i.test(contentType ?? '') && MAY_HOLD_SECRET_NAME.test(raw)) {
    try {
      text = JSON.stringify(redactJson(JSON.parse(raw)))
    } catch {
      // not JSON after all: kept as text, scrubbed below
    }
  }
  const kept = firstBytes(scrubSecrets(text, secrets))
  return { contentType, size: Buffer.byteLength(raw), text: kept.text, truncated: kept.truncated }
}
