import { STATUS_CODES } from 'node:http'
import type { Entry, Har, Header } from 'har-format'
import type { JournalBody, JournalEntry, JournalHeader } from '../../store/request-journal'

/** HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as Chrome DevTools and Insomnia import it; typed by har-format's definitions. */
export type HarLog = Har

/** An entry, with VoiceDesk's own fields (HAR allows custom fields starting with `_`). */
export type HarEntry = Entry & {
  _voicedesk: { id: number; kind: JournalEntry['kind']; keyHint: string | null; resourceId: string | null; socket: JournalEntry['socket'] }
}

const headersOf = (headers: JournalHeader[]): Header[] => headers.map(([name, value]) => ({ name, value }))

function queryStringOf(query: string): Header[] {
  return [...new URLSearchParams(query)].map(([name, value]) => ({ name, value }))
}

const truncatedNote = (body: JournalBody) =>
  body.truncated ? `Only the first 64 KiB of ${body.size ?? 'an unknown number of'} bytes were kept` : undefined

function postDataOf(body: JournalBody | null): HarEntry['request']['postData'] {
  if (!body || body.text === null) return undefined
  const mimeType = body.contentType ?? 'application/octet-stream'
  if (mimeType.toLowerCase().startsWith('multipart/form-data')) {
    const summary = JSON.parse(body.text) as { fields: Record<string, unknown>; file: { filename: string; mimetype: string } | null }
    const params: NonNullable<NonNullable<HarEntry['request']['postData']>['params']> = Object.entries(summary.fields).map(
      ([name, value]) => ({
        name,
        value: typeof value === 'string' ? value : JSON.stringify(value),
      }),
    )
    if (summary.file) params.push({ name: 'file', fileName: summary.file.filename, contentType: summary.file.mimetype })
    return { mimeType, params, comment: "The file's bytes are not kept" }
  }
  const comment = truncatedNote(body)
  return { mimeType, text: body.text, ...(comment ? { comment } : {}) }
}

function entryOf(entry: JournalEntry, baseUrl: string): HarEntry {
  const scheme = entry.kind === 'websocket' ? baseUrl.replace(/^http/, 'ws') : baseUrl
  const response = entry.responseBody
  const contentComment = response ? truncatedNote(response) : undefined
  const location = entry.responseHeaders.find(([name]) => name.toLowerCase() === 'location')?.[1]
  const time = Math.max(0, entry.latencyMs)
  const postData = postDataOf(entry.requestBody)
  return {
    startedDateTime: entry.startedAt,
    time,
    request: {
      method: entry.method,
      url: `${scheme}${entry.path}${entry.query === '' ? '' : `?${entry.query}`}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headersOf(entry.requestHeaders),
      queryString: queryStringOf(entry.query),
      ...(postData ? { postData } : {}),
      headersSize: -1,
      bodySize: entry.requestBody?.size ?? (entry.method === 'GET' ? 0 : -1),
    },
    response: {
      status: entry.status,
      statusText: STATUS_CODES[entry.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headersOf(entry.responseHeaders),
      content: {
        size: response?.size ?? 0,
        mimeType: response?.contentType ?? 'x-unknown',
        ...(response?.text != null ? { text: response.text } : {}),
        ...(contentComment
          ? { comment: contentComment }
          : response && response.text === null && (response.size ?? 0) > 0
            ? { comment: 'Binary or streamed: not kept' }
            : {}),
      },
      redirectURL: location ?? '',
      headersSize: -1,
      bodySize: response?.size ?? -1,
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    ...(entry.kind === 'websocket'
      ? { comment: 'A WebSocket session: time is how long it was open; _voicedesk.socket has its close and frame counts' }
      : {}),
    _voicedesk: { id: entry.id, kind: entry.kind, keyHint: entry.keyHint, resourceId: entry.resourceId, socket: entry.socket },
  }
}

/** The entries (newest first, as listed) as a HAR 1.2 log, oldest first as HAR viewers expect. */
export function harOf(entries: readonly JournalEntry[], baseUrl: string, version: string): HarLog {
  return {
    log: {
      version: '1.2',
      creator: { name: 'VoiceDesk', version },
      entries: [...entries].reverse().map((entry) => entryOf(entry, baseUrl)),
    },
  }
}
