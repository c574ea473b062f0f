import { describeServer, networkReason } from '../model-server/server-address'
import type { SttEngine, Transcript, TranscriptSegment } from './stt-engine'
import { SttEngineError } from './stt-engine-error'

export { SttEngineError, type SttEngineErrorCode } from './stt-engine-error'

export interface OpenAiCompatibleSttEngineOptions {
  /** The server's OpenAI-style base, such as http://127.0.0.1:8080/v1; `/audio/transcriptions` is added. */
  baseUrl: string
  /** Default `whisper-1`: whisper.cpp's server ignores it, speaches and LocalAI map it to a model. */
  model?: string
  /** Sent as a Bearer token when given. */
  apiKey?: string
  /** Per request. Default 60 s. */
  timeoutMs?: number
}

const DEFAULT_MODEL = 'whisper-1'
const DEFAULT_TIMEOUT_MS = 60_000

/**
 * A client of an OpenAI-compatible `/audio/transcriptions` endpoint (whisper.cpp's server,
 * speaches / faster-whisper-server, LocalAI). Asks for `verbose_json` (language, duration,
 * segments) and, when a server refuses that format, asks once more for plain `json`.
 * Throws at once when `baseUrl` is not an http(s) URL.
 */
export function createOpenAiCompatibleSttEngine(options: OpenAiCompatibleSttEngineOptions): SttEngine {
  const server = describeServer(options.baseUrl, 'speech server')
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`
  const model = options.model ?? DEFAULT_MODEL
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  /** The key must never reach a message, even if a server echoes it back. */
  const fail = (code: SttEngineError['code'], message: string, status?: number) =>
    new SttEngineError(code, options.apiKey ? message.split(options.apiKey).join('***') : message, status)

  async function post(wav: Buffer, format: 'verbose_json' | 'json', language: string | undefined, signal: AbortSignal | undefined) {
    const form = new FormData()
    form.append('file', new Blob([wav], { type: 'audio/wav' }), 'audio.wav')
    form.append('model', model)
    if (language) form.append('language', language)
    form.append('response_format', format)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`
    const timeout = AbortSignal.timeout(timeoutMs)
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers,
        body: form,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      })
      return { status: response.status, statusText: response.statusText, text: await response.text() }
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      if (timeout.aborted) throw fail('TIMEOUT', `The speech server at ${server} did not answer within ${timeoutMs} ms (model ${model})`)
      throw fail('UNREACHABLE', `Could not reach the speech server at ${server}: ${networkReason(error)}`)
    }
  }

  return {
    name: 'openai-compatible',
    model,
    async transcribe(wav, transcribeOptions = {}): Promise<Transcript> {
      const { language, signal } = transcribeOptions
      if (signal?.aborted) throw signal.reason
      let answer = await post(wav, 'verbose_json', language, signal)
      // Some servers know only json and text; they say so in a 4xx that names the parameter.
      if (answer.status >= 400 && answer.status < 500 && /response_format/i.test(answer.text))
        answer = await post(wav, 'json', language, signal)
      if (answer.status < 200 || answer.status > 299) {
        const reason = `HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''}`
        throw fail(
          'HTTP_ERROR',
          `The speech server at ${server} answered ${reason} (model ${model}): ${errorDetail(answer.text)}`,
          answer.status,
        )
      }
      const transcript = transcriptFrom(answer.text)
      if (!transcript)
        throw fail(
          'BAD_RESPONSE',
          `The speech server at ${server} answered something that is not a transcript (no "text"): ${snippet(answer.text) || '(empty body)'}`,
        )
      return transcript
    },
  }
}

/** The server as shown in messages: origin and path, never credentials written into the URL. */
/** Why fetch failed to connect, from undici's error cause (an AggregateError when several addresses were tried). */
/** An error answer's message ({"error": {"message"}}, {"error": "..."}, {"detail": "..."}), else the start of the body. */
function errorDetail(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: string | { message?: string }; detail?: unknown; message?: unknown }
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.detail ?? parsed.message)
    if (typeof message === 'string' && message) return snippet(message)
    if (message !== undefined) return snippet(JSON.stringify(message))
  } catch {
    // Not JSON: show the text itself.
  }
  return snippet(text) || '(empty body)'
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat
}

/** OpenAI's verbose_json names the language ("english"); whisper.cpp and others give the code. */
const LANGUAGE_CODES: Record<string, string> = {
  english: 'en',
  arabic: 'ar',
  french: 'fr',
  spanish: 'es',
  german: 'de',
  italian: 'it',
  portuguese: 'pt',
  turkish: 'tr',
  urdu: 'ur',
  hindi: 'hi',
  persian: 'fa',
}

function transcriptFrom(text: string): Transcript | undefined {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof body !== 'object' || body === null || typeof (body as { text?: unknown }).text !== 'string') return undefined
  const {
    text: spoken,
    language,
    duration,
    segments,
  } = body as { text: string; language?: unknown; duration?: unknown; segments?: unknown }
  const transcript: Transcript = { text: spoken.trim() }
  if (typeof language === 'string') {
    const code = /^[a-z]{2}$/i.test(language) ? language.toLowerCase() : LANGUAGE_CODES[language.toLowerCase()]
    if (code) transcript.language = code
  }
  if (typeof duration === 'number' && Number.isFinite(duration)) transcript.durationSeconds = duration
  if (Array.isArray(segments)) {
    transcript.segments = segments
      .filter((segment): segment is TranscriptSegment => {
        const candidate = segment as Partial<TranscriptSegment> | null
        return typeof candidate?.start === 'number' && typeof candidate.end === 'number' && typeof candidate.text === 'string'
      })
      .map(({ start, end, text: segmentText }) => ({ start, end, text: segmentText.trim() }))
  }
  return transcript
}
