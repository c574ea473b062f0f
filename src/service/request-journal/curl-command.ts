import type { JournalEntry } from '../../store/request-journal'
import { REDACTED } from './redaction'

/** The environment variable the command reads the key from: it is never in the journal. */
export const KEY_VARIABLE = 'VOICEDESK_KEY'

/** Headers curl sets itself, or that make no sense to send again. */
const NOT_REPLAYED = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'accept-encoding',
  'user-agent',
  'cookie',
  'expect',
  'upgrade',
])

/** Headers that carried the key: sent again with the key from the environment. */
const KEY_HEADERS: Record<string, (variable: string) => string> = {
  authorization: (variable) => `Authorization: Token $${variable}`,
  'x-api-key': (variable) => `X-Api-Key: $${variable}`,
}

/** One POSIX shell word: single-quoted, a single quote written as '\''. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** A shell word of `text` where each REDACTED key stands for "$VOICEDESK_KEY" (outside the single quotes, so the shell expands it). */
function quoteWithKey(text: string): string {
  const encodedRedacted = encodeURIComponent(REDACTED)
  const parts = text.split(encodedRedacted)
  return parts.map((part) => (part === '' ? '' : shellQuote(part))).join(`"$${KEY_VARIABLE}"`) || "''"
}

export interface CurlCommand {
  /** The command, or null when the entry cannot be replayed with curl (a WebSocket session). */
  command: string | null
  /** What the command cannot reproduce exactly (a body cut at 64 KiB, redacted fields, an upload's file), if anything. */
  notes: string[]
}

/** Upload entries keep their text parts and the file's name (see the capture): curl sends them as a form again. */
interface UploadSummary {
  fields: Record<string, unknown>
  file: { filename: string; size: number; mimetype: string } | null
}

/**
 * A `curl` command that sends the journaled request again to this service (`baseUrl`): same
 * method, path, query and headers, the key read from $VOICEDESK_KEY, the body as sent (as the
 * journal kept it: redacted fields stay redacted).
 */
export function curlCommandOf(entry: JournalEntry, baseUrl: string): CurlCommand {
  if (entry.kind === 'websocket') return { command: null, notes: ['A WebSocket session: curl cannot replay it (its frames are not kept).'] }
  const notes: string[] = []
  const words = ['curl', '-sS']
  if (entry.method !== 'GET') words.push('-X', entry.method)
  words.push(quoteWithKey(`${baseUrl}${entry.path}${entry.query === '' ? '' : `?${entry.query}`}`))
  const upload = entry.requestBody?.contentType?.toLowerCase().startsWith('multipart/form-data') === true
  for (const [name, value] of entry.requestHeaders) {
    const lower = name.toLowerCase()
    if (NOT_REPLAYED.has(lower) || (upload && lower === 'content-type')) continue
    const keyHeader = KEY_HEADERS[lower]
    if (keyHeader) words.push('-H', `"${keyHeader(KEY_VARIABLE)}"`)
    else if (value === REDACTED) notes.push(`The ${name} header was redacted; it is left out.`)
    else words.push('-H', shellQuote(`${name}: ${value}`))
  }
  const body = entry.requestBody
  if (body?.text != null) {
    if (body.truncated) notes.push('The body was longer than 64 KiB: the journal kept only its start, so the command sends that.')
    if (body.text.includes(REDACTED)) notes.push(`Fields holding secrets were redacted: the command sends "${REDACTED}" in their place.`)
    if (upload) {
      const summary = JSON.parse(body.text) as UploadSummary
      for (const [name, value] of Object.entries(summary.fields))
        words.push('-F', shellQuote(`${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`))
      if (summary.file) {
        words.push('-F', shellQuote(`file=@${summary.file.filename.replace(/[";]/g, '_')};type=${summary.file.mimetype}`))
        notes.push(
          `The uploaded file was not kept: run the command where ${JSON.stringify(summary.file.filename)} (${summary.file.size} bytes) is.`,
        )
      }
    } else {
      words.push('--data-binary', shellQuote(body.text))
    }
  }
  return { command: words.join(' '), notes }
}
