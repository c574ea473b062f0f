import { WebSocket } from 'ws'
import type { ServerFrame } from '../../src/shared/api/stream-frames'
import { FrameWaiters } from './frame-waiters'

/** 128 samples at 16 kHz: the SDK's microphone frame. */
export const SDK_FRAME_SAMPLES = 128
const SAMPLE_RATE = 16_000

export interface ReceivedFrame {
  frame: ServerFrame
  at: number
}

/**
 * A Node client that speaks exactly the web SDK 0.3.1's frames (clients.md): `start` on open,
 * the microphone as base64 Float32 LE 16 kHz mono frames of 128 samples, marks echoed when its
 * playback model reaches them (a queue that plays continuously at 16 kHz, as the SDK's worklet
 * does), `tools_response` for tools, `stop` then close 1000. It records every server frame and
 * the agent's audio, and checks each frame's shape as the SDK would.
 */
export class SdkCallClient {
  readonly frames: ReceivedFrame[] = []
  /** Problems the SDK would have had with server frames (no event, binary, odd PCM length). */
  readonly protocolErrors: string[] = []
  /** The agent's audio as PCM16 samples, in order. */
  readonly agentAudio: Int16Array[] = []
  readonly closed: Promise<{ code: number; reason: string }>
  /** When the audio received so far would finish playing (ms, Date.now clock). */
  private playbackEnd = 0
  /** Longest the playback queue ran dry between two chunks of one utterance (ms). */
  private readonly markTimers = new Set<ReturnType<typeof setTimeout>>()
  private readonly waiters = new FrameWaiters()
  private readonly startedAt = Date.now()
  toolHandler: ((name: string, args: unknown[]) => unknown) | undefined
  /** When the last microphone frame was sent (Date.now). */
  lastMicrophoneFrameAt = 0

