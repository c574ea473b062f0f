import { fileURLToPath } from 'node:url'
import { main } from './cli/main'

/**
 * The `voicedesk` command (bin/voicedesk.js runs its bundle, out/main/cli.js): one file per command in cli/,
 * the command line read in cli/main.ts.
 */
// The built renderer sits beside the entry bundle: out/main/cli.js and out/renderer/.
void main(process.argv.slice(2), { rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)) }).then((code) => {
  if (code >= 0) process.exitCode = code
})
