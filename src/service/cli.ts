import { parseArgs } from 'node:util'
import { ServiceError } from './ops/service-error'
import { VERSION } from './runtime'
import { aiEngine } from './cli/ai-engine'
import { COMMAND_OPTIONS, COMMANDS, OPTIONS, parseArgsError, refuseExtraArguments, refuseOtherOptions, UsageError } from './cli/args'
import { keys } from './cli/keys'
import { serve } from './cli/serve'
import { STATE_COMMANDS, stateCommand } from './cli/state-commands'
import { warnWhenNoServiceUses } from './cli/storage'
import { sttEngine } from './cli/stt-engine'
import { USAGE } from './cli/usage'
import { webhookSecret } from './cli/webhook-secret'

/** The `voicedesk` command (bin/voicedesk.js runs its bundle, out/main/cli.js): one file per command in cli/. */

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
