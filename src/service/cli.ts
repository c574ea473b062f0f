import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs'
import { mkdir, readFile, rename, rm } from 'node:fs/promises'
import { homedir } from 'node:os'
import { pipeline } from 'node:stream/promises'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import { z } from 'zod'
import { loadOrCreateKeyFile, SecretBox } from '../store/secret-box'
import { openStore, type OpenedStore } from '../store/open-store'
import { FileMediaStore } from '../store/file-media-store'
import type { Store } from '../store/ports'
import { AiContentSettingSchema } from './settings/ai-content-settings'
import { readSttSetting, saveSttSetting, type SttSettingChange } from './settings/stt-settings'
import { InvalidSigningSecretError, webhookSigningSettings } from './settings/webhook-settings'
import { appKeyIdOf, bootstrapAccounts, createApiKey, ensureAppIdentity, FIXED_KEY_NAME, fixedApiKeyProblem, listApiKeys, revokeApiKey } from './ops/api-keys'
import { ServiceError } from './ops/service-error'
import { DEFAULT_HOST, DEFAULT_PORT, VERSION, createRuntime, databaseLabel, type Runtime, type RuntimeConfig } from './runtime'
import { checkSealingKey, WrongSealingKeyError } from './compose/sealing-key-check'
import { defaultDataDir } from './compose/data-dir'
import { DATABASE_FILE, DataFolderError, MEDIA_FOLDER, SECRET_KEY_FILE, SNAPSHOTS_FOLDER, prepareDataFolder } from './compose/data-folder'
import { ProjectState } from './state/project-state'
import { SNAPSHOT_NAME_PATTERN, type StateCounts } from '../shared/api/state'
import { counted } from '../shared/text/counted'
import { FolderSnapshotShelf, MediaSnapshotShelf } from './state/snapshot-shelf'
import { findRunningServices } from './compose/running-services'
import { installUnhandledRejectionGuard } from './compose/unhandled-rejection-guard'

const USAGE = `VoiceDesk ${VERSION}: a local workbench for voice agents, with the /v1 service.

Usage:
  voicedesk serve [--port N] [--host H] [--data-dir DIR | --database-url URL] [--log-level LEVEL] [--force-new]
                  [--allowed-host NAME]... [--cors-origin ORIGIN]... [--allow-webhook-host HOST]...
                  [--max-media-size SIZE] [--media-fetch-timeout SECONDS] [--media-fetch-deadline SECONDS]
                  [--journal on|off] [--seed FILE]
  voicedesk keys create [--name NAME] [--data-dir DIR | --database-url URL]
  voicedesk keys list [--data-dir DIR | --database-url URL]
  voicedesk keys revoke <key id> [--data-dir DIR | --database-url URL]
  voicedesk ai-engine [offline | openai-compatible --base-url URL --model NAME [--api-key KEY]] [--data-dir DIR | --database-url URL]
  voicedesk stt-engine [off | openai-compatible --base-url URL [--model NAME] [--api-key KEY]] [--data-dir DIR | --database-url URL]
  voicedesk webhook-secret [generate | set <whsec_...> | clear] [--data-dir DIR | --database-url URL]
  voicedesk export FILE [--passphrase-file F] [--data-dir DIR | --database-url URL]
  voicedesk import FILE [--passphrase-file F] [--data-dir DIR | --database-url URL]
  voicedesk snapshot NAME | restore NAME | snapshots [--data-dir DIR | --database-url URL]
  voicedesk reset --yes [--data-dir DIR | --database-url URL]
  voicedesk --version | --help

In a checkout, run it as "npx voicedesk ..." (or "npm run serve -- ...").

serve      Runs the /v1 service headless (no window). Listens on ${DEFAULT_HOST}:${DEFAULT_PORT}
           unless --port / VOICEDESK_PORT say otherwise (0 picks a free port).
           VOICEDESK_API_KEY, if set, is a key that will work (for demos and CI; at least
           20 characters of A-Z a-z 0-9 _ -).
           --allowed-host    another name clients may use in the Host header (a proxy, a LAN name)
           --cors-origin     a web origin allowed to call /v1 (* for any); replaces the default
                             (http://localhost:* and http://127.0.0.1:*)
           --allow-webhook-host  a webhook host allowed although its address is link-local
           --max-media-size  the largest media uploaded or fetched from a URL for a transcription
                             (bytes, or with a unit: 500MB, 2GiB; default 2GiB)
           --media-fetch-timeout  seconds a media URL's server may stay silent (default 30)
           --media-fetch-deadline  seconds a media URL's whole fetch may take (default 600); a
                             fetch slower than 4 KiB/s over 30 s ends sooner
           --journal         on (the default) or off: the request journal of /v1 requests and
                             sockets, read at /_voicedesk/requests (7 days, 50,000 entries at most)
           --force-new       start over with a new database when the old one went missing
           --seed            a seed applied when the default project is empty: JSON of agents and
                             phone numbers, or a state archive (.tar.gz); default: the data folder's
                             voicedesk.seed.json, if any. A bad seed stops the start.
keys       Manages the API keys of the default project. A new key is shown once.
ai-engine  Shows or chooses the engine of AI-content jobs: offline (the default), or an
           OpenAI-compatible chat endpoint such as a local Ollama (base URL .../v1).
           Takes effect at the next start of the service. Translation jobs need the
           OpenAI-compatible one (offline: they fail, LLM_ENGINE_NOT_CONFIGURED); they read
           the choice for each job.
stt-engine Shows or chooses speech recognition for live calls: off (the default), or an
           OpenAI-compatible /audio/transcriptions server such as whisper.cpp's server,
           speaches or LocalAI (base URL .../v1). Takes effect at the next start.
export     Writes the default project's state (agents, numbers, jobs and their media, webhook
           deliveries, settings) to FILE (.tar.gz). Secrets stay sealed with this data folder's
           key, and settings' secrets are left out; with --passphrase-file (a file whose first
           line is the passphrase, 8 characters or more) they are sealed under the passphrase,
           so another service can import them.
import     Reads FILE into the default project, which must be empty (reset first).
snapshot   Keeps the project's state under NAME (A-Z a-z 0-9 . _ -, up to 64); snapshots lists
           them; restore NAME puts the project back as it was (settings stay as they are).
reset      Empties the default project (agents, numbers, jobs, deliveries); keys stay. Needs --yes.
webhook-secret
           Shows whether webhooks are signed, or sets the Standard Webhooks signing secret
           (generate prints a new one once; give it to your receivers). A running service
           follows within a second.

Data folder: --data-dir, else VOICEDESK_DATA_DIR, else ${defaultDataDir()}

Team mode: --database-url postgres://USER:PASSWORD@HOST:5432/DB (or VOICEDESK_DATABASE_URL) runs
on PostgreSQL 15 or newer instead of a data folder; any number of instances may share one
database. Every instance needs the same VOICEDESK_SECRET_KEY (32 random bytes in base64 or
hex; make one with: openssl rand -base64 32).`

