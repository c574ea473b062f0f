import { PassThrough } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { WebSocket } from 'ws'
import { z } from 'zod'
import { TtsEngineError, type TtsEngine } from '../../../../engines/tts/tts-engine'
import {
  REALTIME_PCM_SAMPLE_RATE,
  REALTIME_STT_MAX_BYTES,
  REALTIME_STT_MAX_SECONDS,
  RealtimeSttEnvelopeSchema,
  RealtimeSttFieldsSchema,
  REALTIME_STT_JSON_MAX_BYTES,
  RealtimeSttJsonBodySchema,
  RealtimeTtsBodySchema,
  RealtimeWsClientFrameSchema,
  RealtimeWsServerFrameSchema,
  type RealtimeSttJsonBody,
  type RealtimeTtsBody,
  type RealtimeWsServerFrame,
} from '../../../../shared/api/realtime'
import type { ErrorDetail } from '../../../../shared/api/errors'
import type { ApiKeyAuthenticator } from '../../../ops/api-keys'
import type { Caller, OpsContext } from '../../../ops/ops-context'
import {
  REALTIME_CONTENT_TYPES,
  realtimeFormatOf,
  realtimeVoiceOf,
  recordRealtimeSpeech,
  speakStreaming,
  speakWhole,
} from '../../../ops/realtime-tts'
import { ServiceError } from '../../../ops/service-error'
import { sourceMediaName } from '../../../ops/media-names'
import { transcribeNow } from '../../../ops/realtime-stt'
import { createSttEngine } from '../../../settings/stt-settings'
import { ok } from '../../../../shared/api/common'
import { hasMultipartBody, readMediaUpload } from '../../media-upload'
import { validationDetails, validationSummary } from '../../../ops/validation-details'
import { RequestError } from '../../request-error'
import { requestedPronunciations } from '../../../ops/voice-dictionaries'
import { callerOf } from '../../auth'
import { socketKeyCheck } from '../../socket-key-check'
import type { SocketProtocol } from '../../asyncapi-document'
import { BODY_ERRORS, errorResponses, SECURITY } from '../../route-schemas'
import { present } from '../../../../shared/present'

const tags = ['Realtime speech']

export interface RealtimeSpeechOptions {
  context: OpsContext
  /** The speech engine, started on first use. */
  speech: () => Promise<TtsEngine>
  onError: (error: unknown, what: string) => void
}

/** An engine failure as the caller's error: a refused text is theirs (400), a broken engine ours (503). */
function speechError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error
  if (error instanceof TtsEngineError) {
    if (error.code === 'EMPTY_TEXT')
      return new ServiceError('VALIDATION_ERROR', 'Invalid request: text: Nothing speakable is left', [
        { path: 'text', message: 'Nothing speakable is left' },
      ])
    if (error.code === 'UNKNOWN_VOICE')
      return new ServiceError('VALIDATION_ERROR', error.message, [{ path: 'voiceId', message: error.message }])
    return new ServiceError('UNAVAILABLE', `The speech engine failed (${error.code}); try again`, [], 1)
  }
  return new ServiceError('UNAVAILABLE', 'The speech engine could not start; try again', [], 1)
}