  private constructor(private readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })))
    socket.on('message', (data, isBinary) => this.onMessage(data, isBinary))
  }

  /** Opens `/stream/{jobId}?api_key=<key>` as the SDK does (WS_URL `ws://host/stream`), and sends `start`. */
  static async connect(
    baseUrl: string,
    jobId: string,
    apiKey: string,
    options: {
      origin?: string
      sendStart?: boolean
      /** Offer permessage-deflate, as browsers do (default true). */ perMessageDeflate?: boolean
    } = {},
  ): Promise<SdkCallClient> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/stream/${jobId}?api_key=${apiKey}`
    const socket = new WebSocket(url, {
      perMessageDeflate: options.perMessageDeflate ?? true,
      ...(options.origin ? { origin: options.origin } : {}),
    })
    const client = new SdkCallClient(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    if (options.sendStart !== false) client.send({ event: 'start', streamSid: 'WEBSDK' })
    return client
  }

  /** The extensions the server accepted in the handshake ('' for none; 'permessage-deflate…' when frames are compressed). */
  get extensions(): string {
    return this.socket.extensions
  }

  send(frame: Record<string, unknown>): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame))
  }

  /** Frames of one kind, in order. */
  framesOf<E extends ServerFrame['event']>(event: E): Extract<ServerFrame, { event: E }>[] {
    return this.frames
      .map((received) => received.frame)
      .filter((frame): frame is Extract<ServerFrame, { event: E }> => frame.event === event)
  }

  /** Resolves when `predicate` holds, checked at every frame; rejects after `timeoutMs`, saying what was received. */
  waitFor<T>(predicate: () => T | undefined | false, timeoutMs = 10_000, what = 'a condition'): Promise<T> {
    return this.waiters.waitFor(
      predicate,
      timeoutMs,
      () => `Timed out after ${timeoutMs} ms waiting for ${what}; frames: ${this.summary()}`,
    )
  }

  /** Waits for the n-th frame of `event` (1-based). */
  nth<E extends ServerFrame['event']>(event: E, n: number, timeoutMs = 10_000): Promise<Extract<ServerFrame, { event: E }>> {
    return this.waitFor(() => this.framesOf(event)[n - 1], timeoutMs, `${event} #${n}`)
  }

  /** Sends `samples` (16 kHz, [-1, 1]) as SDK frames at about real time (bursts of 5 frames every 40 ms). */
  async speak(samples: Float32Array): Promise<void> {
    for (let start = 0; start < samples.length; start += SDK_FRAME_SAMPLES * 5) {
      for (let frame = start; frame < Math.min(samples.length, start + SDK_FRAME_SAMPLES * 5); frame += SDK_FRAME_SAMPLES) {
        const chunk = new Float32Array(SDK_FRAME_SAMPLES)
        chunk.set(samples.subarray(frame, frame + SDK_FRAME_SAMPLES))
        this.sendMicrophone(chunk)
      }
      await sleep(40)
    }
  }

  /** Sends `ms` of near-silence (the microphone's faint noise floor) at about real time. */
  async silence(ms: number): Promise<void> {
    await this.speak(quietNoise(Math.round((ms * SAMPLE_RATE) / 1000)))
  }

  /** The SDK's `end()`: `stop`, then close 1000. */
  async hangUp(): Promise<{ code: number; reason: string }> {
    this.send({ event: 'stop' })
    this.socket.close(1000)
    return this.closed
  }

  /** Seconds of agent audio received. */
  get agentAudioSeconds(): number {
    return this.agentAudio.reduce((sum, chunk) => sum + chunk.length, 0) / SAMPLE_RATE
  }

  close(): void {
    for (const timer of this.markTimers) clearTimeout(timer)
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) this.socket.terminate()
  }

  private sendMicrophone(samples: Float32Array): void {
    const bytes = Buffer.alloc(samples.length * 4)
    samples.forEach((sample, index) => bytes.writeFloatLE(sample, index * 4))
    this.send({ event: 'media', streamSid: 'WEBSDK', media: { payload: bytes.toString('base64') } })
    this.lastMicrophoneFrameAt = Date.now()
  }

  private onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    const now = Date.now()
    if (isBinary) {
      this.protocolErrors.push('a binary frame')
      return
    }
    const frame = JSON.parse((data as Buffer).toString('utf8')) as ServerFrame
    if (typeof frame.event !== 'string') this.protocolErrors.push(`a frame without event: ${JSON.stringify(frame).slice(0, 100)}`)
    this.frames.push({ frame, at: now })
    if (frame.event === 'media') {
      const bytes = Buffer.from(frame.media.payload, 'base64')
      if (bytes.length % 2 !== 0) this.protocolErrors.push('a media payload of odd length')
      const samples = new Int16Array(bytes.length / 2)
      for (let index = 0; index < samples.length; index += 1) samples[index] = bytes.readInt16LE(index * 2)
      this.agentAudio.push(samples)
      this.playbackEnd = Math.max(this.playbackEnd, now) + (samples.length * 1000) / SAMPLE_RATE
    } else if (frame.event === 'clear') {
      this.playbackEnd = now
      for (const timer of this.markTimers) clearTimeout(timer)
      this.markTimers.clear()
    } else if (frame.event === 'mark') {
      const timer = setTimeout(
        () => {
          this.markTimers.delete(timer)
          this.send({ event: 'mark', streamSid: 'WEBSDK', mark: { name: frame.mark.name } })
        },
        Math.max(0, this.playbackEnd - now),
      )
      this.markTimers.add(timer)
    } else if (frame.event === 'tools' && this.toolHandler) {
      const answers = frame.content.map((call) => {
        // The SDK passes arguments positionally, in the key order of the JSON it got.
        const args = Object.values(JSON.parse(call.function.arguments) as Record<string, unknown>)
        return { id: call.id, function: { name: call.function.name, response: this.toolHandler!(call.function.name, args) } }
      })
      this.send({ event: 'tools_response', tools_response: answers, streamSid: 'WEBSDK' })
    }
    this.waiters.check()
  }

  private summary(): string {
    return this.frames
      .filter((received) => received.frame.event !== 'media')
      .map((received) => `${received.at - this.startedAt}ms ${JSON.stringify(received.frame).slice(0, 160)}`)
      .join(' | ')
  }
}

/** A microphone's noise floor in a quiet room: about -60 dBFS, seeded so runs are the same. */
export function quietNoise(samples: number, seed = 7): Float32Array {
  const noise = new Float32Array(samples)
  let state = seed
  for (let index = 0; index < samples; index += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    noise[index] = (state / 2_147_483_648 - 0.5) * 0.002
  }
  return noise
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
