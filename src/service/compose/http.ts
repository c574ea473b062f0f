import type { FastifyInstance } from 'fastify'
import type { ConversationHost } from '../../conversations/conversation-host'
import type { FaultBook } from '../faults/fault-book'
import { buildHttpApp } from '../http/build-app'
import type { OperatorEventHub } from '../operator/operator-events'
import type { ApiKeyAuthenticator } from '../ops/api-keys'
import type { OpsContext } from '../ops/ops-context'
import { ReadCache } from '../ops/read-cache'
import type { RequestJournal } from '../request-journal/request-journal'
import { effectiveCorsOrigins } from '../settings/cors-settings'
import type { ProjectState } from '../state/project-state'
import { DEFAULT_HOST, DEFAULT_PORT, VERSION, type RuntimeConfig } from './config'
import type { RuntimeEngines } from './engines'
import type { OperatorBridge } from './operator'
import type { RuntimeStorage } from './storage'
import { present } from '../../shared/present'
import type { TestRunner } from '../test-runs/test-runner'

/** Where the service listens, and the base URL clients reach it at (known for sure once it listens: port 0 picks one). */
export class ServiceAddress {
  readonly host: string
  readonly port: number
  private url: string

  constructor(config: Pick<RuntimeConfig, 'host' | 'port'>) {
    this.host = config.host ?? DEFAULT_HOST
    this.port = config.port ?? DEFAULT_PORT
    this.url = this.urlFor(this.port)
  }

  readonly baseUrl = (): string => this.url

  /** The server listens on `port` now (the real one when 0 was asked for). */
  listening(port: number): string {
    this.url = this.urlFor(port)
    return this.url
  }

  private urlFor(port: number): string {
    return `http://${this.host === '0.0.0.0' || this.host === '::' ? '127.0.0.1' : this.host}:${port}`
  }
}

export interface HttpParts {
  config: RuntimeConfig
  storage: RuntimeStorage
  engines: RuntimeEngines
  context: OpsContext
  address: ServiceAddress
  events: OperatorEventHub
  operator: OperatorBridge
  calls: ConversationHost
  journal: RequestJournal | undefined
  faults: FaultBook
  state: ProjectState
  now: () => Date
  testRuns: TestRunner
  /** The one authenticator of /v1, the admin routes and the call sockets (it holds the operator's run tickets too). */
  authenticator: ApiKeyAuthenticator
}

/** The HTTP service: /v1, the admin routes, browser mode's /ipc and /app, the call sockets. */
export async function composeHttp({
  config,
  storage,
  engines,
  context,
  address,
  events,
  operator,
  calls,
  journal,
  faults,
  state,
  now,
  testRuns,
  authenticator,
}: HttpParts): Promise<FastifyInstance> {
  const { store, errorLog } = storage
  // The setting is read again only after a write to the database (this process's or another's).
  const corsSetting = new ReadCache<readonly string[]>(() => store.changeVersion(), 1)
  const configured = config.corsOrigins
  const corsOrigins = configured?.length
    ? () => configured
    : async () =>
        corsSetting.peek('origins') ??
        present(await corsSetting.get('origins', async () => (await effectiveCorsOrigins(store, undefined)).origins), 'the CORS origins')
  return buildHttpApp({
    context,
    authenticator,
    version: VERSION,
    log: errorLog,
    clientFaultLog: storage.log,
    media: storage.mediaDir ? { directory: storage.mediaDir } : { store: storage.media },
    diskFull: storage.diskFull,
    hosts: { listenHost: address.host, allowedHosts: config.allowedHosts },
    corsOrigins,
    operator: {
      handlers: operator.handlers('browser'),
      events,
      streams: operator.streams,
      uiToken: operator.uiToken,
      rendererDir: config.rendererDir,
    },
    calls: { connect: (jobId, caller, transport) => calls.connect(jobId, caller.projectId, transport) },
    speech: engines.speech,
    journal,
    faults,
    state: { state, links: operator.links, now },
    testRuns,
  })
}
