import { createSocket } from 'node:dgram'
import { readdirSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RtpPacket } from 'rtp.js/packets'
import { keyOfInfo, keypadEventOf, KeypadEntry } from '../../src/service/sip/keypad'
import { MediaPlane } from '../../src/service/sip/media-plane'
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
    // '#' alone ends an empty entry: no turn at all.
    keypad.press('#')
    for (const key of '*5') keypad.press(key)
    vi.advanceTimersByTime(1_999)
    expect(entries).toEqual(['4217'])
    vi.advanceTimersByTime(1)
    expect(entries).toEqual(['4217', '*5'])
  })
})

describe('the media thread', () => {
  it('sends the queued audio as RTP 20 ms apart, echoes a mark once its audio left, holds, and takes packets only from the SDP’s address', async () => {
    const plane = new MediaPlane((error) => {
      throw error
    })
    const caller = createSocket('udp4')
    const stranger = createSocket('udp4')
    await Promise.all([caller, stranger].map((socket) => new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))))
    const arrived: { at: number; sequence: number; timestamp: number; marker: boolean; type: number }[] = []
    caller.on('message', (data) =>
      arrived.push({
        at: performance.now(),
        sequence: data.readUInt16BE(2),
        timestamp: data.readUInt32BE(4),
        marker: (data[1]! & 0x80) !== 0,
        type: data[1]! & 0x7f,
      }),
    )
    const heard: number[] = []
    const marks: { name: string; at: number }[] = []
    try {
      const media = await plane.open('127.0.0.1', {
        packet: (payloadType) => heard.push(payloadType),
        marked: (name) => marks.push({ name, at: performance.now() }),
        lost: () => marks.push({ name: 'lost', at: performance.now() }),
      })
      media.setRemote({ address: '127.0.0.1', port: caller.address().port })
      media.setMedia({ codec: 'PCMA', payloadType: 8, sending: true })
      // One second of a tone at 8 kHz, then a mark.
      media.audio(Int16Array.from({ length: 8_000 }, (_, index) => Math.round(8_000 * Math.sin(index / 3))))
      media.mark('utterance-1')
      media.play()
      for (let waited = 0; marks.length === 0 && waited < 3_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20))
      await new Promise((resolve) => setTimeout(resolve, 60))
      expect(arrived).toHaveLength(50)
      expect(arrived.every((packet) => packet.type === 8)).toBe(true)
      expect(arrived.map((packet) => packet.marker)).toEqual([true, ...Array<boolean>(49).fill(false)])
      expect(arrived.slice(1).every((packet, index) => packet.sequence === ((arrived[index]!.sequence + 1) & 0xffff))).toBe(true)
      expect(arrived.slice(1).every((packet, index) => packet.timestamp === (arrived[index]!.timestamp + 160) >>> 0)).toBe(true)
      // Paced by the clock: the 50 packets span about a second, not a burst.
      expect(arrived.at(-1)!.at - arrived[0]!.at).toBeGreaterThan(900)
      expect(marks.map((mark) => mark.name)).toEqual(['utterance-1'])
      expect(marks[0]!.at).toBeGreaterThanOrEqual(arrived.at(-1)!.at - 5)
      // The thread's own account of its clock: every tick counted, most of them on time (a timer
      // wakes it early, a precise wait does the rest; a loaded machine may make a few late).
      const clock = await plane.clockStats()
      expect(clock?.ticks).toBeGreaterThanOrEqual(50)
      expect(clock?.latenessMs.p50).toBeLessThan(2)
      // Where the system allows it (root here), the clock's thread alone runs at nice -10; the rest of the process does not.
      if (process.getuid?.() === 0) {
        const nices = readdirSync('/proc/self/task').map((thread) => {
          const stat = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8')
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
        })
        expect(nices.filter((nice) => nice === -10)).toHaveLength(1)
      }

      // Held: nothing is sent, though the queue plays on.
      media.setMedia({ codec: 'PCMA', payloadType: 8, sending: false })
      media.audio(new Int16Array(1_600).fill(1_000))
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(arrived).toHaveLength(50)

      // Only the SDP's address and port are heard: not a stranger, nor what is not RTP.
      const packet = new RtpPacket()
      packet.setPayloadType(8)
      packet.setPayload(new DataView(new Uint8Array(160).fill(0xd5).buffer))
      const view = packet.getView()
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
      stranger.send(bytes, media.port, '127.0.0.1')
      caller.send(Buffer.from('not RTP at all'), media.port, '127.0.0.1')
      caller.send(bytes, media.port, '127.0.0.1')
      for (let waited = 0; heard.length === 0 && waited < 2_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20))
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(heard).toEqual([8])
      media.close()
    } finally {
      await plane.close()
      caller.close()
      stranger.close()
    }
  })

  it('asks for real-time scheduling for its clock where the system allows it (chrt), and paces its packets all the same where it does not', async () => {
    const root = process.getuid?.() === 0
    /** The scheduling policy (SCHED_OTHER 0, SCHED_RR 2) and nice of each of this process's threads (Linux's /proc). */
    const threads = () =>
      readdirSync('/proc/self/task').map((thread) => {
        const fields = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8').split(') ')[1]!.split(' ')
        return { nice: Number(fields[16]), policy: Number(fields[38]) }
      })
    const cases: { env: Record<string, string>; priority: string; policy: number }[] = [
      // Root here (and on CI): the thread gets SCHED_RR; elsewhere nice -10 or nothing, and no error.
      { env: {}, priority: root ? 'realtime' : 'normal', policy: root ? 2 : 0 },
      // Turned off: nice -10 only.
      { env: { VOICEDESK_SIP_REALTIME: 'off' }, priority: root ? 'nice' : 'normal', policy: 0 },
      // No chrt to run (as on a system without util-linux): the same fallback, silently.
      { env: { PATH: '/nonexistent' }, priority: root ? 'nice' : 'normal', policy: 0 },
    ]
    /** The variables a case sets, back as they were (process.env itself kept: a worker copies the real environment). */
    const restore = (env: Record<string, string>, saved: Record<string, string | undefined>) => {
      for (const name of Object.keys(env)) {
        if (saved[name] === undefined) delete process.env[name]
        else process.env[name] = saved[name]
      }
    }
    for (const { env, priority, policy } of cases) {
      const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]))
      const plane = new MediaPlane((error) => {
        throw error
      })
      const caller = createSocket('udp4')
      await new Promise<void>((resolve) => caller.bind(0, '127.0.0.1', resolve))
      const arrived: number[] = []
      caller.on('message', () => arrived.push(performance.now()))
      try {
        // The thread starts with the first call, and takes the environment as it starts.
        Object.assign(process.env, env)
        const media = await plane
          .open('127.0.0.1', { packet: () => undefined, marked: () => undefined, lost: () => undefined })
          .finally(() => restore(env, saved))
        media.setRemote({ address: '127.0.0.1', port: caller.address().port })
        media.setMedia({ codec: 'PCMU', payloadType: 0, sending: true })
        media.audio(new Int16Array(1_600).fill(1_000))
        media.play()
        for (let waited = 0; arrived.length < 10 && waited < 3_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20))
        expect(arrived).toHaveLength(10)
        // Paced: the middle interval is a packet's 20 ms (a loaded machine may hold up one tick, and its catch-up follows).
        const intervals = arrived.slice(1).map((at, index) => at - arrived[index]!)
        expect(intervals.sort((a, b) => a - b)[4]).toBeGreaterThan(15)
        expect(intervals[4]).toBeLessThan(25)
        let clock = await plane.clockStats()
        // chrt runs once as the thread starts; its answer may come after the first packets.
        for (let waited = 0; clock?.priority !== priority && waited < 3_000; waited += 50) {
          await new Promise((resolve) => setTimeout(resolve, 50))
          clock = await plane.clockStats()
        }
        expect(clock?.priority).toBe(priority)
        expect(clock?.sentMs.p50).toBeLessThan(5)
        if (process.platform === 'linux') {
          const media = threads().filter((thread) => thread.nice === (root ? -10 : thread.nice) && thread.policy === policy)
          expect(media.length).toBeGreaterThanOrEqual(1)
          expect(threads().filter((thread) => thread.policy === 2)).toHaveLength(policy === 2 ? 1 : 0)
        }
        media.close()
      } finally {
        await plane.close()
        caller.close()
      }
    }
  })

  it('tells each call when the media thread stops under it, and starts a new thread for the next call', async () => {
    const plane = new MediaPlane(() => undefined)
    const lost: string[] = []
    const events = (name: string) => ({ packet: () => undefined, marked: () => undefined, lost: () => lost.push(name) })
    try {
      await plane.open('127.0.0.1', events('first'))
      // A fault stands for itself here: the thread ends under its calls.
      await (plane as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate()
      for (let waited = 0; lost.length === 0 && waited < 2_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(lost).toEqual(['first'])
      const next = await plane.open('127.0.0.1', events('second'))
      expect(next.port).toBeGreaterThan(0)
    } finally {
      await plane.close()
    }
  })
})
