/**
 * The desktop's embedded service takes the same cap on concurrent calls as `voicedesk serve`:
 * its `--max-calls=N` switch read with serve's own check, 50 when not given. No Electron here:
 * the function is given what Electron's command line answers. The last test starts a real
 * runtime (temp SQLite folder) from the desktop's config and reads the cap its call host holds.
 */
import { createSocket } from 'node:dgram'
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

describe("the desktop's SIP line", () => {
  const sipStart = (sipPortSwitch?: string, sipHostSwitch?: string) =>
    desktopRuntimeConfig({
      dataDir: '/tmp/unused',
      keychain: undefined,
      log: undefined,
      maxCallsSwitch: undefined,
      sipPortSwitch,
      sipHostSwitch,
    })

  it("is on by default at 127.0.0.1:5060, as serve's, and takes serve's --sip-port and --sip-host as switches", () => {
    const saved = process.env.VOICEDESK_SIP_PORT
    delete process.env.VOICEDESK_SIP_PORT
    try {
      expect(sipStart().sip).toEqual({ port: 5060, host: '127.0.0.1' })
      expect(sipStart('5080', '127.0.0.2').sip).toEqual({ port: 5080, host: '127.0.0.2' })
      expect(sipStart('0').sip).toEqual({ port: 0, host: '127.0.0.1' })
      expect(sipStart('off').sip).toBeUndefined()
      expect(() => sipStart('fifty')).toThrow('--sip-port must be a port number from 0 to 65535 (0 picks a free one) or off, not "fifty"')
      expect(() => sipStart(undefined, ' ')).toThrow(UsageError)
      expect(() => sipStart('off', '127.0.0.1')).toThrow('--sip-host has no use with --sip-port off')
    } finally {
      if (saved !== undefined) process.env.VOICEDESK_SIP_PORT = saved
    }
  })

  it('takes VOICEDESK_SIP_REALTIME on or off (the media thread reads it), and says what else is wrong', () => {
    const saved = process.env.VOICEDESK_SIP_REALTIME
    try {
      for (const value of ['on', 'off', '']) {
        process.env.VOICEDESK_SIP_REALTIME = value
        expect(sipStart('0').sip).toEqual({ port: 0, host: '127.0.0.1' })
      }
      process.env.VOICEDESK_SIP_REALTIME = 'yes'
      expect(() => sipStart('0')).toThrow(UsageError)
      expect(() => sipStart('0')).toThrow(
        'VOICEDESK_SIP_REALTIME must be on or off (real-time scheduling of the SIP media thread; on by default), not "yes"',
      )
    } finally {
      if (saved === undefined) delete process.env.VOICEDESK_SIP_REALTIME
      else process.env.VOICEDESK_SIP_REALTIME = saved
    }
  })

  it('opens on the real runtime and sip.status says where; a port another program holds leaves it off with why', async () => {
    const holder = createSocket('udp4')
    await new Promise<void>((resolve) => holder.bind(0, '127.0.0.1', resolve))
    const taken = holder.address().port
    const open = await createRuntime({ ...sipStart('0'), port: 0, dataDir: makeTempDir('voicedesk-desktop-sip'), keychain: undefined })
    const blocked = await createRuntime({
      ...sipStart(String(taken)),
      port: 0,
      dataDir: makeTempDir('voicedesk-desktop-sip'),
      keychain: undefined,
    })
    try {
      await open.start({ freePortWhenTaken: true })
      const status = await open.operatorHandlers('desktop')['sip.status']({})
      expect(status).toMatchObject({ state: 'listening', host: '127.0.0.1', authRequired: false })
      expect(status.state === 'listening' && status.port).toBeGreaterThan(0)
      // Once a SIP user exists, callers sign in.
      await open.operatorHandlers('desktop')['sipUsers.add']({ name: 'alice' })
      expect(await open.operatorHandlers('desktop')['sip.status']({})).toMatchObject({ state: 'listening', authRequired: true })
      await blocked.start({ freePortWhenTaken: true })
      const refused = await blocked.operatorHandlers('desktop')['sip.status']({})
      expect(refused).toEqual({
        state: 'failed',
        problem: expect.stringContaining(`port ${taken} on 127.0.0.1 (UDP or TCP) is already in use`) as string,
      })
    } finally {
      await open.stop()
      await blocked.stop()
      holder.close()
    }
  })

  it('takes a free HTTP port when the default one is held (a headless service), and still opens the line', async () => {
    const first = await createRuntime({ ...sipStart('off'), port: 0, dataDir: makeTempDir('voicedesk-desktop-sip'), keychain: undefined })
    const firstUrl = await first.start()
    const heldPort = Number(new URL(firstUrl).port)
    const second = await createRuntime({
      ...sipStart('0'),
      port: heldPort,
      dataDir: makeTempDir('voicedesk-desktop-sip'),
      keychain: undefined,
    })
    try {
      await expect(second.start()).rejects.toMatchObject({ code: 'EADDRINUSE' })
      const url = await second.start({ freePortWhenTaken: true })
      expect(Number(new URL(url).port)).not.toBe(heldPort)
      expect(second.context.baseUrl()).toBe(url)
      expect(second.sipLine().state).toBe('listening')
    } finally {
      await second.stop()
      await first.stop()
    }
  })
})