/** A mistake in how the command was called: one line that names what is wrong and how to fix it. */
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
  'database-url': { type: 'string' },
  'log-level': { type: 'string' },
  'force-new': { type: 'boolean' },
  'allowed-host': { type: 'string', multiple: true },
  'cors-origin': { type: 'string', multiple: true },
  'allow-webhook-host': { type: 'string', multiple: true },
  'max-media-size': { type: 'string' },
  'media-fetch-timeout': { type: 'string' },
  'media-fetch-deadline': { type: 'string' },
  journal: { type: 'string' },
  name: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  'passphrase-file': { type: 'string' },
  seed: { type: 'string' },
  yes: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

type OptionName = keyof typeof OPTIONS
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

/** Which options each command takes: any other is refused rather than silently ignored. */
const COMMAND_OPTIONS: Record<string, readonly OptionName[]> = {
  serve: [
    'port',
    'host',
    'data-dir',
    'database-url',
    'log-level',
    'force-new',
    'allowed-host',
    'cors-origin',
    'allow-webhook-host',
    'max-media-size',
    'media-fetch-timeout',
    'media-fetch-deadline',
    'journal',
    'seed',
  ],
  export: ['passphrase-file', 'data-dir', 'database-url'],
  import: ['passphrase-file', 'data-dir', 'database-url'],
  snapshot: ['data-dir', 'database-url'],
  restore: ['data-dir', 'database-url'],
  snapshots: ['data-dir', 'database-url'],
  reset: ['yes', 'data-dir', 'database-url'],
  keys: ['name', 'data-dir', 'database-url'],
  'ai-engine': ['base-url', 'model', 'api-key', 'data-dir', 'database-url'],
  'stt-engine': ['base-url', 'model', 'api-key', 'data-dir', 'database-url'],
  'webhook-secret': ['data-dir', 'database-url'],
}

function refuseOtherOptions(command: string, values: Values): void {
  const allowed = COMMAND_OPTIONS[command]!
  for (const name of Object.keys(values) as OptionName[]) {
    if (name === 'help' || name === 'version' || allowed.includes(name)) continue
    throw new UsageError(`${command} does not take --${name} (it takes ${allowed.map((option) => `--${option}`).join(', ')})`)
  }
}

/** Refuses positional arguments beyond the `max` a command takes, naming the first extra one. */
function refuseExtraArguments(command: string, positionals: string[], max: number, takes: string): void {
  if (positionals.length > max) {
    throw new UsageError(`Unexpected argument ${JSON.stringify(positionals[max])}: ${command} takes ${takes}`)
  }
}

/** `--journal on|off`: the request journal, on unless turned off. */
function journalEnabled(values: Values): boolean {
  const given = values.journal
  if (given === undefined || given === 'on') return true
  if (given === 'off') return false
  throw new UsageError(`--journal must be on or off, not ${JSON.stringify(given)}`)
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 }

