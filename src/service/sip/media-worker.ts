import * as alawmulawModule from 'alawmulaw'
import { execFile } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram'
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { performance } from 'node:perf_hooks'
import { parentPort } from 'node:worker_threads'
import { isRtp, RtpPacket } from 'rtp.js/packets'
import type { ClockPriority, ClockStats, FromWorker, ReceivedPacket, SendingMedia, ToWorker } from './media-worker-protocol'

/*
 * The SIP line's media thread (started by media-plane.ts): every call's RTP socket, the agent's
 * audio waiting to be sent, and the one packet clock. On its own thread, the clock is not held
 * up by the service's main thread (a turn written, a sentence resampled), so packets leave 20 ms
 * apart even while the service is busy. Self-contained on purpose (node's modules, rtp.js and
 * alawmulaw only): the build bundles it as an entry of its own (out/main/sip-media-worker.js),
 * and nothing of the service's runtime should come along.
 *
 * The clock: tick n is due 20 × n ms after it started (never a chain of 20 ms timeouts, so it
 * does not drift). A timer (whole milliseconds, against an event loop clock that may lag) wakes
 * the thread up to WAKE_EARLY_MS before the tick; the rest is waited precisely with
 * Atomics.wait (a futex sleep to the microsecond, not a spin), so a tick runs within a fraction
 * of a millisecond of its due time when the thread has a CPU. A tick that ran late anyway runs
 * the ticks it missed at once, up to 10, then skips ahead. At each tick a call that plays sends
 * 20 ms of queued audio (nothing when its queue is empty or the caller holds the call; the RTP
 * timestamp still moves on). A mark is echoed once every sample queued before it was sent; a
 * clear drops what is queued. Packets are taken only from the address and port the caller's SDP
 * named, and only when they are RTP.
 *
 * A tick's packets leave during the tick: each call's socket is connected to the caller's media
 * address once the SDP names it, and a connected socket's send is a system call made there and
 * then (an address given to each send goes through dns.lookup first, which calls back on the next
 * process tick: after the whole tick's work, and later still when a collection or a burst of
 * received packets comes between). Each call has one outgoing packet and one buffer of samples,
 * rewritten at every tick, so sending allocates next to nothing and the thread's collections stay
 * short. The caller's packets are handed to the main thread in batches, one message for all the
 * packets read in one turn of the event loop (twenty calls answer each tick at about the same time).
 *
 * On a loaded machine the clock is late when its thread waits for a CPU, not for its own work: the
 * bench measured it (the thread's run-queue wait, /proc/thread-self/schedstat, accounts for nearly
 * every late tick). So the thread asks to be scheduled before ordinary work where the system allows
 * it: nice -10 at once (Linux, as root or with CAP_SYS_NICE or an RLIMIT_NICE that permits it), then
 * the real-time round-robin policy at priority 10 (util-linux's chrt, run once on the thread; root,
 * CAP_SYS_NICE or an RLIMIT_RTPRIO of 10), as audio servers do; VOICEDESK_SIP_REALTIME=off leaves
 * the policy alone. Where the system allows neither, nothing changes. The thread's work is a fraction
 * of a millisecond per tick, and Linux keeps a share of every second for ordinary threads anyway.
 */

type Codecs = typeof alawmulawModule
// Node loads the package's CommonJS build, whose exports arrive as the default export; a bundler may give the ES build's names.
const codecs: Codecs = (alawmulawModule as Codecs & { default?: Codecs }).default ?? alawmulawModule

const PACKET_MS = 20
const SAMPLES = 160
const MAX_CATCH_UP_TICKS = 10
const MAX_DATAGRAM_BYTES = 2048
/** How long before a tick the timer wakes the thread; the rest is a precise wait. */
const WAKE_EARLY_MS = 3
/** Lateness samples kept for clock-stats (the last minute of ticks). */
const LATENESS_KEPT = 3_000

interface Remote {
  address: string
  port: number
}

