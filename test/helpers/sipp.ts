import { spawn } from 'node:child_process'
import { createSocket, type Socket } from 'node:dgram'
import { writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { makeTempDir } from './temp-dir'

/*
 * Real SIP callers for the SIP line's tests: SIPp (Debian's sip-tester, installed by `npm test`'s
 * ensure-test-tools) runs the scenarios of test/fixtures/sip, and a test-side RTP socket stands
 * for the caller's phone where a test must hear what the agent says.
 */

export const SCENARIOS = join(import.meta.dirname, '..', 'fixtures', 'sip')

export interface SippResult {
  /** 0 when every call of the scenario went as written. */
  code: number | null
  stdout: string
  /** SIPp's error log (-trace_err), for a failure's message. */
  errors: string
}

/** Runs one call of `scenario` against the line at 127.0.0.1:`port`, dialling `number`; `-set` variables in `vars`. */
export async function runSipp(
  scenario: string,
  options: {
    port: number
    number: string
    vars?: Record<string, string | number>
    /** How long a scenario's bare <pause/> lasts (-d). */
    pauseMs?: number
    mediaPort?: number
    timeoutS?: number
    /** `tcp`: SIP over one TCP connection (-t t1); UDP otherwise. */
    transport?: 'udp' | 'tcp'
    /** Files put in SIPp's folder first (caller.wav for rtp_stream). */
    files?: Record<string, Uint8Array>
  },
): Promise<SippResult> {
  const folder = makeTempDir()
  for (const [name, bytes] of Object.entries(options.files ?? {})) writeFileSync(join(folder, name), bytes)
  const args = [
    '-sf',
    join(SCENARIOS, scenario),
    '-s',
    options.number,
    '-i',
    '127.0.0.1',
    '-mi',
    '127.0.0.1',
    '-m',
    '1',
    '-nostdin',
    '-timeout',
    `${options.timeoutS ?? 20}s`,
    '-timeout_error',
    '-trace_err',
    '-error_file',
    join(folder, 'errors.log'),
    ...(options.mediaPort ? ['-mp', String(options.mediaPort)] : []),
    ...(options.pauseMs ? ['-d', String(options.pauseMs)] : []),
    ...(options.transport === 'tcp' ? ['-t', 't1'] : []),
    ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ['-set', name, String(value)]),
    `127.0.0.1:${options.port}`,
  ]
  const child = spawn('/usr/bin/sipp', args, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  const errors = await readFile(join(folder, 'errors.log'), 'utf8').catch(() => '')
  return { code, stdout, errors }
}

/** An RTP packet as the caller's socket received it. */
export interface HeardPacket {
  payloadType: number
  sequence: number
  timestamp: number
  marker: boolean
  payload: Buffer
  /** performance.now() on arrival. */
  at: number
  from: { address: string; port: number }
}

const sockets: Socket[] = []
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close()
})

/** The caller's RTP socket on 127.0.0.1: what arrives is kept; `send` writes raw datagrams to the agent's side. */
export async function callerRtpSocket(): Promise<{
  port: number
  packets: HeardPacket[]
  send(bytes: Uint8Array, to: { address: string; port: number }): void
}> {
  const socket = createSocket('udp4')
  sockets.push(socket)
  const packets: HeardPacket[] = []
  socket.on('message', (data, from) => {
    if (data.length < 12) return
    packets.push({
      payloadType: data[1]! & 0x7f,
      marker: (data[1]! & 0x80) !== 0,
      sequence: data.readUInt16BE(2),
      timestamp: data.readUInt32BE(4),
      payload: data.subarray(12 + (data[0]! & 0x0f) * 4),
      at: performance.now(),
      from: { address: from.address, port: from.port },
    })
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  return {
    port: socket.address().port,
    packets,
    send: (bytes, to) => socket.send(bytes, to.port, to.address),
  }
}

/** An RFC 4733 event packet (RTP header and the 4-byte event): `end` sets the E bit. */
export function keyEventPacket(options: {
  payloadType: number
  sequence: number
  timestamp: number
  ssrc: number
  event: number
  end: boolean
  duration: number
  marker?: boolean
}): Buffer {
  const packet = Buffer.alloc(16)
  packet[0] = 0x80
  packet[1] = (options.marker ? 0x80 : 0) | options.payloadType
  packet.writeUInt16BE(options.sequence & 0xffff, 2)
  packet.writeUInt32BE(options.timestamp >>> 0, 4)
  packet.writeUInt32BE(options.ssrc >>> 0, 8)
  packet[12] = options.event
  packet[13] = (options.end ? 0x80 : 0) | 10
  packet.writeUInt16BE(options.duration, 14)
  return packet
}

/** A WAV file of G.711 µ-law (format 7), 8 kHz mono, as SIPp's rtp_stream plays it. */
export function mulawWav(samples: Uint8Array): Buffer {
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + samples.length, 4)
  header.write('WAVE', 8)
  header.write('fmt ', 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(7, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(8000, 24)
  header.writeUInt32LE(8000, 28)
  header.writeUInt16LE(1, 32)
  header.writeUInt16LE(8, 34)
  header.write('data', 36)
  header.writeUInt32LE(samples.length, 40)
  return Buffer.concat([header, samples])
}