/** `--media-fetch-timeout 60` or `--media-fetch-deadline 900`: seconds, as milliseconds; undefined when not given. */
function secondsOption(values: Values, name: 'media-fetch-timeout' | 'media-fetch-deadline'): number | undefined {
  const given = values[name]
  if (given === undefined) return undefined
  const seconds = /^\s*\d+(\.\d+)?\s*$/.test(given) ? Number(given) : 0
  if (!(seconds >= 0.001) || seconds > 86_400) throw new UsageError(`--${name} must be a number of seconds from 0.001 to 86400, not ${JSON.stringify(given)}`)
  return Math.round(seconds * 1000)
}

/** `--max-media-size 2GiB`, `--media-fetch-timeout 60` and `--media-fetch-deadline 900`, as RuntimeConfig.mediaIntake. */
function mediaIntakeOf(values: Values): RuntimeConfig['mediaIntake'] {
  const limits: NonNullable<RuntimeConfig['mediaIntake']> = {}
  const size = values['max-media-size']
  if (size !== undefined) {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(size)
    const unit = match && SIZE_UNITS[match[2]!.toLowerCase()]
    const bytes = match && unit ? Math.floor(Number(match[1]) * unit) : 0
    if (!Number.isSafeInteger(bytes) || bytes < 1) throw new UsageError(`--max-media-size must be a size such as 2GiB, 500MB or 1048576 (bytes), not ${JSON.stringify(size)}`)
    limits.maxUploadBytes = limits.maxFetchBytes = bytes
  }
  limits.fetchTimeoutMs = secondsOption(values, 'media-fetch-timeout')
  limits.fetchDeadlineMs = secondsOption(values, 'media-fetch-deadline')
  return limits
}

function parsePort(raw: string | undefined, source: string): number {
  if (raw === undefined) return DEFAULT_PORT
  const port = Number(raw)
  if (!/^\d+$/.test(raw) || port > 65_535) throw new UsageError(`${source} must be a port number from 0 to 65535 (0 picks a free one), not ${JSON.stringify(raw)}`)
  return port
}

/** A data folder as given, where it came from (for messages), and resolved once, here at the edge. */
interface DataDir {
  path: string
  source: string
}

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path
}

function dataDirOf(values: Values): DataDir {
  const [given, source] =
    values['data-dir'] !== undefined
      ? [values['data-dir'], '--data-dir']
      : process.env.VOICEDESK_DATA_DIR
        ? [process.env.VOICEDESK_DATA_DIR, 'VOICEDESK_DATA_DIR']
        : [defaultDataDir(), 'the default data folder']
  if (given.trim() === '') throw new UsageError(`${source} is empty: give a folder, such as --data-dir ./data`)
  const path = resolve(expandHome(given))
  return { path, source: path === given ? `${source} ${given}` : `${source} ${given} (${path})` }
}

/** Checks the folder before anything is written there; a problem names the flag, the path and the fix. */
function prepare(dataDir: DataDir, forceNew = false): void {
  try {
    prepareDataFolder(dataDir.path, { forceNew })
  } catch (error) {
    if (error instanceof DataFolderError) throw new UsageError(`${dataDir.source}: ${error.message}`)
    throw error
  }
}

/** Where a command's data is: a data folder, or (team mode) a PostgreSQL database and the key its secrets are sealed with. */
type Storage = { kind: 'folder'; dataDir: DataDir } | { kind: 'team'; url: string; label: string; source: string; secretKey: Buffer }

const SECRET_KEY_HOWTO = 'make one with: openssl rand -base64 32, and give every instance the same'

/** VOICEDESK_SECRET_KEY: 32 bytes, in base64 (44 characters) or hex (64). */
function teamSecretKey(): Buffer {
  const raw = process.env.VOICEDESK_SECRET_KEY?.trim()
  if (!raw) throw new UsageError(`Team mode needs VOICEDESK_SECRET_KEY, the key that seals stored secrets: ${SECRET_KEY_HOWTO}`)
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : /^[A-Za-z0-9+/]{43}=?$/.test(raw) ? Buffer.from(raw, 'base64') : undefined
  if (key?.length !== 32) throw new UsageError(`VOICEDESK_SECRET_KEY must be 32 bytes in base64 or hex (${raw.length} characters given): ${SECRET_KEY_HOWTO}`)
  return key
}

function storageOf(values: Values): Storage {
  const [url, source] =
    values['database-url'] !== undefined ? [values['database-url'], '--database-url'] : [process.env.VOICEDESK_DATABASE_URL || undefined, 'VOICEDESK_DATABASE_URL']
  if (url === undefined) return { kind: 'folder', dataDir: dataDirOf(values) }
  if (values['data-dir'] !== undefined) throw new UsageError(`--data-dir goes with SQLite only: with ${source} PostgreSQL holds everything, media included`)
  if (values['force-new']) throw new UsageError(`--force-new goes with a data folder only, not with ${source}`)
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`${source} is not a URL: give postgres://USER:PASSWORD@HOST:5432/DATABASE`)
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new UsageError(`${source} must start with postgres:// (PostgreSQL 15 or newer), not ${parsed.protocol}//`)
  }
  const label = databaseLabel(url)
  return { kind: 'team', url, label, source: `${source} ${label}`, secretKey: teamSecretKey() }
}

