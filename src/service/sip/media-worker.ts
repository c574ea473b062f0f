import * as alawmulawModule from 'alawmulaw'
import { randomInt } from 'node:crypto'
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram'
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { performance } from 'node:perf_hooks'
import { parentPort } from 'node:worker_threads'
import { isRtp, RtpPacket } from 'rtp.js/packets'
import type { ClockStats, FromWorker, SendingMedia, ToWorker } from './media-worker-protocol'

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
 * On a loaded machine the clock is late when its thread waits for a CPU, not for its own work, so
 * the thread asks to be scheduled before ordinary work (nice -10, as audio threads do) where the
 * system allows it (Linux, as root or with CAP_SYS_NICE or an RLIMIT_NICE that permits it); where
 * it does not, nothing changes.
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

interface Call {
  id: number
  socket: Socket
  remote: { address: string; port: number } | undefined
  media: SendingMedia | undefined
  playing: boolean
  talking: boolean
  closed: boolean
  ssrc: number
  sequence: number
  timestamp: number
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

/** This thread's nice set to CLOCK_NICE when the system lets it (Linux: setpriority on the thread's id); else left alone. */
function raiseClockPriority(): void {
  try {
    const thread = Number(/\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1])
    if (thread > 0) setPriority(thread, CLOCK_NICE)
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}

raiseClockPriority()

const calls = new Map<number, Call>()
const sleeper = new Int32Array(new SharedArrayBuffer(4))
const lateness = new Float64Array(LATENESS_KEPT)
let latenessCount = 0
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
  while (ticks < due) {
    ticks += 1
    for (const call of calls.values()) if (call.playing) tick(call)
  }
  let playing = false
  for (const call of calls.values()) if (call.playing) playing = true
  if (playing) schedule()
  else timer = undefined
}

function tick(call: Call): void {
  const samples = take(call)
  const { remote, media } = call
  if (!samples || !remote || !media?.sending) {
    call.talking = false
    call.timestamp = (call.timestamp + SAMPLES) >>> 0
    return
  }
  const payload = media.codec === 'PCMA' ? codecs.alaw.encode(samples) : codecs.mulaw.encode(samples)
  const packet = new RtpPacket()
  packet.setPayloadType(media.payloadType)
  packet.setSequenceNumber(call.sequence)
  packet.setTimestamp(call.timestamp)
  packet.setSsrc(call.ssrc)
  packet.setMarker(!call.talking)
  packet.setPayload(new DataView(payload.buffer, payload.byteOffset, payload.byteLength))
  const view = packet.getView()
  call.sequence = (call.sequence + 1) & 0xffff
  call.timestamp = (call.timestamp + SAMPLES) >>> 0
  call.talking = true
  try {
    call.socket.send(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), remote.port, remote.address, (error) => {
      if (error && !call.closed) post({ type: 'error', id: call.id, message: error.message })
    })
  } catch (error) {
    post({ type: 'error', id: call.id, message: (error as Error).message })
  }
}

/** The next 20 ms of queued audio (the end padded with silence), or undefined when nothing is queued; echoes marks passed. */
function take(call: Call): Int16Array | undefined {
  if (call.queued <= call.taken) {
    echoMarks(call)
    return undefined
  }
  const out = new Int16Array(SAMPLES)
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

function open(id: number, address: string): void {
  const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4')
  const call: Call = {
    id,
    socket,
    remote: undefined,
    media: undefined,
    playing: false,
    talking: false,
    closed: false,
    ssrc: randomInt(1, 2 ** 32 - 1),
    sequence: randomInt(0, 2 ** 16),
    timestamp: randomInt(0, 2 ** 32 - 1),
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
    socket.on('error', (error) => post({ type: 'error', id, message: error.message }))
    socket.on('message', (data, from) => receive(call, data, from))
    calls.set(id, call)
    post({ type: 'opened', id, port: socket.address().port })
  })
}

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
  const payload = packet.getPayload()
  const bytes = new Uint8Array(payload.byteLength)
  bytes.set(new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength))
  post({ type: 'packet', id: call.id, payloadType: packet.getPayloadType(), timestamp: packet.getTimestamp(), payload: bytes }, [
    bytes.buffer,
  ])
}

/** The clock's lateness since the last reset (the last LATENESS_KEPT ticks at most). */
function clockStats(reset: boolean): ClockStats {
  const kept = Array.from(lateness.subarray(0, Math.min(latenessCount, LATENESS_KEPT))).sort((a, b) => a - b)
  const ticksCounted = latenessCount
  if (reset) latenessCount = 0
  const at = (p: number) => kept[Math.min(kept.length - 1, Math.ceil(p * kept.length) - 1)] ?? 0
  const round = (value: number) => Math.round(value * 100) / 100
  return {
    ticks: ticksCounted,
    latenessMs: { p50: round(at(0.5)), p99: round(at(0.99)), max: round(kept.at(-1) ?? 0) },
    lateTicks: kept.filter((value) => value > 2).length,
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
      call.remote = message.remote
      return
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
