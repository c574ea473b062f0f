import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Readable } from 'node:stream'
import { z } from 'zod'
import { ok } from '../../../../shared/api/common'
import {
  ExportPassphraseSchema,
  ImportPassphraseSchema,
  PASSPHRASE_HEADER,
  SnapshotParamsSchema,
  TakeSnapshotBodySchema,
} from '../../../../shared/api/state'
import type { KeyIdentity } from '../../../../store/records'
import { ServiceError } from '../../../ops/service-error'
import type { ProjectState } from '../../../state/project-state'
import type { OperatorLinks } from '../../../ops/operator-links'
import { ARCHIVE_CONTENT_TYPE } from '../../../state/state-archive'
import { callerOf } from '../../auth'
import { RequestError } from '../../request-error'
import { present } from '../../../../shared/present'

export interface StateRouteOptions {
  state: ProjectState
  links: OperatorLinks
  now: () => Date
}

/** The archive types a PUT may carry (the body is streamed to the importer, never buffered). */
const ARCHIVE_TYPES = [ARCHIVE_CONTENT_TYPE, 'application/x-gzip', 'application/x-tar+gzip']

/** Raw archive bodies, for the routes of this scope only: handed on as the request stream. */
function acceptArchiveBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser(ARCHIVE_TYPES, (_request, payload, done) => done(null, payload))
}

/**
 * An import's refusal, its details placed in the request: the archive is the body, the
 * passphrase a header (the error handler would otherwise put every path in the JSON body).
 */
async function asRequestErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!(error instanceof ServiceError) || error.details.length === 0) throw error
    const details = error.details.map((detail) => ({
      ...detail,
      path: detail.path === 'passphrase' ? `headers.${PASSPHRASE_HEADER}` : detail.path,
    }))
    throw new RequestError(error.code, error.message, details, error.retryAfterSeconds)
  }
}

function passphraseOf(request: FastifyRequest, schema: z.ZodType<string>): string | undefined {
  const raw = request.headers[PASSPHRASE_HEADER]
  if (raw === undefined) return undefined
  const parsed = schema.safeParse(Array.isArray(raw) ? raw[0] : raw)
  if (!parsed.success) {
    const message = present(parsed.error.issues[0], 'the first issue of a failed parse').message
    throw new RequestError('VALIDATION_ERROR', `Invalid request: headers.${PASSPHRASE_HEADER}: ${message}`, [
      { path: `headers.${PASSPHRASE_HEADER}`, message },
    ])
  }
  return parsed.data
}

function archiveBodyOf(request: FastifyRequest): Readable {
  const body = request.body as Readable | undefined
  if (!body || typeof body.pipe !== 'function') {
    throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `Send the archive as the raw body with Content-Type: ${ARCHIVE_CONTENT_TYPE}`)
  }
  return body
}

async function sendArchive(state: ProjectState, projectId: string, passphrase: string | undefined, reply: FastifyReply, now: Date) {
  const { stream } = await state.exportArchive(projectId, passphrase)
  const day = now.toISOString().slice(0, 19).replace(/[:T]/g, '-')
  reply.header('content-type', ARCHIVE_CONTENT_TYPE)
  reply.header('content-disposition', `attachment; filename="voicedesk-state-${day}.tar.gz"`)
  reply.header('cache-control', 'no-store')
  return reply.send(stream)
}

/**
 * The state admin API under /_voicedesk (the key's project only; docs/api.md, "State: export,
 * import, snapshots, reset"). Not in /v1's OpenAPI document.
 */
export function registerStateRoutes(app: FastifyInstance, options: StateRouteOptions): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()
  const { state } = options

  routes.get('/state', { schema: { hide: true } }, async (request, reply) =>
    sendArchive(state, callerOf(request).projectId, passphraseOf(request, ExportPassphraseSchema), reply, options.now()),
  )

  app.register(async (scope) => {
    acceptArchiveBodies(scope)
    scope.put('/state', { schema: { hide: true } }, async (request) => {
      const caller = callerOf(request)
      const passphrase = passphraseOf(request, ImportPassphraseSchema)
      return ok(await asRequestErrors(() => state.importArchive(caller.projectId, archiveBodyOf(request), { owner: caller, passphrase })))
    })
  })

  routes.post('/reset', { schema: { hide: true } }, async (request) => ok(await state.reset(callerOf(request).projectId)))

  routes.get('/snapshots', { schema: { hide: true } }, async (request) =>
    ok({ snapshots: await state.listSnapshots(callerOf(request).projectId) }),
  )

  routes.post('/snapshots', { schema: { hide: true, body: TakeSnapshotBodySchema } }, async (request, reply) => {
    reply.status(201)
    return ok(await state.takeSnapshot(callerOf(request).projectId, request.body.name))
  })

  routes.delete('/snapshots/:name', { schema: { hide: true, params: SnapshotParamsSchema } }, async (request) =>
    ok(await state.deleteSnapshot(callerOf(request).projectId, request.params.name)),
  )

  routes.post('/snapshots/:name/restore', { schema: { hide: true, params: SnapshotParamsSchema } }, async (request) => {
    const caller = callerOf(request)
    return ok(await state.restoreSnapshot(caller.projectId, request.params.name, caller))
  })
}

export const LinkParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{32}$/, 'Not a link token') })

/**
 * The operator UI's one-use links (state.exportLink, state.importLink), outside the key check:
 * the token is the permission. /_voicedesk/links/export/{token} and /_voicedesk/links/import/{token}.
 */
export function registerStateLinkRoutes(app: FastifyInstance, options: StateRouteOptions): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()
  const take = (token: string, kind: 'export' | 'import'): { caller: KeyIdentity; passphrase?: string } => {
    const link = options.links.take(token, kind)
    if (!link)
      throw new ServiceError(
        'NOT_FOUND',
        'This link is unknown, used already or expired (links work once, for 5 minutes): ask for a new one',
      )
    return link
  }
  app.options('/import/:token', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .status(204)
      .header('access-control-allow-methods', 'PUT')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '600')
      .send(),
  )
  routes.get('/export/:token', { schema: { hide: true, params: LinkParamsSchema } }, async (request, reply) => {
    const link = take(request.params.token, 'export')
    return sendArchive(options.state, link.caller.projectId, link.passphrase, reply, options.now())
  })
  app.register(async (scope) => {
    acceptArchiveBodies(scope)
    scope
      .withTypeProvider<ZodTypeProvider>()
      .put('/import/:token', { schema: { hide: true, params: LinkParamsSchema } }, async (request) => {
        const link = take(request.params.token, 'import')
        return ok(
          await asRequestErrors(() =>
            options.state.importArchive(link.caller.projectId, archiveBodyOf(request), { owner: link.caller, passphrase: link.passphrase }),
          ),
        )
      })
  })
}