/** A database that cannot be used, in one line that names the URL (never its password) and the fix. */
function databaseProblem(storage: Extract<Storage, { kind: 'team' }>, error: unknown): Error {
  const code = (error as { code?: string }).code
  const message = (error as Error).message
  const why: Record<string, string> = {
    ECONNREFUSED: 'nothing answers at that host and port; is PostgreSQL running there?',
    ENOTFOUND: 'no host has that name',
    EAI_AGAIN: 'the host name could not be looked up',
    ETIMEDOUT: 'connecting timed out',
    '28P01': 'the password was refused',
    '28000': 'the server refused this user',
    '3D000': 'that database does not exist (create it first: createdb)',
    '42501': 'this user may not create the tables VoiceDesk needs',
  }
  if (error instanceof WrongSealingKeyError) return new UsageError(error.message)
  const reason = code !== undefined ? why[code] : undefined
  return new Error(`${storage.source}: ${reason ?? message}${code ? ` (${code})` : ''}`)
}

async function openStorageStore(storage: Storage): Promise<Store> {
  return (await openStorage(storage)).store
}

/**
 * Every command that worked on a data folder warns, on stderr, when no running service uses that
 * folder: the classic first-run mistake is a command run on the per-user default folder (or
 * another) while the service runs on `./data`, which silently works on the wrong data. Said
 * once the command succeeded, so a refusal stays one line.
 */
function warnWhenNoServiceUses(values: Values): void {
  const storage = storageOf(values)
  if (storage.kind === 'team' || findRunningServices(storage.dataDir.path).length > 0) return
  process.stderr.write(
    `Warning: no VoiceDesk service is using ${storage.dataDir.source} now; if yours runs on another folder, pass that folder with --data-dir (its "Data folder:" line says which).\n`,
  )
}

/**
 * The store, and in team mode the media the database holds. `onlyReads` names what a command
 * that only reads would do (export, list snapshots): where the folder holds no database it
 * refuses instead of creating an empty folder and reading nothing from it.
 */
async function openStorage(storage: Storage, onlyReads?: string): Promise<OpenedStore> {
  if (storage.kind === 'folder') {
    const { dataDir } = storage
    const database = join(dataDir.path, DATABASE_FILE)
    if (onlyReads !== undefined && !(existsSync(database) && statSync(database).size > 0)) {
      throw new UsageError(
        `${dataDir.source}: nothing to ${onlyReads} there, it holds no VoiceDesk data (no ${DATABASE_FILE}); is your service using another folder? Pass it with --data-dir`,
      )
    }
    prepare(dataDir)
    return openStore({ engine: 'sqlite', file: database })
  }
  let opened: OpenedStore | undefined
  try {
    opened = await openStore({ engine: 'postgres', url: storage.url, poolSize: 2 })
    await checkSealingKey(opened.store, new SecretBox(storage.secretKey))
    return opened
  } catch (error) {
    await opened?.store.close()
    throw databaseProblem(storage, error)
  }
}

