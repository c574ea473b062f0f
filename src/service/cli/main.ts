import { parseArgs } from 'node:util'
import { VERSION } from '../compose/config'
import { COMMAND_OPTIONS, COMMANDS, OPTIONS, parseArgsError, refuseExtraArguments, refuseOtherOptions, UsageError } from './args'
import { USAGE } from './usage'

/**
 * The `voicedesk` command (bin/voicedesk.js runs its bundle, out/main/cli.js): one file per command in cli/.
 * Each command's module is loaded only when that command runs, so --help, --version and a mistyped
 * command answer at once instead of after loading the whole service (storage drivers, HTTP, engines).
 */

export interface MainOptions {
  /** The built operator UI that `serve` offers at /app/ (the entry bundle knows where it sits). */
  rendererDir: string
}

/**
 * Runs one command line and resolves to the exit code; -1 while `serve` keeps running. Its own
 * module so the argument checks can be exercised in-process (test/cli/usage.test.ts), where
 * spawning the bundle once per mistake costs a second of Node start-up each.
 */
export async function main(argv: string[], options: MainOptions): Promise<number> {
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
    if (!(command in COMMAND_OPTIONS))
      throw new UsageError(`Unknown command ${JSON.stringify(command)}: use ${COMMANDS} (see voicedesk --help)`)
    refuseOtherOptions(command, values)
    if (command === 'serve') {
      refuseExtraArguments('serve', rest, 0, 'no arguments, only options')
      await (await import('./serve')).serve(values, { rendererDir: options.rendererDir })
      return -1 // keeps running until a signal
    }
    // Against a running service over HTTP: no data folder, and its own exit code (1: a scenario failed).
    if (command === 'test-agent') return await (await import('./test-agent')).testAgent(values, rest)
    if (command === 'ai-engine') await (await import('./ai-engine')).aiEngine(values, rest)
    else if (command === 'stt-engine') await (await import('./stt-engine')).sttEngine(values, rest)
    else if (command === 'webhook-secret') await (await import('./webhook-secret')).webhookSecret(values, rest)
    else if (command === 'keys') await (await import('./keys')).keys(values, rest)
    else if (command === 'sip-user') await (await import('./sip-user')).sipUser(values, rest)
    else await (await import('./state-commands')).stateCommand(command, values, rest)
    ;(await import('./storage')).warnWhenNoServiceUses(values)
    return 0
  } catch (raw) {
    const error = parseArgsError(raw as NodeJS.ErrnoException) ?? raw
    if (error instanceof UsageError) {
      process.stderr.write(`voicedesk: ${error.message}\n`)
      return 2
    }
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`voicedesk: ${message}\n`)
    return 1
  }
}