/** POST /v1/realtime/tts and /v1/realtime/tts-stream, inside /v1 (its key check included). */
export function registerRealtimeRoutes(app: FastifyInstance, options: RealtimeSpeechOptions): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.post('/realtime/tts', {
    schema: {
      tags,
      summary: 'Speak a text and answer the audio itself (WAV, or 16 kHz PCM when asked)',
      operationId: 'synthesizeSpeech',
      security: SECURITY,
      body: RealtimeTtsBodySchema,
      response: errorResponses(...BODY_ERRORS, 404, 503),
    },
    handler: async (request, reply) => {
      const { voice, format } = chosen(request.body, request.headers.accept, 'wav')
      let speech
      try {
        const pronunciations = await requestedPronunciations(options.context, callerOf(request), request.body.voiceAgentId)
        speech = await speakWhole(await options.speech(), request.body.text, voice.id, format, { pronunciations })
      } catch (error) {
        throw speechError(error)
      }
      await recordRealtimeSpeech(options.context, callerOf(request), {
        text: request.body.text,
        voiceId: voice.id,
        seconds: speech.seconds,
      })
      // Audio, not the JSON answers the schema types.
      return (reply as unknown as FastifyReply)
        .type(REALTIME_CONTENT_TYPES[format])
        .header('x-audio-duration', speech.seconds.toFixed(3))
        .send(speech.audio)
    },
  })

  routes.post('/realtime/stt', {
    config: { mediaUpload: true },
    bodyLimit: REALTIME_STT_JSON_MAX_BYTES,
    schema: {
      tags,
      summary: 'Transcribe a short audio or video file at once (multipart/form-data with a `file` part, or JSON with `audioBase64`)',
      description: `JSON: \`{ "audioBase64": "<the file, base64>", "language"?: "en", "model"?, "isEosEnabled"?, "eosThreshold"? }\`. An upload takes up to ${REALTIME_STT_MAX_BYTES / 1024 / 1024} MiB, a JSON body up to ${REALTIME_STT_JSON_MAX_BYTES / 1024 / 1024} MiB; both up to ${REALTIME_STT_MAX_SECONDS / 60} minutes. Longer media is a transcription job (POST /v1/jobs/transcribe).`,
      operationId: 'transcribeSpeech',
      security: SECURITY,
      response: { 200: RealtimeSttEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 503) },
    },
    handler: async (request, reply) => {
      const stt = await createSttEngine(options.context.store, options.context.secrets)
      const upload = !hasMultipartBody(request)
        ? await storeBase64Audio(options.context, jsonSttBody(request.body))
        : await readMediaUpload(request, reply as unknown as FastifyReply, {
            fields: RealtimeSttFieldsSchema,
            media: options.context.media,
            name: (fileName) => sourceMediaName(fileName),
            maxBytes: Math.min(REALTIME_STT_MAX_BYTES, options.context.mediaIntake.maxUploadBytes),
            pace: options.context.mediaIntake,
          })
      // The client went away: stop asking the speech server.
      const gone = new AbortController()
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort()
      })
      try {
        const transcript = await options.context.media.withLocalFile(upload.file.name, (path) =>
          transcribeNow(options.context, callerOf(request), stt, { path, fileName: upload.file.filename, ...upload.fields }, gone.signal),
        )
        // The upload was just stored: its local file is there.
        const answer = present(transcript, 'the uploaded media file')
        return { ...ok(answer), text: answer.text }
      } finally {
        await options.context.media.delete(upload.file.name)
      }
    },
  })

  routes.post('/realtime/tts-stream', {
    schema: {
      tags,
      summary: 'Speak a text and stream the audio chunk by chunk as it is made (chunked transfer)',
      operationId: 'streamSpeech',
      security: SECURITY,
      body: RealtimeTtsBodySchema,
      response: errorResponses(...BODY_ERRORS, 404, 503),
    },
    handler: async (request, reply) => streamOver(request, reply as unknown as FastifyReply, options),
  })
}

/**
 * The JSON form's body, checked here rather than by the route's schema: the route takes
 * multipart uploads too, which the handler reads as a stream (no body to validate).
 */
function jsonSttBody(body: unknown): RealtimeSttJsonBody {
  if (body === undefined) {
    throw new RequestError(
      'UNSUPPORTED_MEDIA_TYPE',
      'This request takes its media as multipart/form-data (a part named "file"), or as JSON with the audio in audioBase64',
    )
  }
  const parsed = RealtimeSttJsonBodySchema.safeParse(body)
  if (parsed.success) return parsed.data
  const details = validationDetails(parsed.error.issues, 'body')
  throw new RequestError('VALIDATION_ERROR', validationSummary('Invalid request', details), details)
}

/** A JSON body's base64 audio, stored as an upload would be (the caller deletes it). */
async function storeBase64Audio(context: OpsContext, body: RealtimeSttJsonBody) {
  const bytes = Buffer.from(body.audioBase64, body.audioBase64.includes('-') || body.audioBase64.includes('_') ? 'base64url' : 'base64')
  if (bytes.length === 0) {
    throw new RequestError('VALIDATION_ERROR', 'Invalid request: body.audioBase64: Holds no audio', [
      { path: 'body.audioBase64', message: 'Holds no audio' },
    ])
  }
  const name = sourceMediaName(undefined)
  await context.media.put(name, bytes)
  const { language, model } = body
  return {
    file: { name, filename: 'Realtime audio' },
    fields: { ...(language === undefined ? {} : { language }), ...(model === undefined ? {} : { model }) },
  }
}

function chosen(body: RealtimeTtsBody, accept: string | undefined, fallback: 'wav' | 'pcm') {
  return { voice: realtimeVoiceOf(body), format: realtimeFormatOf(body, accept, fallback) }
}