function secretsOf(storage: Storage): SecretBox {
  return new SecretBox(storage.kind === 'team' ? storage.secretKey : loadOrCreateKeyFile(join(storage.dataDir.path, SECRET_KEY_FILE)))
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** VOICEDESK_API_KEY, checked before anything starts. */
function fixedApiKey(): string | undefined {
  const key = process.env.VOICEDESK_API_KEY || undefined
  const problem = key === undefined ? undefined : fixedApiKeyProblem(key)
  if (problem) throw new UsageError(`VOICEDESK_API_KEY ${problem}`)
  return key
}

/** Listen failures in the words of the flag that caused them. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new Error(`--port ${port}: port ${port} on ${host} is already in use. Stop the other service, or pass --port 0 for a free port`)
    case 'EACCES':
      return new Error(`--port ${port}: this user may not listen on port ${port}; use a port above 1023, such as the default ${DEFAULT_PORT}`)
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new UsageError(`--host ${host}: no address has that name; use 127.0.0.1 (the default), localhost, or an address of this machine`)
    case 'EADDRNOTAVAIL':
      return new UsageError(`--host ${host}: that address is not one of this machine's; use 127.0.0.1 (the default) or an address this machine has`)
    default:
      return error
  }
}

async function serve(values: Values): Promise<void> {
  const port = values.port !== undefined ? parsePort(values.port, '--port') : parsePort(process.env.VOICEDESK_PORT || undefined, 'VOICEDESK_PORT')
  const host = values.host ?? DEFAULT_HOST
  if (host.trim() === '') throw new UsageError('--host is empty: give an address, such as 127.0.0.1 (the default) or 0.0.0.0 for every interface')
  const logLevel = values['log-level'] ?? 'warn'
  if (!LOG_LEVELS.includes(logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(logLevel)}`)
  const journalOn = journalEnabled(values)
  const key = fixedApiKey()
  const storage = storageOf(values)
  if (storage.kind === 'folder') prepare(storage.dataDir, values['force-new'])

  // Handlers go in first: a supervisor may signal while the service starts, or as soon as it sees the banner.
  let runtime: Runtime | undefined
  installUnhandledRejectionGuard(() => runtime?.log)
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
  const storageConfig = storage.kind === 'folder' ? { dataDir: storage.dataDir.path } : { database: { url: storage.url }, secretKey: storage.secretKey }
  try {
    runtime = await createRuntime({
      ...storageConfig,
      port,
      host,
      fixedApiKey: key,
      forceNew: values['force-new'],
      allowedHosts: values['allowed-host'],
      corsOrigins: values['cors-origin'],
      allowWebhookHosts: values['allow-webhook-host'],
      mediaIntake: mediaIntakeOf(values),
      journal: { enabled: journalOn },
      seed: values.seed !== undefined ? resolve(expandHome(values.seed)) : undefined,
      // The built renderer sits beside this bundle: out/main/cli.js and out/renderer/.
      rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)),
      // JSON lines on stderr, so stdout keeps the start-up banner alone.
      log: pino({ level: logLevel, redact: ['req.headers.authorization', 'headers.authorization'] }, pino.destination(2)),
    })
  } catch (error) {
    throw storage.kind === 'team' ? databaseProblem(storage, error) : error
  }
  let url: string
  try {
    url = await runtime.start()
  } catch (error) {
    await runtime.stop()
    throw listenError(error as NodeJS.ErrnoException, host, port)
  }

  if (stopping) return
  const { bootstrap } = runtime
  const where = storage.kind === 'folder' ? `Data folder: ${storage.dataDir.path}` : `Database: ${storage.label} (team mode: instances on this database share the work)`
  const lines = [`VoiceDesk ${VERSION} listening on ${url}`, where]
  if (host !== DEFAULT_HOST && host !== 'localhost' && host !== '::1') {
    lines.push(`Warning: listening on ${host}, not only this machine. Anyone who can reach it and holds a key can use the service.`)
  }
  if (bootstrap.keySource === 'created') {
    lines.push(`API key (new; shown at every start until it is first used, copy it now): ${bootstrap.createdKey}`)
  } else if (bootstrap.keySource === 'unused') {
    lines.push(`API key (made at an earlier start, not used yet; shown until its first use): ${bootstrap.createdKey}`)
  } else if (bootstrap.keySource === 'environment') {
    lines.push(`API key: the one in VOICEDESK_API_KEY (${bootstrap.keyHint})`)
  } else {
    const place = storage.kind === 'folder' ? `--data-dir ${storage.dataDir.path}` : `with ${storage.source.split(' ')[0]} set`
    lines.push(`API key: ${bootstrap.keyHint} (created earlier; run "npx voicedesk keys create ${place}" for a new one)`)
  }
  const shownKey = bootstrap.createdKey ?? (bootstrap.keySource === 'environment' ? '$VOICEDESK_API_KEY' : '<your key>')
  lines.push(`Operator UI: ${url}/app/#token=${runtime.uiToken}`)
  lines.push(`Try: curl -H "Authorization: Token ${shownKey}" ${url}/v1/voice-agents/templates`)
  say(lines.join('\n'))
}

/** Where the key just made will work: the services using this folder now, or how to start one (openStorage has warned then). */
function servingNote(storage: Storage): string {
  if (storage.kind === 'team') return 'It works at once on every instance using this database.'
  const { dataDir } = storage
  const services = findRunningServices(dataDir.path)
  if (services.length > 0) return `It works at once on the service using this folder (${services.map((service) => service.url).join(', ')}).`
  return `It works once a service runs with --data-dir ${dataDir.path}`
}

async function keys(values: Values, positionals: string[]): Promise<void> {
  const [action, id] = positionals
  refuseExtraArguments('keys', positionals, action === 'revoke' ? 2 : 1, action === 'revoke' ? 'one key id' : 'create, list or revoke <key id>')
  if (values.name !== undefined && action !== 'create') throw new UsageError(`--name goes with "keys create" only`)
  const storage = storageOf(values)
  const store = await openStorageStore(storage)
  try {
    const context = { store, now: () => new Date() }
    // No default key here: the key the operator creates is the first one they see.
    const { projectId } = await bootstrapAccounts(store, context.now(), undefined, { createKey: false })
    if (action === 'create') {
      const { record, key } = await createApiKey(context, projectId, values.name ?? 'CLI key')
      const place = storage.kind === 'folder' ? `the data folder ${storage.dataDir.path}` : `the database ${storage.label}`
      say(`Created key ${record.id} (${record.name}) in ${place}. Shown only this once:\n${key}\n${servingNote(storage)}`)
    } else if (action === 'list') {
      const appKeyId = await appKeyIdOf(store)
      for (const key of await listApiKeys(context, projectId)) {
        const state = key.revokedAt ? `revoked ${key.revokedAt}` : `last used ${key.lastUsedAt ?? 'never'}`
        const origin = key.id === appKeyId ? '  (the app itself acts with it; it works over no HTTP)' : key.name === FIXED_KEY_NAME ? '  (set by VOICEDESK_API_KEY)' : ''
        say(`${key.id}  ${key.keyHint}  ${key.name}  created ${key.createdAt}  ${state}${origin}`)
      }
    } else if (action === 'revoke') {
      if (!id) throw new UsageError('keys revoke needs the id of the key (see "voicedesk keys list")')
      await revokeApiKey(context, id)
      say(`Revoked key ${id}`)
    } else {
      throw new UsageError(action ? `Unknown keys action ${JSON.stringify(action)}: use create, list or revoke <key id>` : 'keys needs one of: create, list, revoke <key id>')
    }
  } finally {
    await store.close()
  }
}

const AI_ENGINE_EXAMPLE = 'voicedesk ai-engine openai-compatible --base-url http://127.0.0.1:11434/v1 --model llama3.2'

async function aiEngine(values: Values, positionals: string[]): Promise<void> {
  const [choice] = positionals
  refuseExtraArguments('ai-engine', positionals, 1, 'one engine: offline or openai-compatible')
  if (choice !== undefined && choice !== 'offline' && choice !== 'openai-compatible') {
    throw new UsageError(`Unknown engine ${JSON.stringify(choice)}: use offline, or ${AI_ENGINE_EXAMPLE}`)
  }
  if (choice !== 'openai-compatible') {
    const stray = (['base-url', 'model', 'api-key'] as const).find((name) => values[name] !== undefined)
    if (stray) throw new UsageError(`--${stray} goes with "ai-engine openai-compatible" only`)
  } else {
    const missing = (['base-url', 'model'] as const).filter((name) => !values[name])
    if (missing.length > 0) throw new UsageError(`ai-engine openai-compatible needs ${missing.map((name) => `--${name}`).join(' and ')}, as in: ${AI_ENGINE_EXAMPLE}`)
  }
  const storage = storageOf(values)
  const store = await openStorageStore(storage)
  try {
    if (choice === undefined) {
      const setting = (await store.settings.get('aiContent', AiContentSettingSchema)) ?? { engine: 'offline' }
      say(setting.engine === 'offline' ? 'offline' : `openai-compatible ${setting.baseUrl} model ${setting.model}`)
      return
    }
    const secrets = secretsOf(storage)
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
      const issue = parsed.error.issues[0]!
      const flag = issue.path[0] === 'baseUrl' ? `--base-url ${values['base-url']}` : `--${String(issue.path[0])}`
      throw new UsageError(`${flag}: ${issue.message}; as in: ${AI_ENGINE_EXAMPLE}`)
    }
    await store.settings.set('aiContent', parsed.data)
    say(`AI content will use ${choice === 'offline' ? 'the offline engine' : `${values.model} at ${values['base-url']}`} from the next start.`)
  } finally {
    await store.close()
  }
}

