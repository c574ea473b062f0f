import type { FastifyInstance } from 'fastify'
import { pino, type Logger } from 'pino'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import packageJson from '../../package.json'
import { loadOrCreateKeyFile, SecretBox } from '../store/secret-box'
import { openStore, type Store } from '../store/store'
import { buildHttpApp } from './http/build-app'
import { ApiKeyAuthenticator, bootstrapAccounts, type Bootstrap } from './ops/api-keys'
import type { OpsContext, SipSettings } from './ops/ops-context'
import { ReadCache } from './ops/read-cache'
import { loadTemplateCatalogue } from './templates-catalogue'

export const VERSION: string = packageJson.version
export const DEFAULT_PORT = 8740
export const DEFAULT_HOST = '127.0.0.1'

/**
 * The project's resources/ folder, found upwards from this module: it sits at a different
 * depth in src/ (tests, tsx) and in the bundled out/main/ chunks.
 */
function findResourcesDir(): string {
  let directory = dirname(fileURLToPath(import.meta.url))
  for (let level = 0; level < 5; level += 1) {
    if (existsSync(join(directory, 'resources', 'templates'))) return join(directory, 'resources')
    directory = dirname(directory)
  }
  throw new Error('resources/templates not found above ' + fileURLToPath(import.meta.url) + '; pass resourcesDir')
}

export interface RuntimeConfig {
  /** Folder of the database, the secret key file and (later) media. */
  dataDir: string
  port?: number
  host?: string
  /** VOICEDESK_API_KEY: this exact key will exist in the default project. */
  fixedApiKey?: string
  resourcesDir?: string
  /** better_sqlite3.node for the host runtime (Electron passes its own build). */
  nativeBinding?: string
  /** The key that seals secrets at rest; by default a key file in the data folder. */
  secretKey?: Buffer
  /** The service log (pino); silent by default, so tests and embedders choose. */
  log?: Logger
  now?: () => Date
}

const SipSettingsSchema = z.object({
  originationUri: z.string(),
  outboundAddress: z.string(),
  transportType: z.string(),
  customHeaders: z.record(z.string(), z.string()),
})

export const DEFAULT_SIP_SETTINGS: SipSettings = {
  originationUri: 'sip:127.0.0.1:5060;transport=tcp',
  outboundAddress: '127.0.0.1',
  transportType: 'TCP',
  customHeaders: {},
}

export interface Runtime {
  readonly store: Store
  readonly context: OpsContext
  readonly app: FastifyInstance
  readonly bootstrap: Bootstrap
  /** Listens on host:port; resolves to the base URL (with the real port when port is 0). */
  start(): Promise<string>
  /** Stops accepting requests, lets in-flight ones finish, closes the database. Idempotent. */
  stop(): Promise<void>
}

/** Composes store, ops and HTTP service from one config. Shared by the CLI, Electron and tests. */
export async function createRuntime(config: RuntimeConfig): Promise<Runtime> {
  const now = config.now ?? (() => new Date())
  const templates = loadTemplateCatalogue(join(config.resourcesDir ?? findResourcesDir(), 'templates'))
  const secrets = new SecretBox(config.secretKey ?? loadOrCreateKeyFile(join(config.dataDir, 'secret.key')))
  const store = openStore(join(config.dataDir, 'voicedesk.db'), { nativeBinding: config.nativeBinding })
  try {
    const bootstrap = bootstrapAccounts(store, now(), config.fixedApiKey)
    const sip = store.settings.get('sip', SipSettingsSchema) ?? DEFAULT_SIP_SETTINGS
    const context: OpsContext = { store, secrets, templates, sip, now, agentEnvelopes: new ReadCache(() => store.changeVersion()) }
    const app = await buildHttpApp({
      context,
      authenticator: new ApiKeyAuthenticator(context),
      version: VERSION,
      log: config.log ?? pino({ level: 'silent' }),
    })
    let stopping: Promise<void> | undefined
    return {
      store,
      context,
      app,
      bootstrap,
      start: () => app.listen({ port: config.port ?? DEFAULT_PORT, host: config.host ?? DEFAULT_HOST }),
      stop: () =>
        (stopping ??= (async () => {
          await app.close()
          store.close()
        })()),
    }
  } catch (error) {
    store.close()
    throw error
  }
}
