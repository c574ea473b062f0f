import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { errorEnvelope } from '../../../shared/api/errors'
import { mediaUrlOf, toJobDto } from '../../ops/jobs'
import type { OpsContext } from '../../ops/ops-context'
import { renderJobPreview } from '../job-preview-page'

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/** Media and previews need no key, because their names cannot be guessed; so only this machine may ask. */
function fromThisMachine(request: FastifyRequest): boolean {
  return LOOPBACK.has(request.socket.remoteAddress ?? '')
}

/**
 * `/media/<name>.wav` (job audio, with Range support for players) and `/preview/<token>`
 * (a page that shows or plays a job's result). No Authorization header: the unguessable
 * name is the credential, and both answer only loopback clients.
 */
export async function registerMediaAndPreviews(app: FastifyInstance, context: OpsContext, mediaDir: string): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (!fromThisMachine(request)) return reply.status(404).send(errorEnvelope('NOT_FOUND', 'Media and previews are served to this machine only'))
    })
    await scope.register(fastifyStatic, {
      root: mediaDir,
      prefix: '/media/',
      index: false,
      list: false,
      dotfiles: 'deny',
      allowedPath: (pathName) => /^\/[A-Za-z0-9_-]{32}\.wav$/.test(pathName),
      setHeaders: (response) => void response.header('cache-control', 'private, max-age=31536000, immutable'),
    })
    scope.get('/preview/:token', { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params as { token: string }
      const record = await context.store.jobs.findByPreviewToken(token)
      if (!record) return reply.status(404).send(errorEnvelope('NOT_FOUND', 'No job has this preview'))
      const source = record.relevantJobId ? await context.store.jobs.findById(record.relevantJobId) : undefined
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; media-src 'self'; img-src 'self' data:")
        .header('cache-control', 'no-store')
        .send(renderJobPreview(toJobDto(context, record), { audioUrl: mediaUrlOf(context, record), sourceTitle: source?.title }))
    })
  })
}
