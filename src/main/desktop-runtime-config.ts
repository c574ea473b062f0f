import { DEFAULT_MAX_CALLS } from '../conversations/conversation-host'
import { maxCallsOf, sipLineOf } from '../service/cli/args'
import type { RuntimeConfig } from '../service/runtime'

/** What the desktop knows when it starts its embedded service. */
export interface DesktopStart {
  dataDir: string
  nativeBinding?: string
  resourcesDir?: string
  keychain: RuntimeConfig['keychain']
  log: RuntimeConfig['log']
  /**
   * The value of the app's `--max-calls=N` switch, undefined when it was not given (Electron's
   * app.commandLine: hasSwitch, then getSwitchValue, which says '' for a switch without a value).
   */
  maxCallsSwitch: string | undefined
  /** The app's `--sip-port=N|off` and `--sip-host=H` switches, read the same way (undefined: not given). */
  sipPortSwitch?: string
  sipHostSwitch?: string
}

/**
 * The embedded service's config: the same cap on concurrent calls as `voicedesk serve` (its
 * `--max-calls`, checked with the same words; 50 when not given), passed explicitly so the
 * desktop and serve cannot drift apart; and the same SIP line (`--sip-port`, `--sip-host`,
 * `VOICEDESK_SIP_PORT`: 127.0.0.1:5060 unless told otherwise). A port another program holds
 * leaves the line off with its problem, shown in the app, as serve's banner shows it. A wrong
 * value stops the start with serve's message, which the desktop shows in its "could not start" box.
 */
export function desktopRuntimeConfig(start: DesktopStart): RuntimeConfig {
  const maxCalls = start.maxCallsSwitch === undefined ? undefined : maxCallsOf({ 'max-calls': start.maxCallsSwitch })
  return {
    dataDir: start.dataDir,
    nativeBinding: start.nativeBinding,
    resourcesDir: start.resourcesDir,
    keychain: start.keychain,
    log: start.log,
    calls: { maxConcurrent: maxCalls ?? DEFAULT_MAX_CALLS },
    sip: sipLineOf({ 'sip-port': start.sipPortSwitch, 'sip-host': start.sipHostSwitch }),
  }
}
