import { homedir } from 'node:os'
import { join } from 'node:path'
import type { parseArgs } from 'node:util'
import { DEFAULT_PORT, type RuntimeConfig } from '../compose/config'
import { DEFAULT_SIP_PORT, sipConfigProblem } from '../compose/sip-config'

/** The command line as node:util's parseArgs reads it, and the checks of its options' values. */

/** A mistake in how the command was called: one line that names what is wrong and how to fix it. */
export class UsageError extends Error {}

export const OPTIONS = {
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
  'max-calls': { type: 'string' },
  'sip-port': { type: 'string' },
  'sip-host': { type: 'string' },
  'sip-allow-outbound': { type: 'string', multiple: true },
  journal: { type: 'string' },
  name: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  'passphrase-file': { type: 'string' },
  seed: { type: 'string' },
  suite: { type: 'string' },
  generate: { type: 'string' },
  force: { type: 'boolean' },
  concurrency: { type: 'string' },
  repeat: { type: 'string' },
  junit: { type: 'string' },
  json: { type: 'string' },
  yes: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

type OptionName = keyof typeof OPTIONS
export type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

/** Which options each command takes: any other is refused rather than silently ignored. */
export const COMMAND_OPTIONS: Record<string, readonly OptionName[]> = {
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
    'max-calls',
    'sip-port',
    'sip-host',
    'sip-allow-outbound',
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
  'sip-user': ['data-dir', 'database-url'],
  'test-agent': ['suite', 'generate', 'force', 'concurrency', 'repeat', 'junit', 'json', 'base-url', 'api-key'],
}

export function refuseOtherOptions(command: string, values: Values): void {
  const allowed = COMMAND_OPTIONS[command]
  if (!allowed) throw new UsageError(`Unknown command ${JSON.stringify(command)}: use ${COMMANDS} (see voicedesk --help)`)
  for (const name of Object.keys(values) as OptionName[]) {
    if (name === 'help' || name === 'version' || allowed.includes(name)) continue
    throw new UsageError(`${command} does not take --${name} (it takes ${allowed.map((option) => `--${option}`).join(', ')})`)
  }
}

/** Refuses positional arguments beyond the `max` a command takes, naming the first extra one. */
export function refuseExtraArguments(command: string, positionals: string[], max: number, takes: string): void {
  if (positionals.length > max) {
    throw new UsageError(`Unexpected argument ${JSON.stringify(positionals[max])}: ${command} takes ${takes}`)
  }
}

/** `--journal on|off`: the request journal, on unless turned off. */
export function journalEnabled(values: Values): boolean {
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
  if (!(seconds >= 0.001) || seconds > 86_400)
    throw new UsageError(`--${name} must be a number of seconds from 0.001 to 86400, not ${JSON.stringify(given)}`)
  return Math.round(seconds * 1000)
}

/** `--max-media-size 2GiB`, `--media-fetch-timeout 60` and `--media-fetch-deadline 900`, as RuntimeConfig.mediaIntake. */
export function mediaIntakeOf(values: Values): RuntimeConfig['mediaIntake'] {
  const limits: NonNullable<RuntimeConfig['mediaIntake']> = {}
  const size = values['max-media-size']
  if (size !== undefined) {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(size)
    const unit = match && SIZE_UNITS[(match[2] ?? '').toLowerCase()]
    const bytes = match && unit ? Math.floor(Number(match[1]) * unit) : 0
    if (!Number.isSafeInteger(bytes) || bytes < 1)
      throw new UsageError(`--max-media-size must be a size such as 2GiB, 500MB or 1048576 (bytes), not ${JSON.stringify(size)}`)
    limits.maxUploadBytes = limits.maxFetchBytes = bytes
  }
  limits.fetchTimeoutMs = secondsOption(values, 'media-fetch-timeout')
  limits.fetchDeadlineMs = secondsOption(values, 'media-fetch-deadline')
  return limits
}

/** `--max-calls 20`: the cap on this instance's concurrent calls; undefined when not given (the default, 50). */
export function maxCallsOf(values: Values): number | undefined {
  const given = values['max-calls']
  if (given === undefined) return undefined
  const calls = /^\s*\d+\s*$/.test(given) ? Number(given) : 0
  if (calls < 1 || calls > 10_000)
    throw new UsageError(`--max-calls must be a whole number of calls from 1 to 10000, not ${JSON.stringify(given)}`)
  return calls
}

export function parsePort(raw: string | undefined, source: string): number {
  if (raw === undefined) return DEFAULT_PORT
  const port = Number(raw)
  if (!/^\d+$/.test(raw) || port > 65_535)
    throw new UsageError(`${source} must be a port number from 0 to 65535 (0 picks a free one), not ${JSON.stringify(raw)}`)
  return port
}

/**
 * `--sip-port N|off` (or VOICEDESK_SIP_PORT) and `--sip-host H`: the SIP line's config (5060 on 127.0.0.1 by default),
 * or undefined for `off`. Another host than loopback is taken only once SIP users exist (checked
 * as the service starts); `--sip-allow-outbound host[:port],…` opens `sip:` URIs the agents may call.
 * VOICEDESK_SIP_REALTIME (on or off) is checked here too.
 */
export function sipLineOf(values: Values): RuntimeConfig['sip'] {
  // Read by the SIP media thread itself (media-worker.ts); checked here, where a bad value can be told.
  const realtime = process.env.VOICEDESK_SIP_REALTIME
  if (realtime && realtime !== 'on' && realtime !== 'off')
    throw new UsageError(
      `VOICEDESK_SIP_REALTIME must be on or off (real-time scheduling of the SIP media thread; on by default), not ${JSON.stringify(realtime)}`,
    )
  const source = values['sip-port'] !== undefined ? '--sip-port' : 'VOICEDESK_SIP_PORT'
  const raw = values['sip-port'] ?? (process.env.VOICEDESK_SIP_PORT || undefined)
  if (raw === 'off') {
    if (values['sip-host'] !== undefined) throw new UsageError('--sip-host has no use with --sip-port off: leave one of them out')
    if (values['sip-allow-outbound'] !== undefined)
      throw new UsageError('--sip-allow-outbound has no use with --sip-port off: leave one of them out')
    return undefined
  }
  const port = raw === undefined ? DEFAULT_SIP_PORT : Number(raw)
  if (raw !== undefined && (!/^\d+$/.test(raw) || port > 65_535))
    throw new UsageError(`${source} must be a port number from 0 to 65535 (0 picks a free one) or off, not ${JSON.stringify(raw)}`)
  const host = values['sip-host'] ?? '127.0.0.1'
  if (host.trim() === '') throw new UsageError('--sip-host is empty: give an address, such as 127.0.0.1 (the default)')
  const allowOutbound = (values['sip-allow-outbound'] ?? []).flatMap((list) => list.split(',')).map((entry) => entry.trim())
  const problem = sipConfigProblem({ port, host, allowOutbound })
  if (problem) throw new UsageError(`--sip-allow-outbound ${problem.replace(/^allowOutbound entry /, '')}`)
  return { port, host, ...(allowOutbound.length > 0 ? { allowOutbound } : {}) }
}

export function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path
}

/** node:util's parse errors, in one line of our words. */
export function parseArgsError(error: NodeJS.ErrnoException): UsageError | undefined {
  if (!error.code?.startsWith('ERR_PARSE_ARGS')) return undefined
  const option = /'(-[^' ]+)/.exec(error.message)?.[1]
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return new UsageError(`Unknown option ${option} (see voicedesk --help)`)
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option)
    return new UsageError(`${option} needs a value (see voicedesk --help)`)
  return new UsageError(error.message.split('\n')[0])
}

export const COMMANDS =
  'serve, keys, sip-user, ai-engine, stt-engine, webhook-secret, test-agent, export, import, snapshot, snapshots, restore or reset'