/**
 * Streams the audio as the engine makes it. Refusals (and an engine that cannot start) are
 * answered before the first byte, in the envelope; once audio has gone out, a failure can only
 * cut the response short (the chunked body then never ends properly, which clients see).
 */
async function streamOver(request: FastifyRequest<{ Body: RealtimeTtsBody }>, reply: FastifyReply, options: RealtimeSpeechOptions) {
  const { voice, format } = chosen(request.body, request.headers.accept, 'wav')
  const caller = callerOf(request)
  const pronunciations = await requestedPronunciations(options.context, caller, request.body.voiceAgentId)
  let engine: TtsEngine
  try {
    engine = await options.speech()
  } catch (error) {
    throw speechError(error)
  }
  const body = new PassThrough()
  const controller = new AbortController()
  // The client went away: stop speaking (and record nothing).
  reply.raw.on('close', () => controller.abort())
  const { text } = request.body
  let firstAudio: () => void = () => {}
  const started = new Promise<void>((resolve) => (firstAudio = resolve))
  const speaking = speakStreaming(
    engine,
    text,
    voice.id,
    format,
    (bytes) => {
      body.write(bytes)
      firstAudio()
    },
    { signal: controller.signal, pronunciations },
  )
  // Nothing is sent before the first chunk, so a refusal by the engine (nothing speakable) is still an envelope.
  await Promise.race([started, speaking]).catch((error: unknown) => {
    throw speechError(error)
  })
  speaking.then(
    async ({ seconds }) => {
      body.end()
      await recordRealtimeSpeech(options.context, caller, { text, voiceId: voice.id, seconds }).catch((error: unknown) =>
        options.onError(error, 'recording a realtime TTS'),
      )
    },
    (error: unknown) => {
      if (!controller.signal.aborted) options.onError(error, 'a realtime TTS stream')
      body.destroy(error instanceof Error ? error : new Error(String(error)))
    },
  )
  return reply.type(REALTIME_CONTENT_TYPES[format]).header('cache-control', 'no-store').send(body)
}

/** The socket as the AsyncAPI document describes it. */
export const REALTIME_SOCKET: SocketProtocol = {
  name: 'realtimeTts',
  address: '/v1/realtime/ws',
  title: 'Realtime text to speech',
  description:
    'Text in, audio out. Send `tts` requests (JSON text); each is answered, in order, by an `ack`, the audio as binary frames, then an `end` ' +
    '(or an `error`, after which the socket stays open). The audio is raw PCM 16-bit little-endian mono at 16 kHz unless the request asks format `wav` ' +
    '(a streaming WAV header, then 22,050 Hz samples). A missing or wrong key is an `error` frame (UNAUTHORIZED), then a clean close (1000); ' +
    'a socket idle for 5 minutes is closed.',
  query: z.object({
    api_key: z.string().optional().meta({ description: 'The API key, for clients that cannot send headers (browsers).' }),
  }),
  security: 'apiKeyHeaderOrQuery',
  client: { discriminator: 'type', frames: RealtimeWsClientFrameSchema.options },
  server: { discriminator: 'type', frames: RealtimeWsServerFrameSchema.options },
  binary: { server: 'Audio of the request being answered, in the format its ack names, chunk by chunk as it is made.' },
}

/** How long a realtime socket may stay without a request before it is closed. */
const WS_IDLE_MS = 5 * 60_000

/**
 * The realtime TTS WebSocket, `/v1/realtime/ws` (the cloud's path), outside the /v1 key hook:
 * the key comes as `Authorization: Token <key>`, `X-Api-Key: <key>` or `?api_key=<key>`
 * (browsers send no headers on a WebSocket). Requests (`{type:"tts",payload}`) are served one
 * at a time in order: `ack`, binary audio frames, `end`; a refused request is an `error` frame
 * and the socket stays open. A wrong key is an `error` frame, then a clean close (1000).
 * Needs WebSockets.register first (web-sockets.ts).
 */