const STT_ENGINE_EXAMPLE = 'voicedesk stt-engine openai-compatible --base-url http://127.0.0.1:8080/v1'

async function sttEngine(values: Values, positionals: string[]): Promise<void> {
  const [choice] = positionals
  refuseExtraArguments('stt-engine', positionals, 1, 'one engine: off or openai-compatible')
  if (choice !== undefined && choice !== 'off' && choice !== 'openai-compatible') {
    throw new UsageError(`Unknown engine ${JSON.stringify(choice)}: use off, or ${STT_ENGINE_EXAMPLE}`)
  }
  if (choice !== 'openai-compatible') {
    const stray = (['base-url', 'model', 'api-key'] as const).find((name) => values[name] !== undefined)
    if (stray) throw new UsageError(`--${stray} goes with "stt-engine openai-compatible" only`)
  } else if (!values['base-url']) {
    throw new UsageError(`stt-engine openai-compatible needs --base-url, as in: ${STT_ENGINE_EXAMPLE}`)
  }
  const storage = storageOf(values)
  const store = await openStorageStore(storage)
  try {
    if (choice === undefined) {
      const setting = await readSttSetting(store)
      say(setting.engine === 'off' ? 'off' : `openai-compatible ${setting.baseUrl} model ${setting.model ?? 'whisper-1 (the server default)'}`)
      return
    }
    // The CLI replaces the whole choice: a server chosen without --api-key has no key (null forgets a stored one).
    const change: SttSettingChange =
      choice === 'off' ? { engine: 'off' } : { engine: choice, baseUrl: values['base-url'] ?? '', model: values.model || undefined, apiKey: values['api-key'] || null }
    try {
      await saveSttSetting(store, secretsOf(storage), change)
    } catch (error) {
      if (!(error instanceof z.ZodError)) throw error
      const issue = error.issues[0]!
      const flag = issue.path[0] === 'baseUrl' ? `--base-url ${values['base-url']}` : `--${String(issue.path[0])}`
      throw new UsageError(`${flag}: ${issue.message}; as in: ${STT_ENGINE_EXAMPLE}`)
    }
    say(
      choice === 'off'
        ? 'Speech recognition is off from the next call: calls hear when the caller speaks, not what they say.'
        : `Speech recognition will use ${values.model ? `model ${values.model}` : 'the server default model'} at ${values['base-url']}${values['api-key'] ? ' (with an API key)' : ''} from the next call.`,
    )
  } finally {
    await store.close()
  }
}

