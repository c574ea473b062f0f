import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import parseRange from 'range-parser'
import type { MediaStore } from '../../../store/ports'
import { errorEnvelope } from '../../../shared/api/errors'
import { playableMediaUrlOf, toJobDto } from '../../ops/jobs'
import { MEDIA_NAME, mediaContentType } from '../../ops/media-names'
import type { OpsContext } from '../../ops/ops-context'
import { renderJobPreview } from '../job-preview-page'

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/** Media and previews need no key, because their names cannot be guessed; so only this machine may ask. */
function fromThisMachine(request: FastifyRequest): boolean {
  return LOOPBACK.has(request.socket.remoteAddress ?? '')
}

const MEDIA_CACHE = 'private, max-age=31536000, immutable'

/** Where media is read from: files in the data folder (served as static files), or a media store (the database, in team mode). */
export type MediaSource = { directory: string } | { store: MediaStore }

/**
 * `/media/<name>` (job audio and transcriptions' source media, with Range support for players) and `/preview/<token>`
 * (a page that shows or plays a job's result). No Authorization header: the unguessable
 * name is the credential, and both answer only loopback clients.
 */
export async function registerMediaAndPreviews(app: FastifyInstance, context: OpsContext, media: MediaSource): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (!fromThisMachine(request))
        return reply.status(404).send(errorEnvelope('NOT_FOUND', 'Media and previews are served to this machine only'))
    })
    if ('directory' in media) {
      await scope.register(fastifyStatic, {
        root: media.directory,
        prefix: '/media/',
        index: false,
        list: false,
        dotfiles: 'deny',
        allowedPath: (pathName) => MEDIA_NAME.test(pathName.slice(1)),
        setHeaders: (response) => void response.header('cache-control', MEDIA_CACHE),
      })
    } else {
      scope.get('/media/:name', { schema: { hide: true } }, (request, reply) =>
        sendStoredMedia(media.store, (request.params as { name: string }).name, request, reply),
      )
    }
    scope.get('/preview/:token', { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params as { token: string }
      const record = await context.store.jobs.findByPreviewToken(token)
      if (!record) return reply.status(404).send(errorEnvelope('NOT_FOUND', 'No job has this preview'))
      const source = record.relevantJobId ? await context.store.jobs.findById(record.relevantJobId) : undefined
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; media-src 'self'; img-src 'self' data:")
        .header('cache-control', 'no-store')
        .send(renderJobPreview(toJobDto(context, record), { audioUrl: playableMediaUrlOf(context, record), sourceTitle: source?.title }))
    })
  })
}

/** One media file from a media store, whole (200) or one byte range of it (206), as players ask. */
async function sendStoredMedia(store: MediaStore, name: string, request: FastifyRequest, reply: FastifyReply) {
  const notFound = () => reply.status(404).send(errorEnvelope('NOT_FOUND', 'No media has this name'))
  if (!MEDIA_NAME.test(name)) return notFound()
  // Set only on answers that carry media: the errors are JSON.
  const audio = () => reply.header('accept-ranges', 'bytes').header('cache-control', MEDIA_CACHE).type(mediaContentType(name))
  const header = request.headers.range
  // Only a range needs the size first; a whole file is opened at once (open answers its size).
  const size = header === undefined ? undefined : await store.size(name)
  if (header !== undefined && size === undefined) return notFound()
  const ranges = header === undefined || size === undefined ? undefined : parseRange(size, header, { combine: true })
  if (ranges === -1) {
    return reply
      .status(416)
      .header('content-range', `bytes */${size}`)
      .send(errorEnvelope('VALIDATION_ERROR', 'The requested range lies outside this media'))
  }
  // A malformed header (-2), or several ranges at once: the whole file, as a server may answer either.
  const range = ranges === undefined || ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1 ? undefined : ranges[0]
  if (range === undefined) {
    const opened = await store.open(name)
    if (!opened) return notFound()
    return audio().status(200).header('content-length', opened.size).send(opened.stream)
  }
  const { start, end } = range
  const opened = await store.open(name, { start, end })
  if (!opened) return notFound()
  return audio()
    .status(206)
    .header('content-range', `bytes ${start}-${end}/${opened.size}`)
    .header('content-length', end - start + 1)
    .send(opened.stream)
}
