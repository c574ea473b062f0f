import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { closeCallsAndServers, setUpCall, type CallSetup } from '../helpers/web-sdk-call'
import { callerRtpSocket } from '../helpers/sipp'
import { branch, newDialog, offer, RawSipPeer, type Dialog } from '../helpers/raw-sip'
import { seededRandom } from '../helpers/seeded-random'

/*
 * The SIP line's edges, with a SIP peer written by hand over UDP (test/helpers/raw-sip): what is
 * refused and why, a CANCEL, the call cap, hold, the agent's own BYE, and hostile datagrams.
 */

afterEach(closeCallsAndServers)

const AGENT = { greetingMessage: 'Hello there.', pokeMessages: [], interrupt: false, silenceThreshold: 30, tools: {} }

async function line(agent: Record<string, unknown>, config: Record<string, unknown> = {}): Promise<CallSetup & { port: number }> {
  const setup = await setUpCall(agent, { sip: { port: 0 }, ...config })
  const status = setup.service.runtime.sipLine()
  if (status.state !== 'listening') throw new Error(`The SIP line is ${status.state}`)
  return { ...setup, port: status.port }
}

async function register(setup: CallSetup, number: string, agentId: string | null, key?: string): Promise<void> {
  const body = { type: 'TELEPHONY', phoneNumber: number, label: 'Line', providerAccountSid: 'AC1', providerAuthToken: 'token' }
  const registered = await setup.service.call('POST', '/v1/voice-agents/phone-number', { body, key })
  expect(registered.statusCode, registered.body).toBe(200)
  if (!agentId) return
  const assigned = await setup.service.call('POST', '/v1/voice-agents/assign-number', {
    body: { voiceAgentId: agentId, phoneNumber: number },
  })
  expect(assigned.statusCode, assigned.body).toBe(200)
}

const uriOf = (number: string, port: number) => `sip:${number}@127.0.0.1:${port}`

/** Sends an INVITE and answers its final response (ACKed when it is a refusal, as the transaction wants). */
async function invite(peer: RawSipPeer, number: string, port: number, sdp: string, dialog: Dialog = newDialog()) {
  const via = branch()
  peer.send(peer.request('INVITE', uriOf(number, port), dialog, 1, { sdp, branch: via }))
  const final = await peer.next((message) => message.headers.get('call-id') === dialog.callId && (message.status ?? 0) >= 200)
  dialog.toTag = /;tag=([^;]+)/.exec(final.headers.get('to') ?? '')?.[1]
  if ((final.status ?? 0) >= 300) peer.send(peer.request('ACK', uriOf(number, port), dialog, 1, { branch: via }))
  else peer.send(peer.request('ACK', uriOf(number, port), dialog, 1))
  return { final, dialog, via }
}