async function webhookSecret(values: Values, positionals: string[]): Promise<void> {
  const [action, secret] = positionals
  refuseExtraArguments('webhook-secret', positionals, action === 'set' ? 2 : 1, action === 'set' ? 'one secret' : 'generate, set <whsec_...> or clear')
  const storage = storageOf(values)
  const store = await openStorageStore(storage)
  try {
    const settings = webhookSigningSettings(store, secretsOf(storage))
    if (action === undefined) {
      const current = await settings.signingSecret()
      say(current === undefined ? 'Webhooks are not signed.' : `Webhooks are signed (webhook-signature) with the secret ending ${current.slice(-4)}.`)
    } else if (action === 'generate') {
      say(`Webhooks are now signed with this secret, shown only this once:\n${await settings.setSigningSecret()}`)
    } else if (action === 'set') {
      if (!secret) throw new UsageError('webhook-secret set needs the secret (whsec_...)')
      await settings.setSigningSecret(secret)
      say(`Webhooks are now signed with the secret ending ${secret.slice(-4)}.`)
    } else if (action === 'clear') {
      await settings.clearSigningSecret()
      say('Webhooks are no longer signed.')
    } else {
      throw new UsageError(`Unknown webhook-secret action ${JSON.stringify(action)}: use generate, set <whsec_...> or clear`)
    }
  } catch (error) {
    if (error instanceof InvalidSigningSecretError) throw new UsageError(error.message)
    throw error
  } finally {
    await store.close()
  }
}

/** The state commands, with the one argument each takes (none for snapshots and reset). */
const STATE_COMMANDS: Record<string, string | undefined> = { export: 'FILE', import: 'FILE', snapshot: 'NAME', restore: 'NAME', snapshots: undefined, reset: undefined }

const STATE_COUNT_NOUNS: Record<keyof StateCounts, [one: string, other: string]> = {
  agents: ['agent', 'agents'],
  phoneNumbers: ['phone number', 'phone numbers'],
  jobs: ['job', 'jobs'],
  deliveries: ['webhook delivery', 'webhook deliveries'],
  attempts: ['delivery attempt', 'delivery attempts'],
}

/** "1 agent, 2 phone numbers, 0 jobs, …" (an archive's manifest may lack a kind: none of it). */
function countsText(counts: Partial<StateCounts>): string {
  return (Object.keys(STATE_COUNT_NOUNS) as (keyof StateCounts)[]).map((kind) => counted(counts[kind] ?? 0, ...STATE_COUNT_NOUNS[kind])).join(', ')
}

/** --passphrase-file: the file's first line (a passphrase never goes on the command line, where `ps` shows it). */
async function passphraseFrom(values: Values, forExport: boolean): Promise<string | undefined> {
  const file = values['passphrase-file']
  if (file === undefined) return undefined
  let text: string
  try {
    text = await readFile(resolve(expandHome(file)), 'utf8')
  } catch (error) {
    throw new UsageError(`--passphrase-file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`)
  }
  const passphrase = text.split(/\r?\n/)[0] ?? ''
  if (passphrase.length < (forExport ? 8 : 1))
    throw new UsageError(`--passphrase-file ${file}: its first line must hold the passphrase${forExport ? ' (8 characters or more)' : ''}`)
  return passphrase
}

