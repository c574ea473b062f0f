import swagger from '@fastify/swagger'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify'
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { ErrorEnvelopeSchema, errorEnvelope } from '../../shared/api/errors'
import { HealthSchema } from '../../shared/api/health'
import type { TtsEngine } from '../../engines/tts/tts-engine'
import type { DiskFullCondition } from '../../store/disk-full-condition'
import type { ApiKeyAuthenticator } from '../ops/api-keys'
import type { OpsContext } from '../ops/ops-context'
import type { ErrorLog } from '../ops/repeated-error-log'
import { apiKeyGate } from './auth'
import { diskFullGate } from './disk-full-gate'
import { answerClientError } from './client-error-handler'
import { corsGate } from './cors'
import { createErrorHandler } from './error-handler'
import type { HostAllowListOptions } from './host-allow-list'
import { hostCheckGate } from './host-check'
import { repeatedQueryGate } from './repeated-query-check'
import { registerRequestGates, type RequestGate } from './request-gates'
import { parseJsonBody } from './json-body-parser'
import { registerEmptyBodyRule } from './empty-body'
import { registerMediaUploads } from './media-upload'
import { buildAsyncApiDocument, socketProtocols } from './asyncapi-document'
import { finishOpenApiDocument } from './openapi-document'
import { registerMediaAndPreviews, type MediaSource } from './routes/media-and-previews'
import { registerOperatorBridge, type OperatorBridgeOptions } from './routes/operator-bridge'
import { registerStreamRoute, type StreamRouteOptions } from './routes/stream'
import { registerConversationRoutes } from './routes/v1/conversations'
import { registerOutboundCallRoutes } from './routes/v1/outbound-calls'
import { registerJobRoutes } from './routes/v1/jobs'
import { registerTranslationJobRoutes } from './routes/v1/translation-jobs'
import { registerPhoneNumberRoutes } from './routes/v1/phone-numbers'
import { registerVoiceDictionaryRoutes } from './routes/v1/voice-dictionaries'
import { registerProjectRoutes } from './routes/v1/projects'
import { registerAgentAnalyticsRoutes } from './routes/v1/agent-analytics'
import { REALTIME_SOCKET, registerRealtimeRoutes, registerRealtimeSocket, type RealtimeSpeechOptions } from './routes/v1/realtime'
import { registerVoiceAgentRoutes } from './routes/v1/voice-agents'
import { registerV2Routes } from './routes/v2/v2'
import { registerAgentVersionRoutes } from './routes/v1/agent-versions'
import { registerVoiceRoutes } from './routes/v1/voices'
import { registerWebhookRoutes } from './routes/v1/webhooks'
import { SECURITY } from './route-schemas'
import type { RequestJournal } from '../request-journal/request-journal'
import { registerRequestJournalCapture, registerSocketJournal } from './request-journal-capture'
import { WebSockets } from './web-sockets'
import { registerRequestJournalRoutes } from './routes/admin/requests'
import type { FaultBook } from '../faults/fault-book'
import { faultGate } from './fault-injection'
import { registerFaultRoutes } from './routes/admin/faults'
import { registerStateLinkRoutes, registerStateRoutes, type StateRouteOptions } from './routes/admin/state'
import { registerTranscriptionLinkRoute } from './routes/admin/transcription-link'
import { registerTestRunRoutes } from './routes/admin/test-runs'
import type { TestRunner } from '../test-runs/test-runner'

export const BODY_LIMIT_BYTES = 1024 * 1024

