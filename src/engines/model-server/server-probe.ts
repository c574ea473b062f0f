/*
 * "Test connection": one short look at an OpenAI-compatible server, saying what happened in
 * words an operator can act on. The chat engine's server is asked for `<baseUrl>/models` and
 * the model looked for in the list; the speech server too, and when it has no such route
 * (whisper.cpp's server), half a second of silence is transcribed instead. The key goes in the
 * Authorization header only: it never reaches a message, even when a server echoes it back.
 */
import { createOpenAiCompatibleSttEngine, SttEngineError } from '../stt/openai-compatible-stt-engine'
import { writeWavPcm16Mono } from '../audio/wav-file'
import { errorDetail, snippet } from './chat-server'
import { describeServer, networkCode, networkReason } from './server-address'

export const SERVER_PROBE_OUTCOMES = [
  'reachable',
  'modelMissing',
  'unauthorized',
  'httpError',
  'refused',
  'unreachable',
  'timeout',
  'notOpenAiCompatible',
] as const
export type ServerProbeOutcome = (typeof SERVER_PROBE_OUTCOMES)[number]

export interface ServerProbeOptions {
  baseUrl: string
  /** The model to look for; left out (a speech server's default model), any answer will do. */
  model?: string
  apiKey?: string
  /** For the whole test. Default 10 s. */
  timeoutMs?: number
}

export interface ServerProbeResult {
  outcome: ServerProbeOutcome
  /** The server as shown in messages: origin and path, never credentials written into the URL. */
  server: string
  /** What was asked: the model list, or (a speech server without one) a transcription of silence. */
  checked: 'models' | 'transcription'
  /** The HTTP status of the answer that decided the outcome, when there was one. */
  httpStatus?: number
  /** Some of the models the server lists, when the one asked for is not among them. */
  models?: string[]
  elapsedMs: number
  /** What happened, in English, with the server's own words when it gave some. */
  message: string
}

const DEFAULT_TIMEOUT_MS = 10_000
const MODELS_SHOWN = 12
/** Half a second of silence at 16 kHz: the smallest honest question for a server that can only transcribe. */
const SILENCE = writeWavPcm16Mono(new Int16Array(8_000))

type Found = Omit<ServerProbeResult, 'server' | 'elapsedMs' | 'checked'> & { checked?: ServerProbeResult['checked'] }

/** Tests the server of a chat model (the AI engine): reachable, and the model listed. */
export function probeChatServer(options: ServerProbeOptions & { model: string }): Promise<ServerProbeResult> {
  return probe(options, 'model server', false)
}

/** Tests a speech-recognition server: its model list, or a transcription of 0.5 s of silence when it has none. */
export function probeSpeechServer(options: ServerProbeOptions): Promise<ServerProbeResult> {
  return probe(options, 'speech server', true)
}

async function probe(options: ServerProbeOptions, what: string, transcribeWithoutModels: boolean): Promise<ServerProbeResult> {
  const server = describeServer(options.baseUrl, what)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const redact = (message: string) => (options.apiKey ? message.split(options.apiKey).join('***') : message)
  const started = performance.now()
  const finish = (found: Found): ServerProbeResult => ({
    checked: 'models',
    ...found,
    server,
    message: redact(found.message),
    elapsedMs: Math.round(performance.now() - started),
  })
  const Server = what.charAt(0).toUpperCase() + what.slice(1)
  const timeout = AbortSignal.timeout(timeoutMs)
  let answer: { status: number; statusText: string; text: string }
  try {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`
    const response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/models`, { headers, signal: timeout })
    answer = { status: response.status, statusText: response.statusText, text: await response.text() }
  } catch (error) {
    if (timeout.aborted) return finish({ outcome: 'timeout', message: `The ${what} at ${server} did not answer within ${timeoutMs} ms` })
    const outcome = networkCode(error) === 'ECONNREFUSED' ? 'refused' : 'unreachable'
    return finish({ outcome, message: `Could not reach the ${what} at ${server}: ${networkReason(error)}` })
  }
  if (answer.status === 404 && transcribeWithoutModels)
    return finish(await transcribeSilence(options, server, timeoutMs - (performance.now() - started)))
  if (answer.status < 200 || answer.status > 299) return finish(httpRefusal(Server, server, answer))
  const listed = modelIds(answer.text)
  if (!listed) {
    return finish({
      outcome: 'notOpenAiCompatible',
      httpStatus: answer.status,
      message: `${Server} at ${server} answered /models with something that is not an OpenAI-compatible model list: ${snippet(answer.text) || '(empty body)'}`,
    })
  }
  if (options.model !== undefined && !listed.includes(options.model)) {
    return finish({
      outcome: 'modelMissing',
      httpStatus: answer.status,
      models: listed.slice(0, MODELS_SHOWN),
      message: `${Server} at ${server} is reachable, but it does not list the model ${options.model} (it lists ${listed.length === 0 ? 'none' : listed.slice(0, MODELS_SHOWN).join(', ')})`,
    })
  }
  const model = options.model === undefined ? '' : ` and lists the model ${options.model}`
  return finish({ outcome: 'reachable', httpStatus: answer.status, message: `${Server} at ${server} is reachable${model}` })
}

/** 401 and 403 say the key is missing or wrong; any other status is the server's own refusal. */
function httpRefusal(Server: string, server: string, answer: { status: number; statusText: string; text: string }): Found {
  const reason = `HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''}`
  const unauthorized = answer.status === 401 || answer.status === 403
  return {
    outcome: unauthorized ? 'unauthorized' : 'httpError',
    httpStatus: answer.status,
    message: `${Server} at ${server} answered ${reason}${unauthorized ? ' (the API key is missing or not accepted)' : ''}: ${errorDetail(answer.text)}`,
  }
}

/** The ids of an OpenAI model list (`{ "data": [{ "id" }] }`), or undefined when the body is not one. */
function modelIds(text: string): string[] | undefined {
  try {
    const body = JSON.parse(text) as { data?: unknown }
    if (!Array.isArray(body.data)) return undefined
    return body.data.flatMap((entry) => (typeof (entry as { id?: unknown })?.id === 'string' ? [(entry as { id: string }).id] : []))
  } catch {
    return undefined
  }
}

/** A speech server without /models: asked to transcribe silence, with the speech client itself (its words, its fallbacks). */
async function transcribeSilence(options: ServerProbeOptions, server: string, timeLeftMs: number): Promise<Found> {
  const engine = createOpenAiCompatibleSttEngine({ ...options, timeoutMs: Math.max(1, Math.round(timeLeftMs)) })
  try {
    await engine.transcribe(SILENCE)
    return {
      outcome: 'reachable',
      checked: 'transcription',
      message: `The speech server at ${server} has no model list, and transcribed 0.5 s of silence`,
    }
  } catch (error) {
    if (!(error instanceof SttEngineError)) throw error
    const outcomes = {
      UNREACHABLE: 'unreachable',
      TIMEOUT: 'timeout',
      BAD_RESPONSE: 'notOpenAiCompatible',
      HTTP_ERROR: 'httpError',
    } as const
    const unauthorized = error.code === 'HTTP_ERROR' && (error.status === 401 || error.status === 403)
    return {
      outcome: unauthorized ? 'unauthorized' : outcomes[error.code],
      checked: 'transcription',
      ...(error.status === undefined ? {} : { httpStatus: error.status }),
      message: error.message,
    }
  }
}
