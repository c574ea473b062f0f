import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import { loadOrCreateKeyFile, SecretBox } from '../store/secret-box'
import { openStore } from '../store/store'
import { AiContentSettingSchema } from './ai-content-settings'
import { InvalidSigningSecretError, webhookSigningSettings } from './webhook-settings'
import { appKeyIdOf, bootstrapAccounts, createApiKey, listApiKeys, revokeApiKey } from './ops/api-keys'
import { ServiceError } from './ops/service-error'
import { DEFAULT_HOST, DEFAULT_PORT, VERSION, createRuntime, type Runtime } from './runtime'
import { defaultDataDir } from './data-dir'

const USAGE = `VoiceDesk ${VERSION}: a local workbench for voice agents, with the /v1 service.

Usage:
  voicedesk serve [--port N] [--host H] [--data-dir DIR] [--log-level LEVEL]
  voicedesk keys create [--name NAME] [--data-dir DIR]
  voicedesk keys list [--data-dir DIR]
  voicedesk keys revoke <key id> [--data-dir DIR]
  voicedesk ai-engine [offline | openai-compatible --base-url URL --model NAME [--api-key KEY]] [--data-dir DIR]
  voicedesk webhook-secret [generate | set <whsec_...> | clear] [--data-dir DIR]
  voicedesk --version | --help

serve      Runs the /v1 service headless (no window). Listens on ${DEFAULT_HOST}:${DEFAULT_PORT}
           unless --port / VOICEDESK_PORT say otherwise (0 picks a free port).
           VOICEDESK_API_KEY, if set, is a key that will work (for demos and CI).
keys       Manages the API keys of the default project. A new key is shown once.
ai-engine  Shows or chooses the engine of AI-content jobs: offline (the default), or an
           OpenAI-compatible chat endpoint such as a local Ollama (base URL .../v1).
           Takes effect at the next start of the service.
webhook-secret
           Shows whether webhooks are signed, or sets the Standard Webhooks signing secret
           (generate prints a new one once; give it to your receivers). A running service
           follows within a second.

Data folder: --data-dir, else VOICEDESK_DATA_DIR, else ${defaultDataDir()}`

class UsageError extends Error {}

/** Writes a line to stdout; a closed stdout (`voicedesk serve | head -3`) must not stop the service. */
function say(text: string): void {
  if (process.stdout.writable) process.stdout.write(text + '\n')
}
process.stdout.on('error', () => {
  // EPIPE and the like: the reader went away, the service goes on.
})

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  'log-level': { type: 'string' },
  name: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

function parsePort(raw: string | undefined, source: string): number {
  if (raw === undefined) return DEFAULT_PORT
  const port = Number(raw)
  if (!/^\d+$/.test(raw) || port > 65_535) throw new UsageError(`${source} must be a port number from 0 to 65535, not ${JSON.stringify(raw)}`)
  return port
}