export interface HttpAppOptions {
  context: OpsContext
  authenticator: ApiKeyAuthenticator
  version: string
  /** Where failures are logged (repeats summarised); Fastify's own per-request logger stays off (it costs every request). */
  log: ErrorLog
  /** Where a client's own breaches of the WebSocket protocol are logged (a frame over the limit, closed 1009): info, not error. */
  clientFaultLog: { info(fields: Record<string, unknown>, message: string): void }
  /** The folder of job audio, served at /media/. */
  /** Where /media/ reads job audio from. */
  media: MediaSource
  /** The data folder's disk-full state: a write failing for want of space enters it; while it lasts /v1 writes are 507. */
  diskFull?: DiskFullCondition
  /** Which Host headers are answered (the listening host, `--allowed-host`); others get 421. */
  hosts: HostAllowListOptions
  /** Origins that may call /v1 from a web page, read at every request that carries an Origin. */
  corsOrigins: () => readonly string[] | Promise<readonly string[]>
  /** Browser mode of the operator UI (/ipc, /ipc/events, /app/); left out, none of it is served. */
  operator?: OperatorBridgeOptions
  /** Live calls over the web SDK's socket (/stream/{jobId}); left out, the socket is not served. */
  calls?: Pick<StreamRouteOptions, 'connect'>
  /** The speech engine of realtime TTS (/v1/realtime/…), started on first use. */
  speech: () => Promise<TtsEngine>
  /** The request journal (every /v1 request and socket session, /_voicedesk/requests); left out, nothing is journaled. */
  journal?: RequestJournal
  /** Fault-injection rules (/_voicedesk/faults), applied to /v1 and /stream after the key check; left out, none. */
  faults?: FaultBook
  /** Export, import, snapshots and reset of a project (/_voicedesk/state, /reset, /snapshots); left out, not served. */
  state?: StateRouteOptions
  /** Agent test suites and runs (/_voicedesk/agents/{id}/test-suite, /test-runs); left out, not served. */
  testRuns?: TestRunner
}

/**
 * ws's errors for a frame the client should not have sent (over maxPayload: closed 1009; bad
 * UTF-8, a bad opcode, an unmasked frame: 1007/1002): ws closes the socket itself, and they are
 * the client's fault, not the service's.
 */
function isClientProtocolError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('WS_ERR_')
}

/**
 * zod validates and serializes every route. Given as the compilers' factories, Fastify never
 * loads its default Ajv and fast-json-stringify compilers (some 50 ms of every start-up).
 * Fastify types the factories after those defaults; it calls them with the same route
 * definitions the zod compilers take, hence the cast.
 */
const ZOD_COMPILERS = { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler } as unknown as NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>

/** The OpenAPI 3.1 document of every route registered after it, from their zod schemas (served at /v1/openapi.json). */
async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'VoiceDesk /v1',
        version,
        description: 'Voice agents, phone numbers and jobs, served locally by VoiceDesk. See docs/api.md for every decision.',
      },
      components: {
        securitySchemes: {
          apiKeyToken: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'The value `Token <API key>` (or `Bearer <API key>`).',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: finishOpenApiDocument,
  })
}

/**
 * JSON only: a text/plain body and every other type is a 415, not a string handed to validation;
 * an empty body of any type is no body (registerEmptyBodyRule). multipart/form-data only for
 * the routes that opt in to uploads (config.mediaUpload); refused (415) by the rest.
 */
async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer))
    } catch (error) {
      done(error as Error, undefined)
    }
  })
  registerEmptyBodyRule(app)
  await registerMediaUploads(app)
}

/** Fastify as this service runs it: no logger, zod compilers, and the envelope for errors met before any route. */
function createFastify(): FastifyInstance {
  return Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
    schemaController: { compilersFactory: ZOD_COMPILERS },
    clientErrorHandler: answerClientError,
    // Node would answer a request without Host a bare 400 of its own; the Host check answers it (421, in the envelope).
    http: { requireHostHeader: false },
    // Errors the router meets before any route runs: answered in the envelope like the rest.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- the reply returned is thenable, not a promise, and Fastify ignores it
    frameworkErrors: (error, _request, routeReply) => {
      const reply = routeReply as FastifyReply
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return reply.status(404).send(errorEnvelope('NOT_FOUND', 'No resource has an id that long'))
      }
      return reply
        .status(400)
        .send(errorEnvelope('VALIDATION_ERROR', 'The URL is malformed (a bad percent-escape)', [{ path: 'url', message: error.message }]))
    },
  })
}

