import { createSocket } from 'node:dgram'
import { afterEach, describe, expect, it } from 'vitest'
import { runMain } from '../helpers/run-main'
import { assertCliBuilt, findFreePort, startServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { callerRtpSocket, runSipp } from '../helpers/sipp'

/*
 * `voicedesk serve`'s SIP line options: the banner says how to call, a taken port leaves the
 * service running with the line off (and says why), a SIP host that would answer anyone is refused
 * until SIP users exist, and `voicedesk sip-user` manages them (a password printed once).
 */

const held: ReturnType<typeof createSocket>[] = []
afterEach(() => {
  for (const socket of held.splice(0)) socket.close()
})

describe('voicedesk serve --sip-port / --sip-host', () => {
  it.each([
    [
      ['--sip-host', '0.0.0.0'],
      /^voicedesk: --sip-host 0\.0\.0\.0 is not this machine only, and there are no SIP users yet: .*digest authentication/m,
    ],
    [['--sip-allow-outbound', 'example.com'], /^voicedesk: --sip-allow-outbound "example\.com" is not host or host:port/m],
    [['--sip-port', '70000'], /^voicedesk: --sip-port must be a port number from 0 to 65535 \(0 picks a free one\) or off, not "70000"/m],
    [['--sip-port', 'off', '--sip-host', '127.0.0.1'], /^voicedesk: --sip-host has no use with --sip-port off/m],
  ])('refuses %j before anything starts', async (args, message) => {
    const result = await runMain(['serve', ...args, '--data-dir', makeTempDir()])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(message)
  })

  it('sip-user adds (a password printed once), lists, resets and removes; mistakes exit 2, unknown or taken names 1', async () => {
    const dataDir = makeTempDir()
    const added = await runMain(['sip-user', 'add', '+15551234567', '--data-dir', dataDir])
    expect(added.code, added.stderr).toBe(0)
    const password = /shown only this once:\n([A-Za-z0-9_-]{24})\n/.exec(added.stdout)?.[1]
    expect(password).toBeDefined()
    expect((await runMain(['sip-user', 'add', '+15551234567', '--data-dir', dataDir])).code).toBe(1)
    const listed = await runMain(['sip-user', 'list', '--data-dir', dataDir])
    expect(listed.stdout).toMatch(/^\+15551234567 {2}created /m)
    expect(listed.stdout).not.toContain(password)
    const reset = await runMain(['sip-user', 'reset', '+15551234567', '--data-dir', dataDir])
    expect(reset.code).toBe(0)
    expect(reset.stdout).toMatch(/New password .*\n[A-Za-z0-9_-]{24}\n/)
    expect(reset.stdout).not.toContain(password)
    for (const [args, code, message] of [
      [['sip-user', 'add', 'no spaces'], 2, /SIP user's name is/],
      [['sip-user', 'add'], 2, /needs the user's NAME/],
      [['sip-user', 'rename', 'x'], 2, /Unknown sip-user action/],
      [['sip-user', 'remove', 'nobody'], 1, /No SIP user named "nobody"/],
    ] as const) {
      const result = await runMain([...args, '--data-dir', dataDir])
      expect(result.code, result.stderr).toBe(code)
      expect(result.stderr).toMatch(message)
    }
    expect((await runMain(['sip-user', 'remove', '+15551234567', '--data-dir', dataDir])).code).toBe(0)
    expect((await runMain(['sip-user', 'list', '--data-dir', dataDir])).stdout).toMatch(/No SIP users yet/)
  })

  it('prints the SIP address to call, and runs with the line off when its port is taken', async () => {
    assertCliBuilt()
    const taken = await findFreePort()
    const holder = createSocket('udp4')
    held.push(holder)
    await new Promise<void>((resolve) => holder.bind(taken, '127.0.0.1', resolve))
    const key = 'vd_sip_cli_test_0123456789abcdef'
    const [free, blocked] = await Promise.all([
      startServe(makeTempDir(), ['--port', '0', '--sip-port', '0'], { env: { VOICEDESK_API_KEY: key } }),
      startServe(makeTempDir(), ['--port', '0', '--sip-port', String(taken)]),
    ])
    const sipPort = Number(
      /^SIP line \(UDP and TCP\): call an assigned number at sip:<number>@127\.0\.0\.1:(\d+)$/m.exec(free.cli.stdout())?.[1],
    )
    expect(sipPort).toBeGreaterThan(0)
    // A call through the built service (its media thread runs from the bundle): the greeting arrives as RTP.
    const call = async (path: string, body: unknown) => {
      const response = await fetch(`${free.url}/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(response.status, await response.clone().text()).toBe(200)
      return ((await response.json()) as { data: { id: string } }).data
    }
    const agent = await call('/voice-agents', {
      agentName: 'Desk',
      lang: 'en',
      greetingMessage: 'Hello, front desk.',
      preamble: 'You answer.',
      pokeMessages: [],
    })
    await call('/voice-agents/phone-number', {
      type: 'TELEPHONY',
      phoneNumber: '+14155550100',
      label: 'Desk',
      providerAccountSid: 'AC1',
      providerAuthToken: 't',
    })
    await call('/voice-agents/assign-number', { voiceAgentId: agent.id, phoneNumber: '+14155550100' })
    const phone = await callerRtpSocket()
    const sipp = await runSipp('greeting.xml', { port: sipPort, number: '+14155550100', vars: { rtp_port: phone.port }, pauseMs: 2_500 })
    expect(sipp.code, sipp.stdout + sipp.errors).toBe(0)
    expect(phone.packets.length).toBeGreaterThan(40)
    expect(blocked.cli.stdout()).toMatch(
      new RegExp(`^SIP line: off, port ${taken} on 127\\.0\\.0\\.1 \\(UDP or TCP\\) is already in use`, 'm'),
    )
    expect((await fetch(`${blocked.url}/healthz`)).status).toBe(200)
  })
})