async function stateCommand(command: string, values: Values, positionals: string[]): Promise<void> {
  const argument = STATE_COMMANDS[command]
  refuseExtraArguments(command, positionals, argument ? 1 : 0, argument ? `one ${argument}` : 'no arguments')
  const [given] = positionals
  if (argument && !given) throw new UsageError(`${command} needs ${argument} (see voicedesk --help)`)
  if (command === 'reset' && !values.yes) throw new UsageError('reset empties the default project (agents, numbers, jobs, deliveries; keys stay): add --yes to do it')
  if ((command === 'snapshot' || command === 'restore') && !SNAPSHOT_NAME_PATTERN.test(given!)) {
    throw new UsageError(`Snapshot name ${JSON.stringify(given)}: a name is 1 to 64 of A-Z a-z 0-9 . _ -`)
  }
  const passphrase = command === 'export' || command === 'import' ? await passphraseFrom(values, command === 'export') : undefined
  const storage = storageOf(values)
  const { store, sharedMedia } = await openStorage(storage, command === 'export' ? 'export' : command === 'snapshots' ? 'list' : undefined)
  try {
    const now = () => new Date()
    const bootstrap = await bootstrapAccounts(store, now(), undefined, { createKey: false })
    const caller = await ensureAppIdentity(store, now(), bootstrap)
    const folder = storage.kind === 'folder' ? storage.dataDir.path : undefined
    const media = sharedMedia ?? new FileMediaStore(join(folder!, MEDIA_FOLDER))
    if (folder) await mkdir(join(folder, MEDIA_FOLDER), { recursive: true, mode: 0o700 })
    const state = new ProjectState({
      store,
      media,
      storage: storage.kind === 'folder' ? storage.dataDir.path : storage.label,
      secrets: secretsOf(storage),
      shelf: folder ? new FolderSnapshotShelf(join(folder, SNAPSHOTS_FOLDER)) : new MediaSnapshotShelf(media, store.settings),
      version: VERSION,
      now,
    })
    const where = storage.kind === 'folder' ? `the data folder ${storage.dataDir.path}` : `the database ${storage.label}`
    if (command === 'export') {
      const file = resolve(expandHome(given!))
      const { stream, manifest } = await state.exportArchive(caller.projectId, passphrase)
      const aside = `${file}.partial`
      try {
        await pipeline(stream, createWriteStream(aside, { mode: 0o600 }))
        await rename(aside, file)
      } catch (error) {
        await rm(aside, { force: true })
        throw error
      }
      say(`Exported ${countsText(manifest.counts)} from ${where} to ${file}${passphrase ? ' (secrets sealed under the passphrase)' : ''}.`)
    } else if (command === 'import') {
      const file = resolve(expandHome(given!))
      const source = createReadStream(file)
      await new Promise<void>((opened, failed) => {
        source.once('open', () => opened())
        source.once('error', (error) => failed(new UsageError(`${given}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error.message}`)))
      })
      const outcome = await state.importArchive(caller.projectId, source, { owner: caller, passphrase }).catch((error: unknown) => {
        // A file that is not a whole VoiceDesk archive (or past the limits) is the user's input: a usage error, exit 2.
        if (error instanceof ServiceError && (error.code === 'PAYLOAD_TOO_LARGE' || error.details.some((detail) => detail.path === 'body')))
          throw new UsageError(`${given}: ${error.message}`)
        throw error
      })
      const settings = outcome.settings.skipped.length ? `; settings left as they were: ${outcome.settings.skipped.join(', ')}` : ''
      say(`Imported ${countsText(outcome.counts)} into ${where}${settings}.`)
    } else if (command === 'snapshot') {
      const info = await state.takeSnapshot(caller.projectId, given!)
      say(`Snapshot ${info.name}: ${countsText(info.counts)}, ${counted(info.sizeBytes, 'byte', 'bytes')}.`)
    } else if (command === 'restore') {
      const outcome = await state.restoreSnapshot(caller.projectId, given!, caller)
      say(`Restored snapshot ${given}: ${countsText(outcome.counts)}.`)
    } else if (command === 'snapshots') {
      const snapshots = await state.listSnapshots(caller.projectId)
      if (snapshots.length === 0) say(`No snapshots in ${where}.`)
      for (const info of snapshots) say(`${info.name}  ${info.createdAt}  ${counted(info.sizeBytes, 'byte', 'bytes')}  ${countsText(info.counts)}`)
    } else {
      const { removed } = await state.reset(caller.projectId)
      say(`Reset the default project of ${where}: removed ${countsText(removed)}; keys stay.`)
    }
  } finally {
    await store.close()
  }
}

/** node:util's parse errors, in one line of our words. */
function parseArgsError(error: NodeJS.ErrnoException): UsageError | undefined {
  if (!error.code?.startsWith('ERR_PARSE_ARGS')) return undefined
  const option = /'(-[^' ]+)/.exec(error.message)?.[1]
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return new UsageError(`Unknown option ${option} (see voicedesk --help)`)
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) return new UsageError(`${option} needs a value (see voicedesk --help)`)
  return new UsageError(error.message.split('\n')[0])
}

const COMMANDS = 'serve, keys, ai-engine, stt-engine, webhook-secret, export, import, snapshot, snapshots, restore or reset'

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
    if (command === undefined) throw new UsageError(`Which command? ${COMMANDS} (see voicedesk --help)`)
    if (!(command in COMMAND_OPTIONS)) throw new UsageError(`Unknown command ${JSON.stringify(command)}: use ${COMMANDS} (see voicedesk --help)`)
    refuseOtherOptions(command, values)
    if (command === 'serve') {
      refuseExtraArguments('serve', rest, 0, 'no arguments, only options')
      await serve(values)
      return -1 // keeps running until a signal
    }
    if (command === 'ai-engine') await aiEngine(values, rest)
    else if (command === 'stt-engine') await sttEngine(values, rest)
    else if (command === 'webhook-secret') await webhookSecret(values, rest)
    else if (command in STATE_COMMANDS) await stateCommand(command, values, rest)
    else await keys(values, rest)
    warnWhenNoServiceUses(values)
    return 0
  } catch (raw) {
    const error = parseArgsError(raw as NodeJS.ErrnoException) ?? raw
    if (error instanceof UsageError) {
      process.stderr.write(`voicedesk: ${error.message}\n`)
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