export function registerRealtimeSocket(
  app: FastifyInstance,
  options: RealtimeSpeechOptions & { authenticator: ApiKeyAuthenticator },
): void {
  const keyCheck = socketKeyCheck(
    options.authenticator,
    (request: FastifyRequest<{ Querystring: { api_key?: string } }>) => headerKey(request) ?? request.query.api_key,
  )
  app.get<{ Querystring: { api_key?: string } }>(
    '/v1/realtime/ws',
    { websocket: true, schema: { hide: true }, preValidation: keyCheck.preValidation },
    (socket, request) => {
      const send = (frame: RealtimeWsServerFrame) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame))
      }
      const error = (code: string, message: string, details: ErrorDetail[] = []) =>
        send({ type: 'error', payload: { code, message, details } })
      const controller = new AbortController()
      let queue = Promise.resolve()
      let idle: NodeJS.Timeout | undefined
      const resetIdle = () => {
        clearTimeout(idle)
        idle = setTimeout(() => socket.close(1000, 'idle'), WS_IDLE_MS)
        idle.unref()
      }
      const key = headerKey(request) ?? request.query.api_key
      const authenticated = keyCheck.outcomeOf(request)
      socket.on('close', () => {
        clearTimeout(idle)
        controller.abort()
      })
      socket.on('error', (failure) => options.onError(failure, 'a realtime TTS socket'))
      socket.on('message', (data, isBinary) => {
        resetIdle()
        const raw = isBinary ? undefined : parseJson(data)
        queue = queue.then(async () => {
          const caller = await authenticated
          if (!caller || controller.signal.aborted) return
          if (raw === undefined) return error('INVALID_FRAME', 'Frames are JSON text: {"type":"tts","payload":{"text":…,"voiceId":…}}')
          const parsed = RealtimeWsClientFrameSchema.safeParse(raw)
          if (!parsed.success) {
            const details = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
            return error('VALIDATION_ERROR', validationSummary('Invalid frame', details), details)
          }
          await speakOnSocket(socket, parsed.data.payload, caller, options, controller.signal, send, error)
        })
      })
      resetIdle()
      void authenticated.then(
        (caller) => {
          if (caller) return
          error(
            'UNAUTHORIZED',
            key
              ? 'The API key is unknown, revoked or malformed'
              : 'Missing API key: send "Authorization: Token <key>", "X-Api-Key: <key>" or ?api_key=<key>',
          )
          socket.close(1000)
        },
        (failure: unknown) => {
          options.onError(failure, 'authenticating a realtime TTS socket')
          error('INTERNAL', 'The key could not be checked; the service log has the details')
          socket.close(1000)
        },
      )
    },
  )
}

async function speakOnSocket(
  socket: WebSocket,
  body: RealtimeTtsBody,
  caller: Caller,
  options: RealtimeSpeechOptions,
  signal: AbortSignal,
  send: (frame: RealtimeWsServerFrame) => void,
  error: (code: string, message: string, details?: ErrorDetail[]) => void,
): Promise<void> {
  let choice: ReturnType<typeof chosen>
  try {
    choice = chosen(body, undefined, 'pcm')
  } catch (failure) {
    const refused = speechError(failure)
    return error(refused.code, refused.message, refused.details)
  }
  const { format } = choice
  const voiceId = choice.voice.id
  const sampleRate = format === 'pcm' ? REALTIME_PCM_SAMPLE_RATE : 22_050
  try {
    const pronunciations = await requestedPronunciations(options.context, caller, body.voiceAgentId)
    const engine = await options.speech()
    send({ type: 'ack', payload: { message: 'Speaking', format, sampleRate, voiceId } })
    const spoken = await speakStreaming(
      engine,
      body.text,
      voiceId,
      format,
      (bytes) => socket.readyState === socket.OPEN && socket.send(bytes),
      { signal, pronunciations },
    )
    let jobId: string
    try {
      jobId = await recordRealtimeSpeech(options.context, caller, { text: body.text, voiceId, seconds: spoken.seconds })
    } catch (failure) {
      options.onError(failure, 'recording a realtime TTS')
      return error('UNAVAILABLE', 'The audio was sent, but its usage could not be recorded; the service log has the details')
    }
    send({
      type: 'end',
      payload: { message: 'End of TTS stream', durationSeconds: Math.round(spoken.seconds * 1000) / 1000, bytes: spoken.bytes, jobId },
    })
  } catch (failure) {
    if (signal.aborted) return
    const refused = speechError(failure)
    if (refused.status >= 500) options.onError(failure, 'a realtime TTS request')
    error(refused.code, refused.message, refused.details)
  }
}

function headerKey(request: FastifyRequest): string | undefined {
  const authorization = /^(?:Token|Bearer) +(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1]
  const apiKey = request.headers['x-api-key']
  return authorization ?? (typeof apiKey === 'string' && apiKey.trim() ? apiKey.trim() : undefined)
}

function parseJson(data: WebSocket.RawData): unknown {
  try {
    return JSON.parse(
      Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'),
    ) as unknown
  } catch {
    return undefined
  }
}