interface Call {
  id: number
  socket: Socket
  /** The caller's media address (the SDP's). */
  remote: Remote | undefined
  /** The address the socket is connected to (`remote` once connected); packets are sent only then. */
  connectedTo: Remote | undefined
  connecting: boolean
  media: SendingMedia | undefined
  playing: boolean
  talking: boolean
  closed: boolean
  sequence: number
  timestamp: number
  /** The call's one outgoing packet (its SSRC set once), rewritten at every tick: its bytes as sent, and its payload within them. */
  packet: RtpPacket
  bytes: Uint8Array
  payload: Uint8Array
  /** The tick's 20 ms of samples, taken from the queue. */
  samples: Int16Array
  /** The send's callback (one per call, not one per packet). */
  sent: (error: Error | null) => void
  chunks: Int16Array[]
  offset: number
  queued: number
  taken: number
  marks: { name: string; at: number }[]
  ignored: number
}

const port = parentPort
if (!port) throw new Error('The SIP media thread runs as a worker thread (media-plane.ts starts it)')
const parent = port

/** The priority the clock's thread asks for (a nice value: lower runs first). */
const CLOCK_NICE = -10
/** The real-time round-robin priority it asks for then (1-99; audio servers use single digits to low tens). */
const CLOCK_REALTIME_PRIORITY = 10

/** What the thread was given: 'normal' until a request succeeds. */
let priority: ClockPriority = 'normal'

/**
 * This thread's nice set to CLOCK_NICE when the system lets it (Linux: setpriority on the thread's
 * id), then its policy to SCHED_RR at CLOCK_REALTIME_PRIORITY (`chrt -r -p`, once) unless
 * VOICEDESK_SIP_REALTIME is off; where either is refused or missing, the thread keeps what it has.
 */
function raiseClockPriority(): void {
  let thread = 0
  try {
    thread = Number(/\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1])
    if (!(thread > 0)) return
    setPriority(thread, CLOCK_NICE)
    priority = 'nice'
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
  if (!(thread > 0) || process.env.VOICEDESK_SIP_REALTIME === 'off') return
  try {
    execFile('chrt', ['-r', '-p', String(CLOCK_REALTIME_PRIORITY), String(thread)], { timeout: 5_000 }, (error) => {
      if (!error) priority = 'realtime'
    })
  } catch {
    // No chrt to run: as refused.
  }
}

raiseClockPriority()

const calls = new Map<number, Call>()
const sleeper = new Int32Array(new SharedArrayBuffer(4))
const lateness = new Float64Array(LATENESS_KEPT)
/** Per tick that sent packets, how late after the tick's due time its last packet had left (the send's system call returned). */
const sentLateness = new Float64Array(LATENESS_KEPT)
let latenessCount = 0
let sentCount = 0
let startedAt = 0
let ticks = 0
let timer: ReturnType<typeof setTimeout> | undefined

function post(message: FromWorker, transfer?: ArrayBuffer[]): void {
  parent.postMessage(message, transfer)
}

function schedule(): void {
  const dueAt = startedAt + (ticks + 1) * PACKET_MS
  timer = setTimeout(run, Math.max(0, dueAt - WAKE_EARLY_MS - performance.now()))
}

function run(): void {
  const dueAt = startedAt + (ticks + 1) * PACKET_MS
  const early = dueAt - performance.now()
  if (early > 0) Atomics.wait(sleeper, 0, 0, early)
  const now = performance.now()
  lateness[latenessCount++ % LATENESS_KEPT] = Math.max(0, now - dueAt)
  const due = Math.floor((now - startedAt) / PACKET_MS)
  if (due - ticks > MAX_CATCH_UP_TICKS) ticks = due - MAX_CATCH_UP_TICKS
  let sent = false
  while (ticks < due) {
    ticks += 1
    for (const call of calls.values()) if (call.playing && tick(call)) sent = true
  }
  if (sent) sentLateness[sentCount++ % LATENESS_KEPT] = Math.max(0, performance.now() - dueAt)
  let playing = false
  for (const call of calls.values()) if (call.playing) playing = true
  if (playing) schedule()
  else timer = undefined
}

/** One tick of a call: its next 20 ms sent when it has audio, a remote and the caller hears it; true when a packet left. */
function tick(call: Call): boolean {
  const samples = take(call)
  const { media } = call
  if (!samples || !media?.sending || !call.remote || call.connectedTo !== call.remote) {
    call.talking = false
    call.timestamp = (call.timestamp + SAMPLES) >>> 0
    return false
  }
  const encode = media.codec === 'PCMA' ? codecs.alaw.encodeSample : codecs.mulaw.encodeSample
  const payload = call.payload
  for (let index = 0; index < SAMPLES; index += 1) payload[index] = encode(samples[index] ?? 0)
  const packet = call.packet
  packet.setPayloadType(media.payloadType)
  packet.setSequenceNumber(call.sequence)
  packet.setTimestamp(call.timestamp)
  packet.setMarker(!call.talking)
  call.sequence = (call.sequence + 1) & 0xffff
  call.timestamp = (call.timestamp + SAMPLES) >>> 0
  call.talking = true
  try {
    // Connected: sent by this call (the kernel copies the bytes), so the packet can be rewritten at the next tick.
    call.socket.send(call.bytes, call.sent)
    return true
  } catch (error) {
    post({ type: 'error', id: call.id, message: (error as Error).message })
    return false
  }
}

