import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ClockStats, FromWorker, ReceivedPacket, SendingMedia, ToWorker } from './media-worker-protocol'

export type { ClockPriority, ClockStats, SendingMedia } from './media-worker-protocol'

/** What a call hears from its media: the caller's packets (from the SDP's address only) and marks played. */
export interface CallMediaEvents {
  packet(payloadType: number, payload: Uint8Array, timestamp: number): void
  marked(name: string): void
  /** The media thread stopped (a fault): the call has no audio any more. */
  lost(): void
}

interface OpenCall {
  events: CallMediaEvents
  opened?: (port: number) => void
  failed?: (error: Error) => void
}

/** The media thread's file in the build: an entry of its own beside cli.js and index.js (electron.vite.config.ts). */
const BUNDLED_WORKER = 'sip-media-worker.js'

/**
 * Starts media-worker.ts as a worker thread. From the build (out/main, where `serve` and the app
 * run) it is the bundled entry beside the main entries; this module may sit in out/main or in
 * its chunks/ folder. From the TypeScript sources (vitest, tsx) the thread loads tsx's loader
 * first and imports the .ts file through it, as tsx itself would.
 */
export function startMediaWorker(): Worker {
  const here = import.meta.url
  const options = { name: 'voicedesk-sip-media' }
  if (here.endsWith('.ts')) {
    const tsx = tsxLoaderApi(here)
    const entry = new URL('./media-worker.ts', here).href
    const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
    return new Worker(boot, { ...options, eval: true })
  }
  for (const candidate of [new URL(`./${BUNDLED_WORKER}`, here), new URL(`../${BUNDLED_WORKER}`, here)]) {
    if (existsSync(fileURLToPath(candidate))) return new Worker(candidate, options)
  }
  throw new Error(`The SIP media thread's file (${BUNDLED_WORKER}) is missing beside ${fileURLToPath(here)}: build again`)
}

/** tsx's ES module API (register), as an `import` finds it: require() resolves its CommonJS twin, whose register is another. */
function tsxLoaderApi(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json')
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: { './esm/api': { import: { default: string } } } }
  return pathToFileURL(join(dirname(manifest), exports['./esm/api'].import.default)).href
}

/**
 * The SIP line's media: one worker thread (media-worker.ts) holds every call's RTP
 * socket, the agent's audio queued to be sent and the packet clock, so the pacing of packets does
 * not depend on how busy the main thread is. Started with the first call; ended by close().
 */
export class MediaPlane {
  private worker: Worker | undefined
  private readonly calls = new Map<number, OpenCall>()
  private nextId = 1
  private statsWaiting: ((stats: ClockStats | undefined) => void)[] = []

  constructor(
    private readonly onError: (error: unknown, context: string) => void,
    /** The clock's punctuality while calls were on, each time the last call closes. */
    private readonly onClock?: (stats: ClockStats) => void,
  ) {}

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

  /** How punctual the packet clock has been (the last minute of ticks); undefined while no thread runs. */
  clockStats(): Promise<ClockStats | undefined> {
    const worker = this.worker
    if (!worker) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      this.statsWaiting.push(resolve)
      worker.postMessage({ type: 'clock-stats', id: 0 } satisfies ToWorker)
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
    const worker = startMediaWorker()
    worker.on('message', (message: FromWorker) => this.received(message))
    worker.on('error', (error) => this.onError(error, 'the SIP media thread failed'))
    worker.on('exit', () => {
      if (this.worker !== worker) return
      // Its calls lost their audio; the next call starts a new thread.
      this.worker = undefined
      const calls = [...this.calls.values()]
      this.calls.clear()
      for (const waiting of this.statsWaiting.splice(0)) waiting(undefined)
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

  /** The caller's packets of a batch, each to its call (a closed call's dropped). */
  private deliver(packets: ReceivedPacket[], buffer: ArrayBuffer): void {
    for (const { id, payloadType, timestamp, offset, length } of packets) {
      const call = this.calls.get(id)
      if (!call) continue
      try {
        call.events.packet(payloadType, new Uint8Array(buffer, offset, length), timestamp)
      } catch (error) {
        this.onError(error, 'a SIP call could not take its media')
      }
    }
  }

  private received(message: FromWorker): void {
    if (message.type === 'clock-idle') return this.onClock?.(message.stats)
    if (message.type === 'clock-stats') return this.statsWaiting.shift()?.(message.stats)
    if (message.type === 'packets') return this.deliver(message.packets, message.buffer)
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
