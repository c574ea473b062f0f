import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { VERSION } from './compose/config'
import { COMMAND_OPTIONS, COMMANDS, OPTIONS, parseArgsError, refuseExtraArguments, refuseOtherOptions, UsageError } from './cli/args'
import { USAGE } from './cli/usage'

/**
 * The `voicedesk` command (bin/voicedesk.js runs its bundle, out/main/cli.js): one file per command in cli/.
 * Each command's module is loaded only when that command runs, so --help, --version and a mistyped
 * command answer at once instead of after loading the whole service (storage drivers, HTTP, engines).
 */

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
    if (!(command in COMMAND_OPTIONS))
      throw new UsageError(`Unknown command ${JSON.stringify(command)}: use ${COMMANDS} (see voicedesk --help)`)
    refuseOtherOptions(command, values)
    if (command === 'serve') {
      refuseExtraArguments('serve', rest, 0, 'no arguments, only options')
      // The built renderer sits beside the entry bundle: out/main/cli.js and out/renderer/.
      await (await import('./cli/serve')).serve(values, { rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)) })
      return -1 // keeps running until a signal
    }
    if (command === 'ai-engine') await (await import('./cli/ai-engine')).aiEngine(values, rest)
    else if (command === 'stt-engine') await (await import('./cli/stt-engine')).sttEngine(values, rest)
    else if (command === 'webhook-secret') await (await import('./cli/webhook-secret')).webhookSecret(values, rest)
    else if (command === 'keys') await (await import('./cli/keys')).keys(values, rest)
    else await (await import('./cli/state-commands')).stateCommand(command, values, rest)
    ;(await import('./cli/storage')).warnWhenNoServiceUses(values)
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

void main(process.argv.slice(2)).then((code) => {
  if (code >= 0) process.exitCode = code
})
