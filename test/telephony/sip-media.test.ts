import { createSocket } from 'node:dgram'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RtpPacket } from 'rtp.js/packets'
import { keyOfInfo, keypadEventOf, KeypadEntry } from '../../src/service/sip/keypad'
import { PacketClock } from '../../src/service/sip/packet-clock'
import { RtpChannel } from '../../src/service/sip/rtp-channel'
import { answerSdp, negotiate } from '../../src/service/sip/sdp-negotiation'
import { offer } from '../helpers/raw-sip'

/* The SIP line's media parts on their own: the offer/answer, the packet clock, keys, and whose RTP a call takes. */

afterEach(() => {
  vi.useRealTimers()
})

describe('the SDP offer and answer', () => {
  it('takes the first G.711 codec in the offer’s order, keeps its telephone-event type, and declines other streams', () => {
    const alawFirst = negotiate(
      offer(5004, {
        payloads: '18 8 0 96',
        rtpmaps: ['a=rtpmap:18 G729/8000', 'a=rtpmap:8 PCMA/8000', 'a=rtpmap:96 telephone-event/8000'],
      }) + 'm=video 5006 RTP/AVP 97\r\na=rtpmap:97 VP8/90000\r\n',
    )
    if (!alawFirst.ok) throw new Error(alawFirst.problem)
    expect(alawFirst.media).toMatchObject({
      codec: 'PCMA',
      payloadType: 8,
      telephoneEventPayloadType: 96,
      remote: { address: '127.0.0.1', port: 5004 },
    })
    const answer = answerSdp({ address: '127.0.0.1', port: 7000, sessionId: 1, sessionVersion: 1 }, alawFirst.media)
    expect(answer).toMatch(/^m=audio 7000 RTP\/AVP 8 96\r$/m)
    expect(answer).toMatch(/^m=video 0 /m)
    expect(answer).toMatch(/^a=sendrecv\r$/m)
    // A static type needs no rtpmap; a dynamic one is known by its name.
    expect(negotiate(offer(5004, { payloads: '0', rtpmaps: [] }))).toMatchObject({ ok: true, media: { codec: 'PCMU' } })
    expect(negotiate(offer(5004, { payloads: '110', rtpmaps: ['a=rtpmap:110 PCMU/8000'] }))).toMatchObject({
      ok: true,
      media: { payloadType: 110 },
    })
    expect(negotiate(offer(5004, { payloads: '0', rtpmaps: ['a=rtpmap:0 PCMU/16000'] }))).toMatchObject({ ok: false })
    expect(negotiate('not sdp at all')).toMatchObject({ ok: false })
  })

  it.each([
    ['sendrecv', 'sendrecv'],
    ['sendonly', 'recvonly'],
    ['recvonly', 'sendonly'],
    ['inactive', 'inactive'],
  ])('answers an offer that is %s with %s', (offered, answered) => {
    expect(negotiate(offer(5004, { direction: offered }))).toMatchObject({ ok: true, media: { direction: answered } })
  })
})

describe('the packet clock', () => {
  it('ticks every 20 ms counted from its start, catching up when the event loop is late, so it never drifts', () => {
    vi.useFakeTimers()
    // Each tick's work takes 7 ms of the audio clock's time: timers chained 20 ms apart would fall behind by that much each tick.
    let busy = 0
    const clock = new PacketClock(20, () => Date.now() + busy)
    let ticks = 0
    const stop = clock.listen(() => {
      ticks += 1
      busy += 7
    })
    vi.advanceTimersByTime(1_000)
    // The audio clock read 1,000 ms plus the work's time: a tick for every 20 ms of it, give or take the one in flight.
    expect(Math.abs(ticks - Math.floor((1_000 + busy) / 20))).toBeLessThanOrEqual(1)
    stop()
    const stopped = ticks
    vi.advanceTimersByTime(1_000)
    expect(ticks).toBe(stopped)
  })
})

describe('keys', () => {
  it('reads RFC 4733 events and SIP INFO bodies', () => {
    const event = new DataView(new Uint8Array([11, 0x80 | 10, 0, 160]).buffer)
    expect(keypadEventOf(event)).toEqual({ key: '#', end: true })
    expect(keypadEventOf(new DataView(new Uint8Array([3, 10, 0, 160]).buffer))).toEqual({ key: '3', end: false })
    expect(keypadEventOf(new DataView(new Uint8Array([40, 10]).buffer))).toBeUndefined()
    expect(keyOfInfo('application/dtmf-relay', 'Signal=5\r\nDuration=160\r\n')).toBe('5')
    expect(keyOfInfo('application/dtmf-relay', 'Signal=*\r\n')).toBe('*')
    expect(keyOfInfo('application/dtmf', '11')).toBe('#')
    expect(keyOfInfo('text/plain', 'Signal=5')).toBeUndefined()
  })

  it('gathers keys into one entry, ended by # or a pause', () => {
    vi.useFakeTimers()
    const entries: string[] = []
    const keypad = new KeypadEntry((keys) => entries.push(keys), 2_000)
    for (const key of '4217#') keypad.press(key)
    for (const key of '*5') keypad.press(key)
    vi.advanceTimersByTime(1_999)
    expect(entries).toEqual(['4217'])
    vi.advanceTimersByTime(1)
    expect(entries).toEqual(['4217', '*5'])
  })
})

describe('a call’s RTP socket', () => {
  it('takes packets only from the address and port the SDP named; a stranger’s, and what is not RTP, are ignored', async () => {
    const heard: number[] = []
    const channel = await RtpChannel.open('127.0.0.1', {
      packet: (type) => heard.push(type),
      onError: (error) => heard.push(-1, String(error).length),
    })
    const caller = createSocket('udp4')
    const stranger = createSocket('udp4')
    await Promise.all([caller, stranger].map((socket) => new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))))
    try {
      channel.setRemote({ address: '127.0.0.1', port: caller.address().port })
      const packet = new RtpPacket()
      packet.setPayloadType(0)
      packet.setPayload(new DataView(new Uint8Array(160).fill(0xff).buffer))
      const view = packet.getView()
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
      stranger.send(bytes, channel.port, '127.0.0.1')
      caller.send(Buffer.from('not RTP at all'), channel.port, '127.0.0.1')
      caller.send(bytes, channel.port, '127.0.0.1')
      for (let tries = 0; tries < 50 && heard.length === 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20))
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(heard).toEqual([0])
      expect(channel.ignored).toBe(2)
    } finally {
      channel.close()
      caller.close()
      stranger.close()
    }
  })
})
