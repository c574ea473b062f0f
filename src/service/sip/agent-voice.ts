import type { Resampler } from '../../engines/audio/speex-resampler'

/**
 * The agent's voice waiting to be sent as RTP: the call's audio (16 kHz, as the call session
 * makes it) resampled to 8 kHz as it comes, taken 20 ms at a time by the packet clock. It plays
 * the part of the web SDK's player: a `mark` is echoed once every sample queued before it has
 * been sent, and a `clear` (barge-in) drops what is still queued.
 */
export class AgentVoice {
  private chunks: Int16Array[] = []
  /** Samples of chunks[0] already taken. */
  private offset = 0
  private queued = 0
  private taken = 0
  private marks: { name: string; at: number }[] = []

  constructor(
    /** 16 kHz to 8 kHz, streaming. */
    private readonly resampler: Resampler,
    private readonly markPlayed: (name: string) => void,
  ) {}

  /** Agent audio at 16 kHz. */
  add(samples: Int16Array): void {
    this.append(this.resampler.push(samples))
  }

  /** The end of an utterance: its tail leaves the resampler, and the mark comes back once it has all been sent. */
  mark(name: string): void {
    this.append(this.resampler.flush())
    this.marks.push({ name, at: this.queued })
  }

  /** Barge-in: what is queued is dropped (marks too: the utterance was cut, and the call session knows it). */
  clear(): void {
    this.resampler.flush()
    this.chunks = []
    this.offset = 0
    this.taken = this.queued
    this.marks = []
  }

  /** Whether audio is waiting. */
  get pending(): boolean {
    return this.queued > this.taken
  }

  /** The next `count` samples (the end of the queue padded with silence), or undefined when nothing is queued. */
  take(count: number): Int16Array | undefined {
    if (!this.pending) {
      this.echoMarks()
      return undefined
    }
    const out = new Int16Array(count)
    let filled = 0
    while (filled < count && this.chunks.length > 0) {
      const chunk = this.chunks[0] as Int16Array
      const length = Math.min(count - filled, chunk.length - this.offset)
      out.set(chunk.subarray(this.offset, this.offset + length), filled)
      filled += length
      this.offset += length
      if (this.offset >= chunk.length) {
        this.chunks.shift()
        this.offset = 0
      }
    }
    this.taken += filled
    this.echoMarks()
    return out
  }

  dispose(): void {
    this.chunks = []
    this.marks = []
    this.resampler.dispose()
  }

  private append(samples: Int16Array): void {
    if (samples.length === 0) return
    this.chunks.push(samples)
    this.queued += samples.length
  }

  private echoMarks(): void {
    while (this.marks.length > 0 && (this.marks[0] as { at: number }).at <= this.taken) {
      const mark = this.marks.shift() as { name: string }
      this.markPlayed(mark.name)
    }
  }
}
