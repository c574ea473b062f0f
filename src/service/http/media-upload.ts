import { fastifyMultipart } from '@fastify/multipart'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import type { ErrorCode, ErrorDetail } from '../../shared/api/errors'
import { describeBytes, MediaTooLargeError } from '../../store/media-errors'
import type { MediaStore } from '../../store/ports'
import { validationDetails, validationSummary } from '../ops/validation-details'
import { declaresEmptyBody } from './empty-body'
import { registerHoldingRequestHooks, type HeldRequestHooks } from './held-request-hooks'
import { RequestError } from './request-error'
import { watchUploadPace, type UploadPaceLimits } from './upload-pace'
import type { UploadForJournal } from './request-journal-capture'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes multipart/form-data (and reads it with readMediaUpload); every other route refuses it (415). */
    mediaUpload?: boolean
  }
}

/** The part that carries the media. */
export const FILE_PART = 'file'

/** Limits on the text parts of an upload: a form's few short fields, not a second way to send a large body. */
export const UPLOAD_FIELD_LIMITS = {
  /** Text parts at most. */
  fields: 32,
  /** Bytes of one text part's value. */
  fieldSize: 64 * 1024,
  /** Bytes of a part's name. */
  fieldNameSize: 100,
  /** Header lines of one part. */
  headerPairs: 20,
} as const

/** The multipart answer the error handler sends for a body that is not JSON, word for word. */
const JSON_ONLY = 'Request bodies must be JSON, sent with Content-Type: application/json'

/**
 * Multipart bodies, for the routes that opt in (`config: { mediaUpload: true }`). The parser
 * only marks the request: nothing of the body is read until the route's readMediaUpload
 * streams it, so no upload is ever held in memory, and Fastify's 1 MiB body limit does not
 * apply to them. Any other route answers a multipart body 415, as it does every type but JSON.
 */
export async function registerMediaUploads(app: FastifyInstance): Promise<void> {
  const uploadHooks = await registerMultipart(app)
  // Upload routes only: the plugin's request and response hooks (they clean up files saved to disk).
  app.addHook('onRoute', (route) => {
    if (route.config?.mediaUpload !== true) return
    for (const name of ['onRequest', 'onResponse'] as const) {
      const hook = uploadHooks[name]
      const own = route[name]
      route[name] = own === undefined ? [hook] : [hook, ...(Array.isArray(own) ? own : [own])]
    }
  })
  // A callback hook, not async: it runs on every request (an async hook costs each one a promise).
  app.addHook('preValidation', (request, reply, done) => {
    if (!hasMultipartBody(request) || request.routeOptions.config.mediaUpload === true) return done()
    stopReadingBody(request, reply)
    done(new RequestError('UNSUPPORTED_MEDIA_TYPE', JSON_ONLY))
  })
}

/**
 * Registers @fastify/multipart (its body parser and request decorators, for every route), and
 * gives back its `onRequest` and `onResponse` hooks instead of adding them to every route: they
 * only clean up the temporary files of its disk mode, and every request paid two promises and a
 * listener for them (some 5 µs of the GET of an agent). The caller adds them to the upload routes.
 */
function registerMultipart(app: FastifyInstance): Promise<HeldRequestHooks> {
  const options = { limits: { ...UPLOAD_FIELD_LIMITS, files: 2, parts: UPLOAD_FIELD_LIMITS.fields + 2 } }
  return registerHoldingRequestHooks(app, '@fastify/multipart', fastifyMultipart, options)
}

/** A multipart body to read: an empty one is no body, whatever its type (registerEmptyBodyRule). */
export function hasMultipartBody(request: FastifyRequest): boolean {
  return request.isMultipart() && !declaresEmptyBody(request.headers)
}

export interface MediaUploadOptions<Fields extends z.ZodType> {
  /** The text parts, as one object of strings (a part sent as application/json is parsed JSON). */
  fields: Fields
  media: MediaStore
  /** Where the file is stored in `media`: a name, or one made from the file name the client gave (to keep its kind). */
  name: string | ((filename: string) => string)
  maxBytes: number
  /** How slow an upload may be (RuntimeConfig.mediaIntake): a slower one is refused 408. */
  pace: UploadPaceLimits
}

export interface MediaUpload<Fields> {
  fields: Fields
  file: {
    /** Where it was stored. */
    name: string
    size: number
    /** As the client named and typed it (not trusted: for display and hints only). */
    filename: string
    mimetype: string
  }
}

const refusal = (code: ErrorCode, message: string, details: ErrorDetail[] = []) => new RequestError(code, message, details)
const invalid = (path: string, message: string) =>
  refusal('VALIDATION_ERROR', validationSummary('Invalid request', [{ path, message }]), [{ path, message }])

/**
 * Reads a multipart/form-data upload: streams the `file` part into `media` under `name`
 * (never into memory; whole or not at all), collects the text parts and validates them with
 * `fields`. Every refusal is a RequestError in the contract's envelope naming the part
 * (`body.file`, `body.<field>`), and leaves nothing stored: no file part, two file parts, a file
 * over `maxBytes` (413), too many or too long text parts, invalid fields, a malformed or
 * cut-off body, a body that is not multipart (415), one that arrives too slowly (408, see
 * watchUploadPace). A full disk is thrown as the storage error
 * it is (507 through the error handler). When the body was not read to its end, the rest is
 * not read either (see stopReadingBody).
 */
