import type { G711Codec } from './g711'

/*
 * The messages between the SIP line's media plane (media-plane.ts) and its thread (media-worker.ts):
 * types only, so the thread's bundle shares no code with the service's.
 */

/** What a call's media sends: the codec and payload type the SDP settled, and whether the caller hears us (not on hold). */
export interface SendingMedia {
  codec: G711Codec
  payloadType: number
  sending: boolean
}

/** The media thread's scheduling: SCHED_RR ('realtime'), nice -10 ('nice'), or as the process ('normal'). */
export type ClockPriority = 'realtime' | 'nice' | 'normal'

/** How punctual the thread's packet clock was: how late each tick ran after it was due, in ms. */
export interface ClockStats {
  ticks: number
  latenessMs: { p50: number; p99: number; max: number }
  /** Ticks that ran more than 2 ms late. */
  lateTicks: number
  /** Per tick that sent packets, how long after its due time the last of them had left (its send's system call returned). */
  sentMs: { p50: number; p99: number; max: number }
  priority: ClockPriority
}

/** One of the caller's packets in a 'packets' batch: its payload is buffer's bytes [offset, offset + length). */
export interface ReceivedPacket {
  id: number
  payloadType: number
  timestamp: number
  offset: number
  length: number
}

/** Messages to the media thread. */
export type ToWorker =
  | { type: 'open'; id: number; address: string }
  | { type: 'remote'; id: number; remote: { address: string; port: number } }
  | { type: 'media'; id: number; media: SendingMedia }
  | { type: 'audio'; id: number; samples: Int16Array }
  | { type: 'mark'; id: number; name: string }
  | { type: 'clear'; id: number }
  | { type: 'play'; id: number }
  | { type: 'close'; id: number }
  | { type: 'clock-stats'; id: number }

/** Messages from it. */
export type FromWorker =
  | { type: 'opened'; id: number; port: number }
  | { type: 'open-failed'; id: number; message: string }
  /** The caller's packets read in one turn of the thread's event loop, every call's together. */
  | { type: 'packets'; packets: ReceivedPacket[]; buffer: ArrayBuffer }
  | { type: 'marked'; id: number; name: string }
  | { type: 'error'; id: number; message: string }
  | { type: 'closed'; id: number; ignored: number }
  | { type: 'clock-stats'; id: number; stats: ClockStats }
  /** Sent by the thread itself when its last call closed: the clock while calls were on (then counted afresh). */
  | { type: 'clock-idle'; stats: ClockStats }
