/**
 * The SIP line's media thread, run with `new Worker(MEDIA_WORKER_SOURCE, { eval: true })`: every
 * call's RTP socket, the agent's audio waiting to be sent, and the one packet clock. On its own
 * thread, the clock is not held up by the service's main thread (a turn written, a sentence
 * resampled), so packets leave 20 ms apart even while the service is busy.
 *
 * Why a string: the service runs from TypeScript sources under vitest and from the chunks
 * electron-vite bundles into out/main; a separate worker file would exist in only one of them,
 * while a string travels inside whichever module imports it (as the eSpeak worker does). Plain
 * CommonJS-style JavaScript: rtp.js (packets) and alawmulaw (G.711) are required from the paths
 * in workerData. Messages follow media-worker-protocol.ts.
 *
 * The clock: tick n is due 20 × n ms after it started (never a chain of 20 ms timeouts, so it does
 * not drift); a timer that fires late runs the ticks it missed at once, up to 10, then skips ahead.
 * At each tick a call that plays sends 20 ms of queued audio (nothing when its queue is empty or the
 * caller holds the call; the RTP timestamp still moves on). A mark is echoed once every sample
 * queued before it was sent; a clear drops what is queued. Packets are taken only from the address
 * and port the caller's SDP named, and only when they are RTP.
 */
export const MEDIA_WORKER_SOURCE = /* js */ `
'use strict'
const { parentPort, workerData } = require('node:worker_threads')
const dgram = require('node:dgram')
const { randomInt } = require('node:crypto')
const { performance } = require('node:perf_hooks')
const { RtpPacket, isRtp } = require(workerData.rtpPath)
const g711 = require(workerData.g711Path)
const codecs = g711.default || g711

const PACKET_MS = 20
const SAMPLES = 160
const MAX_CATCH_UP_TICKS = 10
const MAX_DATAGRAM_BYTES = 2048

const calls = new Map()
let startedAt = 0
let ticks = 0
let timer

function post(message, transfer) {
  parentPort.postMessage(message, transfer)
}

function schedule() {
  const dueAt = startedAt + (ticks + 1) * PACKET_MS
  timer = setTimeout(run, Math.max(0, dueAt - performance.now()))
}

function run() {
  const due = Math.floor((performance.now() - startedAt) / PACKET_MS)
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

function tick(call) {
  const samples = take(call)
  const { remote, media } = call
  if (!samples || !remote || !media || !media.sending) {
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
      if (error && !call.closed) post({ type: 'error', id: call.id, message: String(error && error.message) })
    })
  } catch (error) {
    post({ type: 'error', id: call.id, message: String(error && error.message) })
  }
}

/** The next 20 ms of queued audio (the end padded with silence), or undefined when nothing is queued; echoes marks passed. */
function take(call) {
  if (call.queued <= call.taken) {
    echoMarks(call)
    return undefined
  }
  const out = new Int16Array(SAMPLES)
  let filled = 0
  while (filled < SAMPLES && call.chunks.length > 0) {
    const chunk = call.chunks[0]
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

function echoMarks(call) {
  while (call.marks.length > 0 && call.marks[0].at <= call.taken) post({ type: 'marked', id: call.id, name: call.marks.shift().name })
}

function open(message) {
  const socket = dgram.createSocket(message.address.includes(':') ? 'udp6' : 'udp4')
  const call = {
    id: message.id, socket, remote: undefined, media: undefined, playing: false, talking: false, closed: false,
    ssrc: randomInt(1, 2 ** 32 - 1), sequence: randomInt(0, 2 ** 16), timestamp: randomInt(0, 2 ** 32 - 1),
    chunks: [], offset: 0, queued: 0, taken: 0, marks: [], ignored: 0,
  }
  socket.once('error', (error) => post({ type: 'open-failed', id: call.id, message: String(error && error.message) }))
  socket.bind(0, message.address, () => {
    socket.removeAllListeners('error')
    socket.on('error', (error) => post({ type: 'error', id: call.id, message: String(error && error.message) }))
    socket.on('message', (data, from) => receive(call, data, from))
    calls.set(call.id, call)
    post({ type: 'opened', id: call.id, port: socket.address().port })
  })
}

function receive(call, data, from) {
  const remote = call.remote
  if (call.closed || !remote || from.address !== remote.address || from.port !== remote.port || data.length > MAX_DATAGRAM_BYTES) {
    call.ignored += 1
    return
  }
  let packet
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
  post({ type: 'packet', id: call.id, payloadType: packet.getPayloadType(), timestamp: packet.getTimestamp(), payload: bytes }, [bytes.buffer])
}

parentPort.on('message', (message) => {
  const call = calls.get(message.id)
  switch (message.type) {
    case 'open':
      return open(message)
    case 'remote':
      if (call) call.remote = message.remote
      return
    case 'media':
      if (call) call.media = message.media
      return
    case 'audio':
      if (call && message.samples.length > 0) {
        call.chunks.push(message.samples)
        call.queued += message.samples.length
      }
      return
    case 'mark':
      if (call) call.marks.push({ name: message.name, at: call.queued })
      return
    case 'clear':
      if (call) {
        call.chunks = []
        call.offset = 0
        call.taken = call.queued
        call.marks = []
      }
      return
    case 'play':
      if (call && !call.playing) {
        call.playing = true
        if (timer === undefined) {
          startedAt = performance.now()
          ticks = 0
          schedule()
        }
      }
      return
    case 'close':
      if (call) {
        call.closed = true
        call.playing = false
        calls.delete(call.id)
        post({ type: 'closed', id: call.id, ignored: call.ignored })
        try {
          call.socket.close()
        } catch {}
      }
      return
  }
})
`