export async function readMediaUpload<Fields extends z.ZodType>(
  request: FastifyRequest,
  reply: FastifyReply,
  options: MediaUploadOptions<Fields>,
): Promise<MediaUpload<z.infer<Fields>>> {
  if (!hasMultipartBody(request)) {
    throw refusal('UNSUPPORTED_MEDIA_TYPE', 'This request takes its media as multipart/form-data, with the media in a part named "file"')
  }
  const texts: Record<string, unknown> = {}
  let file: MediaUpload<unknown>['file'] | undefined
  // What the request journal keeps of the upload: the text parts as they arrive, the file's name and size.
  const forJournal: UploadForJournal = { fields: texts, file: null }
  request.uploadForJournal = forJournal
  let tooSlow: RequestError | undefined
  const stopWatching = watchUploadPace(request.raw, options.pace, (refusal) => {
    tooSlow = refusal
    // Multipart's parser listens for the body's errors: this ends the iteration of the parts, and
    // the file part's stream (the store drops what it wrote), without closing the socket as
    // destroying the body would, so the 408 is still sent.
    request.raw.emit('error', refusal)
  })
  try {
    // One byte over the limit reaches the store, which refuses it (MediaTooLargeError): busboy alone would cut the file short silently.
    for await (const part of request.parts({ limits: { fileSize: options.maxBytes + 1 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== FILE_PART) {
          part.file.destroy()
          throw invalid(`body.${part.fieldname}`, `Only the part named "${FILE_PART}" may carry a file`)
        }
        if (file) {
          part.file.destroy()
          throw invalid(`body.${FILE_PART}`, 'Only one file may be sent')
        }
        const name = typeof options.name === 'string' ? options.name : options.name(part.filename)
        const { size } = await options.media.putStream(name, part.file, { maxBytes: options.maxBytes })
        file = { name, size, filename: part.filename, mimetype: part.mimetype }
        forJournal.file = { filename: part.filename, size, mimetype: part.mimetype }
        continue
      }
      if (part.fieldnameTruncated) throw invalid('body', `A part name is longer than ${UPLOAD_FIELD_LIMITS.fieldNameSize} bytes`)
      if (part.valueTruncated) throw invalid(`body.${part.fieldname}`, `Longer than ${describeBytes(UPLOAD_FIELD_LIMITS.fieldSize)}`)
      if (Object.hasOwn(texts, part.fieldname)) throw invalid(`body.${part.fieldname}`, 'Given twice')
      texts[part.fieldname] = part.value
    }
  } catch (error) {
    stopWatching()
    if (file) await options.media.delete(file.name)
    if (tooSlow) reply.header('connection', 'close')
    stopReadingBody(request, reply)
    throw uploadRefusal(tooSlow ?? error, options.maxBytes)
  }
  stopWatching()
  if (!file) throw invalid(`body.${FILE_PART}`, `A file part named "${FILE_PART}" is required`)
  const parsed = options.fields.safeParse(texts)
  if (!parsed.success) {
    await options.media.delete(file.name)
    const details = validationDetails(parsed.error.issues, 'body')
    throw refusal('VALIDATION_ERROR', validationSummary('Invalid request', details), details)
  }
  return { fields: parsed.data, file }
}

/** How much more of a refused body is read, and for how long, after the answer was sent. */
export const LINGER = { bytes: 8 * 1024 * 1024, ms: 2_000 }

/**
 * A refused upload's body is not read to its end (it may be gigabytes): once the answer is
 * sent, what the client still sends is dropped for a moment, then the connection is closed.
 * Closing at once would reset it with unread bytes in its buffer, and the client could lose the
 * answer (the lingering close of web servers). A body that ends meanwhile keeps the connection.
 */
function stopReadingBody(request: FastifyRequest, reply: FastifyReply): void {
  const body = request.raw
  if (body.readableEnded) return
  reply.raw.once('finish', () => {
    let dropped = 0
    const close = () => body.socket.destroy()
    const timer = setTimeout(close, LINGER.ms)
    timer.unref()
    body.on('data', (chunk: Buffer) => {
      dropped += chunk.length
      if (dropped > LINGER.bytes) close()
    })
    body.once('end', () => clearTimeout(timer))
    body.once('close', () => clearTimeout(timer))
    body.resume()
  })
}

/** Fastify multipart's and busboy's errors as the contract's; ours and the store's (a full disk) stay as they are. */
function uploadRefusal(error: unknown, maxBytes: number): unknown {
  if (error instanceof RequestError) return error
  if (error instanceof MediaTooLargeError) {
    return refusal('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${describeBytes(maxBytes)}; nothing was kept`, [
      { path: `body.${FILE_PART}`, message: `Larger than ${describeBytes(maxBytes)}` },
    ])
  }
  const code = (error as { code?: unknown }).code
  switch (code) {
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return refusal('PAYLOAD_TOO_LARGE', `The form has more than ${UPLOAD_FIELD_LIMITS.fields} text parts`)
    case 'FST_FILES_LIMIT':
      return invalid(`body.${FILE_PART}`, 'Only one file may be sent')
    case 'FST_PROTO_VIOLATION':
      return invalid('body', 'A part is named __proto__, constructor or another name that is not allowed')
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return refusal('INVALID_JSON', 'A part sent as application/json is not valid JSON')
    case 'FST_MP_PREMATURE_CLOSE':
      return invalid('body', 'The request ended before the multipart body was whole')
  }
  // busboy's own: a missing boundary, a malformed part header, a body cut short.
  if (error instanceof Error && code === undefined && /multipart|boundary|part/i.test(error.message)) {
    return invalid('body', `The multipart body is malformed (${error.message})`)
  }
  return error
}