/** Builds the HTTP service. It never listens: the runtime (or a test's `inject`) decides that. */
export async function buildHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const app = createFastify()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.decorateRequest('caller', null)
  /** A failure of a socket (or a realtime request), at error; ws's errors for what the client sent against the protocol are the client's: info. */
  const socketFailure = (error: unknown, message: string, fields: Record<string, unknown> = {}) => {
    if (isClientProtocolError(error))
      options.clientFaultLog.info({ ...fields, err: error }, `${message}: the client broke the WebSocket protocol`)
    else options.log.error({ ...fields, err: error }, message)
  }
  const journalError = (error: unknown) => options.log.error({ err: error }, 'request journal: an entry could not be made')
  // Before the Host check and the key check: requests they refuse are journaled too.
  const journalGate = options.journal ? registerRequestJournalCapture(app, options.journal, journalError) : undefined
  const webSockets = new WebSockets()
  registerRequestGates(app, [
    ...(journalGate ? [journalGate] : []),
    // Before any gate that may refuse: an upgrade refused over HTTP has its socket closed after the answer.
    webSockets.gate,
    // First of all: a request for another host (DNS rebinding) is refused before any other work.
    hostCheckGate(options.hosts),
    repeatedQueryGate(),
    // At the root, before /v1's key check: preflights carry no key, and errors need the headers too.
    corsGate(options.corsOrigins),
  ])

  await registerBodyParsers(app)

  app.setErrorHandler(
    createErrorHandler(
      (error, request) =>
        options.log.error({ err: error, requestId: request.id, method: request.method, url: request.url.split('?')[0] }, 'request failed'),
      (error) => options.diskFull?.report(error),
    ),
  )
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorEnvelope('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`))
  })

  await registerOpenApi(app, options.version)

  app.withTypeProvider<ZodTypeProvider>().get('/healthz', {
    schema: {
      tags: ['Service'],
      summary: 'Readiness check (no key needed)',
      operationId: 'getHealth',
      security: [],
      response: { 200: HealthSchema },
    },
    handler: async () => ({ status: 'ok' as const, version: options.version }),
  })

  const sockets = socketProtocols({
    calls: options.calls !== undefined,
    operatorStreams: options.operator?.streams !== undefined,
    others: [REALTIME_SOCKET],
  })
  const realtime: RealtimeSpeechOptions = {
    context: options.context,
    speech: options.speech,
    onError: (error, what) => socketFailure(error, `${what} failed`),
  }
  // The cloud's API (/v1, /v2): the key, then faults (the key tells the project), then the disk-full gate, as a network fault would come first.
  const apiGates: RequestGate[] = [
    apiKeyGate(options.authenticator),
    ...(options.faults ? [faultGate(options.faults)] : []),
    ...(options.diskFull ? [diskFullGate(options.diskFull)] : []),
  ]
  await app.register(
    async (v1) => {
      registerRequestGates(v1, apiGates)
      registerVoiceAgentRoutes(v1, options.context)
      registerAgentVersionRoutes(v1, options.context)
      registerConversationRoutes(v1, options.context)
      registerPhoneNumberRoutes(v1, options.context)
      registerVoiceDictionaryRoutes(v1, options.context)
      registerVoiceRoutes(v1)
      registerJobRoutes(v1, options.context)
      registerTranslationJobRoutes(v1, options.context)
      registerWebhookRoutes(v1, options.context)
      registerProjectRoutes(v1, options.context)
      registerAgentAnalyticsRoutes(v1, options.context)
      registerRealtimeRoutes(v1, realtime)
      registerOutboundCallRoutes(v1, options.context)
      registerApiDocuments(v1, app, options, sockets)
    },
    { prefix: '/v1' },
  )
  // The cloud's /v2 operations: the same key check, faults and disk-full gate as /v1.
  await app.register(
    async (v2) => {
      registerRequestGates(v2, apiGates)
      registerV2Routes(v2, options.context)
    },
    { prefix: '/v2' },
  )
  // The admin API (docs/api.md, "Operator power tools"): VoiceDesk's own tools, each for the caller's project only.
  await app.register(
    async (admin) => {
      registerRequestGates(admin, [apiKeyGate(options.authenticator)])
      if (options.journal)
        registerRequestJournalRoutes(admin, { journal: options.journal, baseUrl: options.context.baseUrl, version: options.version })
      if (options.faults) registerFaultRoutes(admin, options.faults)
      if (options.state) registerStateRoutes(admin, options.state)
      if (options.testRuns) registerTestRunRoutes(admin, options.context, options.testRuns)
    },
    { prefix: '/_voicedesk' },
  )
  // The operator UI's one-use links (export, import, a transcription's upload): their token is the permission, no key.
  const stateRoutes = options.state
  if (stateRoutes) {
    await app.register(
      async (links) => {
        // The desktop window's page is not of this origin (file://): it may use a link too. The token
        // alone is the permission (no cookie, no key), so any origin may, as with a pasted link.
        links.addHook('onSend', async (_request, reply) => {
          reply.header('access-control-allow-origin', '*')
        })
        registerStateLinkRoutes(links, stateRoutes)
        registerTranscriptionLinkRoute(links, { context: options.context, links: stateRoutes.links })
      },
      { prefix: '/_voicedesk/links' },
    )
  }
  await registerMediaAndPreviews(app, options.context, options.media)
  await webSockets.register(app)
  if (options.journal) registerSocketJournal(app, options.journal, journalError)
  registerRealtimeSocket(app, { ...realtime, authenticator: options.authenticator })
  if (options.calls) {
    registerStreamRoute(app, {
      authenticator: options.authenticator,
      connect: options.calls.connect,
      corsOrigins: options.corsOrigins,
      onError: (error) => socketFailure(error, 'a call socket failed'),
      faults: options.faults,
    })
  }
  if (options.operator) {
    await registerOperatorBridge(app, options.operator, (error, operation) =>
      socketFailure(error, 'operator UI operation failed', { operation }),
    )
  }
  return app
}

