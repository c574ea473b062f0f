/**
 * The desktop's embedded service takes the same cap on concurrent calls as `voicedesk serve`:
 * its `--max-calls=N` switch read with serve's own check, 50 when not given. No Electron here:
 * the function is given what Electron's command line answers. The last test starts a real
 * runtime (temp SQLite folder) from the desktop's config and reads the cap its call host holds.
 */
import { describe, expect, it } from 'vitest'
import { desktopRuntimeConfig } from '../../src/main/desktop-runtime-config'
import { DEFAULT_MAX_CALLS } from '../../src/conversations/conversation-host'
import { maxCallsOf, UsageError } from '../../src/service/cli/args'
import { createRuntime } from '../../src/service/runtime'
import { makeTempDir } from '../helpers/temp-dir'

const start = (maxCallsSwitch: string | undefined) =>
  desktopRuntimeConfig({ dataDir: '/tmp/unused', keychain: undefined, log: undefined, maxCallsSwitch })

describe("the desktop's cap on concurrent calls", () => {
  it('is 50 without the switch, the default serve has too, and passed explicitly', () => {
    expect(start(undefined).calls).toEqual({ maxConcurrent: DEFAULT_MAX_CALLS })
    expect(DEFAULT_MAX_CALLS).toBe(50)
  })

  it('takes --max-calls=N as serve takes --max-calls N, for every valid value tried', () => {
    for (const value of ['1', '20', ' 7 ', '10000']) {
      expect(start(value).calls, value).toEqual({ maxConcurrent: maxCallsOf({ 'max-calls': value }) })
    }
  })

  it("refuses what serve refuses, in serve's words (an empty switch, 0, too many, not a number)", () => {
    for (const value of ['', '0', '10001', '-3', '2.5', 'fifty', '1e3']) {
      expect(() => start(value), value).toThrow(UsageError)
      expect(() => start(value), value).toThrow(`--max-calls must be a whole number of calls from 1 to 10000, not ${JSON.stringify(value)}`)
    }
  })

  it("reaches the real runtime's call host", async () => {
    const runtime = await createRuntime({ ...start('3'), dataDir: makeTempDir('voicedesk-desktop-cap'), keychain: undefined })
    try {
      // The host keeps its cap private (it says it only in a refusal, which needs live calls: test/conversations/call-cap.test.ts).
      const host = runtime.calls as unknown as { maxCalls: number }
      expect(host.maxCalls).toBe(3)
    } finally {
      await runtime.stop()
    }
  })
})