/** The next 20 ms of queued audio in the call's samples (the end padded with silence), or undefined when nothing is queued; echoes marks passed. */
function take(call: Call): Int16Array | undefined {
  if (call.queued <= call.taken) {
    echoMarks(call)
    return undefined
  }
  const out = call.samples
  let filled = 0
  for (let chunk = call.chunks[0]; filled < SAMPLES && chunk; chunk = call.chunks[0]) {
    const length = Math.min(SAMPLES - filled, chunk.length - call.offset)
    out.set(chunk.subarray(call.offset, call.offset + length), filled)
    filled += length
    call.offset += length
    if (call.offset >= chunk.length) {
      call.chunks.shift()
      call.offset = 0
    }
  }
  out.fill(0, filled)
  call.taken += filled
  echoMarks(call)
  return out
}

function echoMarks(call: Call): void {
  for (let mark = call.marks[0]; mark && mark.at <= call.taken; mark = call.marks[0]) {
    call.marks.shift()
    post({ type: 'marked', id: call.id, name: mark.name })
  }
}

/** A call's outgoing packet: its SSRC, a payload of SAMPLES bytes, serialized once; the header's fields are then written in place. */
function outgoingPacket(): Pick<Call, 'packet' | 'bytes' | 'payload'> {
  const packet = new RtpPacket()
  packet.setSsrc(randomInt(1, 2 ** 32 - 1))
  packet.setPayload(new DataView(new ArrayBuffer(SAMPLES)))
  const view = packet.getView()
  const payload = packet.getPayload()
  return {
    packet,
    bytes: new Uint8Array(view.buffer, view.byteOffset, view.byteLength),
    payload: new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength),
  }
}

/** The call's socket connected to its remote (once the previous connect, if any, is done); unchanged when it is connected there. */
function connect(call: Call): void {
  const remote = call.remote
  if (call.closed || call.connecting || !remote || call.connectedTo === remote) return
  try {
    if (call.connectedTo) {
      call.connectedTo = undefined
      call.socket.disconnect()
    }
    call.connecting = true
    call.socket.connect(remote.port, remote.address, () => {
      call.connecting = false
      call.connectedTo = remote
      // The SDP named another address meanwhile (a re-INVITE): connect there.
      connect(call)
    })
  } catch (error) {
    call.connecting = false
    post({ type: 'error', id: call.id, message: (error as Error).message })
  }
}

function open(id: number, address: string): void {
  const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4')
  const call: Call = {
    id,
    socket,
    remote: undefined,
    connectedTo: undefined,
    connecting: false,
    media: undefined,
    playing: false,
    talking: false,
    closed: false,
    sequence: randomInt(0, 2 ** 16),
    timestamp: randomInt(0, 2 ** 32 - 1),
    ...outgoingPacket(),
    samples: new Int16Array(SAMPLES),
    sent: (error: NodeJS.ErrnoException | null) => {
      if (error && error.code !== 'ECONNREFUSED' && !call.closed) post({ type: 'error', id, message: error.message })
    },
    chunks: [],
    offset: 0,
    queued: 0,
    taken: 0,
    marks: [],
    ignored: 0,
  }
  socket.once('error', (error) => post({ type: 'open-failed', id, message: error.message }))
  socket.bind(0, address, () => {
    socket.removeAllListeners('error')
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The caller's socket is not (or no longer) there: a connected socket hears of it (ICMP), as a sender need not.
      if (error.code === 'ECONNREFUSED') return
      // A connect that failed: the next remote may try again.
      call.connecting = false
      socket.removeAllListeners('connect')
      post({ type: 'error', id, message: error.message })
    })
    socket.on('message', (data, from) => receive(call, data, from))
    calls.set(id, call)
    post({ type: 'opened', id, port: socket.address().port })
  })
}