function dataDirOf(values: Values): string {
  return values['data-dir'] ?? process.env.VOICEDESK_DATA_DIR ?? defaultDataDir()
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

async function serve(values: Values): Promise<void> {
  const port = values.port !== undefined ? parsePort(values.port, '--port') : parsePort(process.env.VOICEDESK_PORT || undefined, 'VOICEDESK_PORT')
  const host = values.host ?? DEFAULT_HOST
  const logLevel = values['log-level'] ?? 'warn'
  if (!LOG_LEVELS.includes(logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`)
  const fixedApiKey = process.env.VOICEDESK_API_KEY || undefined
  const dataDir = dataDirOf(values)

  // Handlers go in first: a supervisor may signal while the service starts, or as soon as it sees the banner.
  let runtime: Runtime | undefined
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting at once\n`)
      process.exit(1)
    }
    stopping = true
    say(`${signal}: stopping…`)
    if (!runtime) process.exit(0)
    runtime.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Could not stop cleanly: ${(error as Error).message}\n`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  runtime = await createRuntime({
    dataDir,
    port,
    host,
    fixedApiKey,
    // The built renderer sits beside this bundle: out/main/cli.js and out/renderer/.
    rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    // JSON lines on stderr, so stdout keeps the start-up banner alone.
    log: pino({ level: logLevel, redact: ['req.headers.authorization', 'headers.authorization'] }, pino.destination(2)),
  })
  let url: string
  try {
    url = await runtime.start()
  } catch (error) {
    await runtime.stop()
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`Port ${port} on ${host} is already in use. Stop the other service, or pass --port 0 for a free port.`)
    }
    throw error
  }

  if (stopping) return
  const { bootstrap } = runtime
  const lines = [`VoiceDesk ${VERSION} listening on ${url}`, `Data folder: ${dataDir}`]
  if (host !== DEFAULT_HOST && host !== 'localhost' && host !== '::1') {
    lines.push(`Warning: listening on ${host}, not only this machine. Anyone who can reach it and holds a key can use the service.`)
  }
  if (bootstrap.keySource === 'created') {
    lines.push(`API key (new, shown only this once; copy it now): ${bootstrap.createdKey}`)
  } else if (bootstrap.keySource === 'environment') {
    lines.push(`API key: the one in VOICEDESK_API_KEY (${bootstrap.keyHint})`)
  } else {
    lines.push(`API key: ${bootstrap.keyHint} (created earlier; run "voicedesk keys create" for a new one)`)
  }
  const shownKey = bootstrap.createdKey ?? (bootstrap.keySource === 'environment' ? '$VOICEDESK_API_KEY' : '<your key>')
  lines.push(`Operator UI: ${url}/app/#token=${runtime.uiToken}`)
  lines.push(`Try: curl -H "Authorization: Token ${shownKey}" ${url}/v1/voice-agents/templates`)
  say(lines.join('\n'))

}

function keys(values: Values, positionals: string[]): void {
  const [action, id] = positionals
  const store = openStore(join(dataDirOf(values), 'voicedesk.db'))
  try {
    const context = { store, now: () => new Date() }
    // No default key here: the key the operator creates is the first one they see.
    const { projectId } = bootstrapAccounts(store, context.now(), process.env.VOICEDESK_API_KEY || undefined, { createKey: false })
    if (action === 'create') {
      const { record, key } = createApiKey(context, projectId, values.name ?? 'CLI key')
      process.stdout.write(`Created key ${record.id} (${record.name}). Shown only this once:\n${key}\n`)
    } else if (action === 'list') {
      const appKeyId = appKeyIdOf(store)
      for (const key of listApiKeys(context, projectId)) {
        const state = key.revokedAt ? `revoked ${key.revokedAt}` : `last used ${key.lastUsedAt ?? 'never'}`
        const app = key.id === appKeyId ? '  (the app itself acts with it; it works over no HTTP)' : ''
        process.stdout.write(`${key.id}  ${key.keyHint}  ${key.name}  created ${key.createdAt}  ${state}${app}\n`)
      }
    } else if (action === 'revoke') {
      if (!id) throw new UsageError('keys revoke needs the id of the key (see "voicedesk keys list")')
      revokeApiKey(context, id)
      process.stdout.write(`Revoked key ${id}\n`)
    } else {
      throw new UsageError('keys needs one of: create, list, revoke')
    }
  } finally {
    store.close()
  }
}

function aiEngine(values: Values, positionals: string[]): void {
  const [choice] = positionals
  const store = openStore(join(dataDirOf(values), 'voicedesk.db'))
  try {
    if (choice === undefined) {
      const setting = store.settings.get('aiContent', AiContentSettingSchema) ?? { engine: 'offline' }
      say(setting.engine === 'offline' ? 'offline' : `openai-compatible ${setting.baseUrl} model ${setting.model}`)
      return
    }
    const secrets = new SecretBox(loadOrCreateKeyFile(join(dataDirOf(values), 'secret.key')))
    const setting =
      choice === 'offline'
        ? { engine: 'offline' }
        : {
            engine: choice,
            baseUrl: values['base-url'],
            model: values.model,
            apiKeySealed: values['api-key'] ? secrets.encrypt(values['api-key']) : undefined,
          }
    const parsed = AiContentSettingSchema.safeParse(setting)
    if (!parsed.success) {
      throw new UsageError(`ai-engine takes "offline", or "openai-compatible --base-url http://127.0.0.1:11434/v1 --model NAME": ${parsed.error.issues[0]!.message}`)
    }
    store.settings.set('aiContent', parsed.data)
    say(`AI content will use ${choice === 'offline' ? 'the offline engine' : `${values.model} at ${values['base-url']}`} from the next start.`)
  } finally {
    store.close()
  }
}

function webhookSecret(values: Values, positionals: string[]): void {
  const [action, secret] = positionals
  const dataDir = dataDirOf(values)
  const store = openStore(join(dataDir, 'voicedesk.db'))
  try {
    const settings = webhookSigningSettings(store, new SecretBox(loadOrCreateKeyFile(join(dataDir, 'secret.key'))))
    if (action === undefined) {
      const current = settings.signingSecret()
      say(current === undefined ? 'Webhooks are not signed.' : `Webhooks are signed (webhook-signature) with the secret ending ${current.slice(-4)}.`)
    } else if (action === 'generate') {
      say(`Webhooks are now signed with this secret, shown only this once:\n${settings.setSigningSecret()}`)
    } else if (action === 'set') {
      if (!secret) throw new UsageError('webhook-secret set needs the secret (whsec_...)')
      settings.setSigningSecret(secret)
      say(`Webhooks are now signed with the secret ending ${secret.slice(-4)}.`)
    } else if (action === 'clear') {
      settings.clearSigningSecret()
      say('Webhooks are no longer signed.')
    } else {
      throw new UsageError('webhook-secret takes no argument, or one of: generate, set <secret>, clear')
    }
  } catch (error) {
    if (error instanceof InvalidSigningSecretError) throw new UsageError(error.message)
    throw error
  } finally {
    store.close()
  }
}

export async function main(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
    if (values.help) {
      process.stdout.write(USAGE + '\n')
      return 0
    }
    if (values.version) {
      process.stdout.write(VERSION + '\n')
      return 0
    }
    const [command, ...rest] = positionals
    if (command === 'serve') {
      await serve(values)
      return -1 // keeps running until a signal
    }
    if (command === 'ai-engine') {
      aiEngine(values, rest)
      return 0
    }
    if (command === 'webhook-secret') {
      webhookSecret(values, rest)
      return 0
    }
    if (command === 'keys') {
      keys(values, rest)
      return 0
    }
    throw new UsageError(command ? `Unknown command "${command}"` : 'Which command? serve, keys, ai-engine or webhook-secret')
  } catch (error) {
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`)
      return 2
    }
    const message = error instanceof ServiceError || error instanceof Error ? error.message : String(error)
    process.stderr.write(`voicedesk: ${message}\n`)
    return 1
  }
}

void main(process.argv.slice(2)).then((code) => {
  if (code >= 0) process.exitCode = code
})