/** GET /v1/openapi.json and /v1/asyncapi.json: the two documents, with this service's address in them. */
function registerApiDocuments(
  v1: FastifyInstance,
  app: FastifyInstance,
  options: Pick<HttpAppOptions, 'version' | 'context'>,
  sockets: ReturnType<typeof socketProtocols>,
): void {
  let asyncApi: { baseUrl: string; document: Record<string, unknown> } | undefined
  /** Built once per address (the port is known only once listening). */
  const asyncApiDocument = (baseUrl: string) => {
    if (asyncApi?.baseUrl !== baseUrl)
      asyncApi = { baseUrl, document: buildAsyncApiDocument({ baseUrl, version: options.version, protocols: sockets }) }
    return asyncApi.document
  }

  v1.get(
    '/openapi.json',
    {
      schema: {
        tags: ['Service'],
        summary: 'This OpenAPI 3.1 document',
        operationId: 'getOpenApiDocument',
        security: SECURITY,
        response: { 401: ErrorEnvelopeSchema },
      },
    },
    async () => ({
      ...app.swagger(),
      // The address this service runs at now (the real port when started with port 0).
      servers: [{ url: options.context.baseUrl(), description: 'This VoiceDesk service' }],
    }),
  )
  v1.get(
    '/asyncapi.json',
    {
      schema: {
        tags: ['Service'],
        summary: "The AsyncAPI 3.0 document of this service's WebSockets (their frames, from the same zod schemas)",
        operationId: 'getAsyncApiDocument',
        security: SECURITY,
        response: { 401: ErrorEnvelopeSchema },
      },
    },
    async () => asyncApiDocument(options.context.baseUrl()),
  )
}
