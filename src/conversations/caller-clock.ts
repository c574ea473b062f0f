import { CALL_SAMPLE_RATE } from './call-audio'

/**
 * A stretch of the caller's audio that plays without a break: caller samples from `fromSample`
 * on start at `atMs` on the call's timeline.
 */
export interface CallerSegment {
  fromSample: number
  atMs: number
}

/** How far behind its sample count a frame may arrive before the caller is taken to have sent nothing for a while. */
export const DEFAULT_MAX_NETWORK_LAG_MS = 1_500

/**
 * The caller's clock: where their audio falls on the call's timeline, counted by the samples
 * they sent, not by when frames arrived. A frame can arrive late (the network held it) but
 * never before it was spoken, so the earliest arrival seen, relative to the sample count, is
 * where the audio started; bursts and gaps on the network then move nothing. Only a frame
 * later than `maxNetworkLagMs` behind that count means the caller really sent nothing for a
 * while (a muted microphone): the audio after it starts a new segment where it arrived.
 */
export class CallerClock {
  private samples = 0
  private readonly segments: CallerSegment[] = []

  constructor(private readonly maxNetworkLagMs = DEFAULT_MAX_NETWORK_LAG_MS) {}

  /** Samples the caller sent so far. */
  get sampleCount(): number {
    return this.samples
  }

  /** A frame of `length` samples arrived `arrivedMs` after the call's start. */
  advance(length: number, arrivedMs: number): void {
    const current = this.segments.at(-1)
    // The frame's first sample started playing at least this long ago, at the caller's side.
    const startsAtMs = Math.max(0, arrivedMs - samplesToMs(length))
    if (!current) {
      this.segments.push({ fromSample: 0, atMs: startsAtMs })
    } else {
      const expectedMs = current.atMs + samplesToMs(this.samples - current.fromSample)
      if (startsAtMs < expectedMs) {
        // Earlier than the clock said: the frames before were held up. Never before the previous segment ended.
        const previous = this.segments.at(-2)
        const floor = previous ? previous.atMs + samplesToMs(current.fromSample - previous.fromSample) : 0
        current.atMs = Math.max(floor, current.atMs - (expectedMs - startsAtMs))
      } else if (startsAtMs - expectedMs > this.maxNetworkLagMs) {
        this.segments.push({ fromSample: this.samples, atMs: startsAtMs })
      }
    }
    this.samples += length
  }

  /** Milliseconds from the call's start at which caller sample `sample` plays. */
  msAt(sample: number): number {
    let segment = this.segments[0]
    for (const candidate of this.segments) if (candidate.fromSample <= sample) segment = candidate
    return segment ? segment.atMs + samplesToMs(sample - segment.fromSample) : samplesToMs(sample)
  }

  /** The caller's audio on the call's timeline, segment by segment. */
  placement(): readonly CallerSegment[] {
    return this.segments
  }
}

export function samplesToMs(samples: number): number {
  return (samples * 1000) / CALL_SAMPLE_RATE
}
