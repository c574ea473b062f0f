import { TEST_CALL_SAMPLE_RATE } from '../../../../shared/ipc/streams'
import { pcm16Base64ToFloat } from './pcm16-base64'

/** How far ahead of "now" a chunk that arrives after a gap starts: enough to never start in the past. */
const START_LEAD_S = 0.04

/**
 * Plays the agent's voice as it streams: each chunk is scheduled on one AudioContext right after
 * the previous one (an AudioBuffer at 16 kHz: the browser resamples to the device). A mark is
 * reached when playback passes the end of what was queued before it; clear() stops at once and
 * drops what is queued, and marks still waiting are answered then (nothing before them will play).
 */
export class PcmPlayback {
  private readonly context: AudioContext
  private readonly sources = new Set<AudioBufferSourceNode>()
  private readonly timers = new Set<ReturnType<typeof setTimeout>>()
  private readonly waitingMarks = new Map<ReturnType<typeof setTimeout>, () => void>()
  /** When the queued audio ends, on the context's clock. */
  private queueEnd = 0

  constructor(context: AudioContext = new AudioContext()) {
    this.context = context
  }

  /** Browsers start a context suspended until a gesture; the Talk and Send buttons are one. */
  resume(): void {
    if (this.context.state === 'suspended') void this.context.resume()
  }

  /** Queues one chunk (base64 PCM16); returns when it will start, in seconds from now. */
  enqueue(pcm16: string): number {
    const samples = pcm16Base64ToFloat(pcm16)
    if (samples.length === 0) return Math.max(0, this.queueEnd - this.context.currentTime)
    const buffer = this.context.createBuffer(1, samples.length, TEST_CALL_SAMPLE_RATE)
    buffer.copyToChannel(samples, 0)
    const source = this.context.createBufferSource()
    source.buffer = buffer
    source.connect(this.context.destination)
    const startAt = Math.max(this.queueEnd, this.context.currentTime + START_LEAD_S)
    source.start(startAt)
    this.queueEnd = startAt + buffer.duration
    this.sources.add(source)
    source.onended = () => this.sources.delete(source)
    return startAt - this.context.currentTime
  }

  /** Calls `reached` once what is queued now has been played. */
  mark(reached: () => void): void {
    const remaining = Math.max(0, this.queueEnd - this.context.currentTime)
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      this.waitingMarks.delete(timer)
      reached()
    }, remaining * 1000)
    this.timers.add(timer)
    this.waitingMarks.set(timer, reached)
  }

  /** Stops playback now and drops the queue (the caller spoke over the agent). */
  clear(): void {
    for (const source of this.sources) {
      source.onended = null
      source.stop()
      source.disconnect()
    }
    this.sources.clear()
    this.queueEnd = 0
    const marks = [...this.waitingMarks.values()]
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    this.waitingMarks.clear()
    for (const reached of marks) reached()
  }

  get playing(): boolean {
    return this.queueEnd > this.context.currentTime
  }

  close(): void {
    this.clear()
    void this.context.close()
  }
}
