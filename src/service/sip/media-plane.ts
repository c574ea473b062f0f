import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { G711Codec } from './g711'
import { MEDIA_WORKER_SOURCE } from './media-worker-source'

/** What a call's media sends: the codec and payload type the SDP settled, and whether the caller hears us (not on hold). */
export interface SendingMedia {
  codec: G711Codec
  payloadType: number
  sending: boolean
}

/** What a call hears from its media: the caller's packets (from the SDP's address only) and marks played. */
export interface CallMediaEvents {
  packet(payloadType: number, payload: Uint8Array, timestamp: number): void
  marked(name: string): void
  /** The media thread stopped (a fault): the call has no audio any more. */
  lost(): void
}

/** Messages to the media thread (media-worker-source.ts). */
type ToWorker =
  | { type: 'open'; id: number; address: string }
  | { type: 'remote'; id: number; remote: { address: string; port: number } }
  | { type: 'media'; id: number; media: SendingMedia }
  | { type: 'audio'; id: number; samples: Int16Array }
  | { type: 'mark'; id: number; name: string }
  | { type: 'clear'; id: number }
  | { type: 'play'; id: number }
  | { type: 'close'; id: number }

/** Messages from it. */
type FromWorker =
  | { type: 'opened'; id: number; port: number }
  | { type: 'open-failed'; id: number; message: string }
  | { type: 'packet'; id: number; payloadType: number; timestamp: number; payload: Uint8Array }
  | { type: 'marked'; id: number; name: string }
  | { type: 'error'; id: number; message: string }
  | { type: 'closed'; id: number; ignored: number }

interface OpenCall {
  events: CallMediaEvents
  opened?: (port: number) => void
  failed?: (error: Error) => void
}

/** Finds the media thread's packages from here (named apart from `require`, which a bundle may define). */
const packages = createRequire(import.meta.url)

/**
 * The SIP line's media: one worker thread (media-worker-source.ts) holds every call's RTP
 * socket, the agent's audio queued to be sent and the packet clock, so the pacing of packets does
 * not depend on how busy the main thread is. Started with the first call; ended by close().
 */
export class MediaPlane {
  private worker: Worker | undefined
  private readonly calls = new Map<number, OpenCall>()
  private nextId = 1

  constructor(private readonly onError: (error: unknown, context: string) => void) {}

  /** A call's RTP socket on `address` (a free port). */
  open(address: string, events: CallMediaEvents): Promise<CallMedia> {
    const worker = this.started()
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.calls.set(id, {
        events,
        opened: (port) => resolve(new CallMedia(id, address, port, (message, transfer) => this.post(message, transfer))),
        failed: reject,
      })
      worker.postMessage({ type: 'open', id, address } satisfies ToWorker)
    })
  }

  async close(): Promise<void> {
    const worker = this.worker
    this.worker = undefined
    this.calls.clear()
    await worker?.terminate()
  }

  private started(): Worker {
    if (this.worker) return this.worker
    const worker = new Worker(MEDIA_WORKER_SOURCE, {
      eval: true,
      workerData: { rtpPath: packages.resolve('rtp.js/packets'), g711Path: packages.resolve('alawmulaw') },
    })
    worker.on('message', (message: FromWorker) => this.received(message))
    worker.on('error', (error) => this.onError(error, 'the SIP media thread failed'))
    worker.on('exit', () => {
      if (this.worker !== worker) return
      // Its calls lost their audio; the next call starts a new thread.
      this.worker = undefined
      const calls = [...this.calls.values()]
      this.calls.clear()
      for (const call of calls) {
        if (call.failed) call.failed(new Error('The SIP media thread stopped'))
        else call.events.lost()
      }
    })
    // The line's own sockets keep a service running: the thread never holds a process open by itself.
    worker.unref()
    this.worker = worker
    return worker
  }

  private post(message: ToWorker, transfer?: ArrayBuffer[]): void {
    // A closed call hears nothing more.
    if (message.type === 'close') this.calls.delete(message.id)
    this.worker?.postMessage(message, transfer)
  }

  private received(message: FromWorker): void {
    const call = this.calls.get(message.id)
    if (!call) return
    try {
      switch (message.type) {
        case 'opened':
          call.opened?.(message.port)
          call.opened = undefined
          call.failed = undefined
          return
        case 'open-failed':
          this.calls.delete(message.id)
          call.failed?.(new Error(message.message))
          return
        case 'packet':
          return call.events.packet(message.payloadType, message.payload, message.timestamp)
        case 'marked':
          return call.events.marked(message.name)
        case 'error':
          return this.onError(new Error(message.message), 'the RTP socket of a SIP call failed')
        case 'closed':
          return
      }
    } catch (error) {
      this.onError(error, 'a SIP call could not take its media')
    }
  }
}

/** One call's media, as the call drives it; every method posts to the media thread. */
export class CallMedia {
  constructor(
    private readonly id: number,
    /** The address the call's RTP socket listens on (and sends from). */
    readonly address: string,
    readonly port: number,
    private readonly post: (message: ToWorker, transfer?: ArrayBuffer[]) => void,
  ) {}

  /** Where the caller's RTP comes from and the agent's goes (the SDP's address and port). */
  setRemote(remote: { address: string; port: number }): void {
    this.post({ type: 'remote', id: this.id, remote })
  }

  setMedia(media: SendingMedia): void {
    this.post({ type: 'media', id: this.id, media })
  }

  /** Agent audio at 8 kHz, queued to be sent. */
  audio(samples: Int16Array): void {
    if (samples.length === 0) return
    const copy = samples.slice()
    this.post({ type: 'audio', id: this.id, samples: copy }, [copy.buffer])
  }

  /** Echoed (CallMediaEvents.marked) once the audio queued before it has been sent. */
  mark(name: string): void {
    this.post({ type: 'mark', id: this.id, name })
  }

  /** Drops the audio and marks still queued (barge-in). */
  clear(): void {
    this.post({ type: 'clear', id: this.id })
  }

  /** The call is answered: its queue is sent on the packet clock from now on. */
  play(): void {
    this.post({ type: 'play', id: this.id })
  }

  close(): void {
    this.post({ type: 'close', id: this.id })
  }
}