/** The caller's packets read since the last delivery (their payloads still views into the datagrams read). */
let inbox: { id: number; payloadType: number; timestamp: number; payload: DataView }[] = []
let inboxBytes = 0

function receive(call: Call, data: Buffer, from: RemoteInfo): void {
  const remote = call.remote
  if (call.closed || !remote || from.address !== remote.address || from.port !== remote.port || data.length > MAX_DATAGRAM_BYTES) {
    call.ignored += 1
    return
  }
  let packet: RtpPacket
  try {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
    if (!isRtp(view)) {
      call.ignored += 1
      return
    }
    packet = new RtpPacket(view)
  } catch {
    call.ignored += 1
    return
  }
  inbox.push({ id: call.id, payloadType: packet.getPayloadType(), timestamp: packet.getTimestamp(), payload: packet.getPayload() })
  inboxBytes += packet.getPayload().byteLength
  if (inbox.length === 1) setImmediate(deliver)
}

/** The packets read in this turn of the event loop, to the main thread in one message (their payloads copied into one buffer, moved). */
function deliver(): void {
  const buffer = new ArrayBuffer(inboxBytes)
  const bytes = new Uint8Array(buffer)
  const packets: ReceivedPacket[] = []
  let offset = 0
  for (const { id, payloadType, timestamp, payload } of inbox) {
    bytes.set(new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength), offset)
    packets.push({ id, payloadType, timestamp, offset, length: payload.byteLength })
    offset += payload.byteLength
  }
  inbox = []
  inboxBytes = 0
  post({ type: 'packets', packets, buffer }, [buffer])
}

/** The clock's lateness since the last reset (the last LATENESS_KEPT ticks at most). */
function clockStats(reset: boolean): ClockStats {
  const kept = Array.from(lateness.subarray(0, Math.min(latenessCount, LATENESS_KEPT))).sort((a, b) => a - b)
  const ticksCounted = latenessCount
  if (reset) latenessCount = 0
  const at = (p: number) => kept[Math.min(kept.length - 1, Math.ceil(p * kept.length) - 1)] ?? 0
  const round = (value: number) => Math.round(value * 100) / 100
  const sent = Array.from(sentLateness.subarray(0, Math.min(sentCount, LATENESS_KEPT))).sort((a, b) => a - b)
  const sentAt = (p: number) => sent[Math.min(sent.length - 1, Math.ceil(p * sent.length) - 1)] ?? 0
  if (reset) sentCount = 0
  return {
    ticks: ticksCounted,
    latenessMs: { p50: round(at(0.5)), p99: round(at(0.99)), max: round(kept.at(-1) ?? 0) },
    lateTicks: kept.filter((value) => value > 2).length,
    sentMs: { p50: round(sentAt(0.5)), p99: round(sentAt(0.99)), max: round(sent.at(-1) ?? 0) },
    priority,
  }
}

function play(call: Call): void {
  if (call.playing) return
  call.playing = true
  if (timer !== undefined) return
  startedAt = performance.now()
  ticks = 0
  schedule()
}

function close(call: Call): void {
  call.closed = true
  call.playing = false
  calls.delete(call.id)
  post({ type: 'closed', id: call.id, ignored: call.ignored })
  // The last call ended: how punctual the clock was while calls were on (the line logs it).
  if (calls.size === 0 && latenessCount > 0) post({ type: 'clock-idle', stats: clockStats(true) })
  try {
    call.socket.close()
  } catch {
    // Closed already.
  }
}

parent.on('message', (message: ToWorker) => {
  if (message.type === 'open') return open(message.id, message.address)
  if (message.type === 'clock-stats') return post({ type: 'clock-stats', id: message.id, stats: clockStats(false) })
  const call = calls.get(message.id)
  if (!call) return
  switch (message.type) {
    case 'remote':
      if (call.remote?.address === message.remote.address && call.remote.port === message.remote.port) return
      call.remote = message.remote
      return connect(call)
    case 'media':
      call.media = message.media
      return
    case 'audio':
      if (message.samples.length === 0) return
      call.chunks.push(message.samples)
      call.queued += message.samples.length
      return
    case 'mark':
      call.marks.push({ name: message.name, at: call.queued })
      return
    case 'clear':
      call.chunks = []
      call.offset = 0
      call.taken = call.queued
      call.marks = []
      return
    case 'play':
      return play(call)
    case 'close':
      return close(call)
  }
})