describe('the SIP line, at its edges', () => {
  it('answers OPTIONS, refuses what it cannot answer (480, 485, 488, 487 on CANCEL), takes a late offer, survives hostile datagrams, and says BYE when the service stops', async () => {
    const setup = await line(AGENT)
    await register(setup, '+15552220001', null)
    await register(setup, '+15552220002', setup.agentId)
    await register(setup, '+15552220003', setup.agentId)
    const other = await setup.service.otherProject()
    await register(setup, '+15552220003', null, other.key)
    const peer = await RawSipPeer.open(setup.port)
    // OPTIONS as a phone sends it over UDP: again every 500 ms until answered (a datagram may be lost, as on any network).
    const options = async (dialog = newDialog()) => {
      const ask = () => peer.send(peer.request('OPTIONS', `sip:127.0.0.1:${setup.port}`, dialog, 1))
      ask()
      const again = setInterval(ask, 500)
      try {
        return await peer.next((message) => message.headers.get('call-id') === dialog.callId && message.status === 200, 5_000)
      } finally {
        clearInterval(again)
      }
    }
    expect((await options()).headers.get('allow')).toContain('INVITE')

    const refusals = await Promise.all([
      invite(peer, '+15552220001', setup.port, offer(40_000)), // registered, no agent
      invite(peer, '15552220003', setup.port, offer(40_002)), // registered in two projects
      invite(peer, '+15552220002', setup.port, offer(40_004, { payloads: '18', rtpmaps: ['a=rtpmap:18 G729/8000'] })), // no G.711
      invite(peer, 'reception', setup.port, offer(40_006)), // not a number
    ])
    expect(refusals.map(({ final }) => final.status)).toEqual([480, 485, 488, 404])
    expect(refusals[2].final.headers.get('warning')).toMatch(/PCMU/)

    // A CANCEL before the answer: 200 for the CANCEL, 487 for the INVITE.
    const cancelled = newDialog()
    const via = branch()
    peer.send(peer.request('INVITE', uriOf('+15552220002', setup.port), cancelled, 1, { sdp: offer(40_008), branch: via }))
    await peer.next((message) => message.headers.get('call-id') === cancelled.callId && message.status === 100)
    peer.send(
      peer.request('CANCEL', uriOf('+15552220002', setup.port), cancelled, 1, { branch: via }).replace('CSeq: 1 CANCEL', 'CSeq: 1 CANCEL'),
    )
    const [cancelOk, terminated] = await Promise.all([
      peer.next((message) => message.headers.get('call-id') === cancelled.callId && message.headers.get('cseq') === '1 CANCEL'),
      peer.next(
        (message) =>
          message.headers.get('call-id') === cancelled.callId && message.headers.get('cseq') === '1 INVITE' && (message.status ?? 0) >= 200,
      ),
    ])
    expect([cancelOk.status, terminated.status]).toEqual([200, 487])

    // A late offer: an INVITE without SDP gets VoiceDesk's offer in the 200 OK; the ACK's answer says where the agent's audio goes.
    const late = newDialog()
    const phone = await callerRtpSocket()
    peer.send(peer.request('INVITE', uriOf('+15552220002', setup.port), late, 1))
    const offered = await peer.next((message) => message.headers.get('call-id') === late.callId && message.status === 200)
    expect(offered.body).toMatch(/^m=audio \d+ RTP\/AVP 0 8 101\r$/m)
    late.toTag = /;tag=([^;]+)/.exec(offered.headers.get('to') ?? '')?.[1]
    peer.send(peer.request('ACK', uriOf('+15552220002', setup.port), late, 1, { sdp: offer(phone.port) }))
    for (let waited = 0; phone.packets.length === 0 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(phone.packets[0]?.payloadType).toBe(0)
    peer.send(peer.request('BYE', uriOf('+15552220002', setup.port), late, 2))
    expect(
      (await peer.next((message) => message.headers.get('call-id') === late.callId && message.headers.get('cseq') === '2 BYE')).status,
    ).toBe(200)

    // Hostile datagrams: random bytes, and valid messages cut, stirred and swollen. None is answered, nothing breaks.
    const random = seededRandom(28)
    const valid = peer.request('INVITE', uriOf('+15552220002', setup.port), newDialog(), 1, { sdp: offer(40_010) })
    for (let index = 0; index < 400; index += 1) {
      const bytes = Buffer.from(valid, 'latin1')
      switch (index % 5) {
        case 0:
          peer.send(Buffer.from(Array.from({ length: 1 + Math.floor(random() * 1400) }, () => Math.floor(random() * 256))))
          break
        case 1:
          peer.send(bytes.subarray(0, Math.floor(random() * bytes.length)))
          break
        case 2:
          for (let flip = 0; flip < 8; flip += 1) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256)
          peer.send(bytes)
          break
        case 3: {
          const lines = valid.split('\r\n')
          lines.splice(1 + Math.floor(random() * (lines.length - 2)), 1)
          peer.send(lines.join('\r\n'))
          break
        }
        default:
          peer.send(
            valid.replace(
              /CSeq: 1 INVITE|Content-Length: \d+|Via: [^\r]+/,
              ['CSeq: x INVITE', 'Content-Length: -5', 'Via: ' + 'A'.repeat(20_000)][index % 3]!,
            ),
          )
      }
    }
    // And over TCP: garbage, then headers that never end.
    const tcp = connect(setup.port, '127.0.0.1')
    tcp.on('error', () => undefined)
    tcp.write(Buffer.from(Array.from({ length: 4_000 }, () => Math.floor(random() * 256))))
    tcp.write(`OPTIONS sip:x SIP/2.0\r\n${'X-Flood: 1\r\n'.repeat(20_000)}`)
    expect((await options()).status).toBe(200)
    expect(setup.service.runtime.sipLine().state).toBe('listening')
    tcp.destroy()

    // The service stops during a call: the caller hears a BYE (the call ends service-stopped, written before the store closes).
    const { final: live, dialog: stopped } = await invite(peer, '+15552220002', setup.port, offer(phone.port))
    expect(live.status).toBe(200)
    await setup.service.runtime.stop()
    const bye = await peer.next((message) => message.method === 'BYE' && message.headers.get('call-id') === stopped.callId, 5_000)
    expect(bye.headers.get('cseq')).toMatch(/ BYE$/)
  }, 60_000)

  it('a live call: the call over the cap is busy (486), hold stops the agent’s audio, and the agent hangs up with a BYE', async () => {
    // Silent through its one poke, the caller is hung up on: the agent's BYE.
    const setup = await line({ ...AGENT, pokeMessages: ['Are you still there?'], silenceThreshold: 1 }, { calls: { maxConcurrent: 1 } })
    await register(setup, '+15552220010', setup.agentId)
    const peer = await RawSipPeer.open(setup.port)
    const phone = await callerRtpSocket()
    const { final: answered, dialog } = await invite(peer, '+15552220010', setup.port, offer(phone.port))
    expect(answered.status).toBe(200)
    expect(answered.body).toMatch(/a=rtpmap:0 PCMU\/8000/)
    expect(answered.body).toMatch(/a=rtpmap:101 telephone-event\/8000/)
    const agentRtp = { address: '127.0.0.1', port: Number(/m=audio (\d+)/.exec(answered.body)![1]) }
    // The caller's phone sends silence every 20 ms, as phones do (silence is what the agent counts before its poke).
    let sequence = 0
    const silence = setInterval(() => {
      const packet = Buffer.alloc(172, 0xff)
      packet[0] = 0x80
      packet[1] = 0
      packet.writeUInt16BE(sequence++ & 0xffff, 2)
      packet.writeUInt32BE((sequence * 160) >>> 0, 4)
      packet.writeUInt32BE(4321, 8)
      phone.send(packet, agentRtp)
    }, 20)
    try {
      const busy = await invite(peer, '+15552220010', setup.port, offer(40_020))
      expect(busy.final.status).toBe(486)
      // Busy before any conversation was made: the live call is the only one on record, no FAILED one beside it.
      const listed = await setup.service.call('GET', '/v1/voice-agents/conversations/minimal-list')
      expect(listed.json<{ data: { calls: { status: string }[] } }>().data.calls.map((call) => call.status)).toEqual(['IN_PROGRESS'])

      // Hold (a=sendonly from the caller): answered recvonly, and the agent's packets stop.
      while (phone.packets.length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
      peer.send(peer.request('INVITE', uriOf('+15552220010', setup.port), dialog, 2, { sdp: offer(phone.port, { direction: 'sendonly' }) }))
      const held = await peer.next((message) => message.headers.get('cseq') === '2 INVITE' && message.status === 200)
      peer.send(peer.request('ACK', uriOf('+15552220010', setup.port), dialog, 2))
      expect(held.body).toMatch(/a=recvonly/)
      await new Promise((resolve) => setTimeout(resolve, 100))
      const heldAt = phone.packets.length
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      expect(phone.packets.length).toBe(heldAt)
      // Resumed: the agent speaks again (its poke), and after another silent second it says goodbye with a BYE.
      peer.send(peer.request('INVITE', uriOf('+15552220010', setup.port), dialog, 3, { sdp: offer(phone.port) }))
      await peer.next((message) => message.headers.get('cseq') === '3 INVITE' && message.status === 200)
      peer.send(peer.request('ACK', uriOf('+15552220010', setup.port), dialog, 3))
      const bye = await peer.next((message) => message.method === 'BYE', 15_000)
      peer.answer(bye, 200, 'OK')
      expect(bye.headers.get('call-id')).toBe(dialog.callId)
      expect(phone.packets.length).toBeGreaterThan(heldAt)
    } finally {
      clearInterval(silence)
    }
  }, 60_000)
})
