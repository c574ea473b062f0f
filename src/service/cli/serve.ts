import { resolve } from 'node:path'
import { pino } from 'pino'
import { fixedApiKeyProblem } from '../ops/api-keys'
import { DEFAULT_HOST, DEFAULT_PORT, VERSION } from '../compose/config'
import type { Runtime } from '../runtime'
import type { SipLineStatus } from '../compose/config'
import { installUnhandledRejectionGuard } from '../compose/unhandled-rejection-guard'
import { isLoopbackHost, sipHostProblem } from '../compose/sip-config'
import { expandHome, journalEnabled, maxCallsOf, mediaIntakeOf, parsePort, sipLineOf, UsageError, type Values } from './args'
import { say } from './say'
import { databaseProblem, openStorageStore, prepare, storageOf } from './storage'

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
      return new Error(
        `--port ${port}: port ${port} on ${host} is already in use. Stop the other service, or pass --port 0 for a free port`,
      )
    case 'EACCES':
      return new Error(
        `--port ${port}: this user may not listen on port ${port}; use a port above 1023, such as the default ${DEFAULT_PORT}`,
      )
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new UsageError(
        `--host ${host}: no address has that name; use 127.0.0.1 (the default), localhost, or an address of this machine`,
      )
    case 'EADDRNOTAVAIL':
      return new UsageError(
        `--host ${host}: that address is not one of this machine's; use 127.0.0.1 (the default) or an address this machine has`,
      )
    default:
      return error
  }
}

export interface ServeOptions {
  /** The built operator UI (out/renderer), found from the entry bundle: this module may sit in a chunk folder. */
  rendererDir: string
}

export async function serve(values: Values, options: ServeOptions): Promise<void> {
  const port =
    values.port !== undefined ? parsePort(values.port, '--port') : parsePort(process.env.VOICEDESK_PORT || undefined, 'VOICEDESK_PORT')
  const host = values.host ?? DEFAULT_HOST
  if (host.trim() === '')
    throw new UsageError('--host is empty: give an address, such as 127.0.0.1 (the default) or 0.0.0.0 for every interface')
  const logLevel = values['log-level'] ?? 'warn'
  if (!LOG_LEVELS.includes(logLevel))
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(logLevel)}`)
  const journalOn = journalEnabled(values)
  const maxCalls = maxCallsOf(values)
  const sip = sipLineOf(values)
  const mediaIntake = mediaIntakeOf(values)
  const key = fixedApiKey()
  const storage = storageOf(values)
  if (storage.kind === 'folder') prepare(storage.dataDir, values['force-new'])

  // Another SIP address than loopback is taken only once SIP users exist: without one, the start is a usage mistake.
  if (sip?.host !== undefined && !isLoopbackHost(sip.host)) {
    const store = await openStorageStore(storage)
    try {
      const problem = sipHostProblem(sip.host, await store.sipUsers.count())
      if (problem) throw new UsageError(`--sip-host ${problem}`)
    } finally {
      await store.close()
    }
  }

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
  const storageConfig =
    storage.kind === 'folder' ? { dataDir: storage.dataDir.path } : { database: { url: storage.url }, secretKey: storage.secretKey }
  try {
    // The service itself loads once the command line has been checked: a mistake answers at once.
    const { createRuntime } = await import('../runtime')
    runtime = await createRuntime({
      ...storageConfig,
      port,
      host,
      fixedApiKey: key,
      forceNew: values['force-new'],
      allowedHosts: values['allowed-host'],
      corsOrigins: values['cors-origin'],
      allowWebhookHosts: values['allow-webhook-host'],
      mediaIntake,
      calls: { maxConcurrent: maxCalls },
      sip,
      journal: { enabled: journalOn },
      seed: values.seed !== undefined ? resolve(expandHome(values.seed)) : undefined,
      rendererDir: options.rendererDir,
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
  const where =
    storage.kind === 'folder'
      ? `Data folder: ${storage.dataDir.path}`
      : `Database: ${storage.label} (team mode: instances on this database share the work)`
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
  lines.push(sipBannerLine(runtime.sipLine()))
  lines.push(`Operator UI: ${url}/app/#token=${runtime.uiToken}`)
  lines.push(`Try: curl -H "Authorization: Token ${shownKey}" ${url}/v1/voice-agents/templates`)
  say(lines.join('\n'))
}

/** How to call the agents, or why the SIP line is off: the service runs either way. */
function sipBannerLine(status: SipLineStatus): string {
  switch (status.state) {
    case 'off':
      return 'SIP line: off (--sip-port off)'
    case 'failed':
      return `SIP line: off, ${status.problem}`
    case 'listening': {
      const host = status.host.includes(':') ? `[${status.host}]` : status.host
      const where = `SIP line (UDP and TCP): call an assigned number at sip:<number>@${host}:${status.port}`
      return isLoopbackHost(status.host)
        ? where
        : `${where}\nSIP line on ${status.host}: REGISTER and calls from other machines need a SIP user's password (digest authentication)`
    }
  }
}
