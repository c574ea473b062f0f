import type { Logger } from 'pino'

let installed = false

/**
 * Turns a promise rejection nobody handled into one logged error instead of Node's default,
 * which ends the process: a service that crash-loops on a full disk serves nobody. Every
 * known cause is handled where it arises; this is the net under a bug. Installed once per
 * process, by its host (`voicedesk serve`, the Electron main process); `log` is asked at
 * each rejection, as the host's logger may come later.
 */
export function installUnhandledRejectionGuard(log: () => Pick<Logger, 'error'> | undefined): void {
  if (installed) return
  installed = true
  process.on('unhandledRejection', (reason) => {
    try {
      const logger = log()
      if (logger) logger.error({ err: reason }, 'unhandled promise rejection (a bug); the service goes on')
      else
        process.stderr.write(
          `voicedesk: unhandled promise rejection (a bug); the service goes on: ${reason instanceof Error ? reason.message : String(reason)}\n`,
        )
    } catch {
      // Nothing more can be done: above all, do not throw from here.
    }
  })
}
