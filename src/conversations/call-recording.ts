import { encodeWavPcm16Mono } from '../engines/tts/wav-encoding'
import { CALL_SAMPLE_RATE } from './call-audio'
import type { CallerSegment } from './caller-clock'

/** Tracks keep one block per second of audio, so a long call never reallocates one huge buffer. */
const BLOCK = CALL_SAMPLE_RATE

/** PCM16 samples by position, in blocks; silence costs nothing until something is written after it. */
class Track {
  private readonly blocks: (Int16Array | undefined)[] = []
  length = 0

  /** Mixes `samples` in from `position` by adding (clipped). */
  add(samples: Int16Array | Float32Array, position: number): void {
    for (let index = 0; index < samples.length; index += 1, position += 1) {
      const block = (this.blocks[Math.floor(position / BLOCK)] ??= new Int16Array(BLOCK))
      // Indices inside the loop's bounds: a typed array reads a number there, so `?? 0` never applies.
      const sample = samples[index] ?? 0
      const value = samples instanceof Float32Array ? Math.round(Math.max(-1, Math.min(1, sample)) * 32767) : sample
      const offset = position % BLOCK
      block[offset] = Math.max(-32768, Math.min(32767, (block[offset] ?? 0) + value))
    }
    this.length = Math.max(this.length, position)
  }

  at(position: number): number {
    return this.blocks[Math.floor(position / BLOCK)]?.[position % BLOCK] ?? 0
  }
}

/**
 * Both sides of a call on one timeline (16 kHz mono): the agent's audio where it plays, the
 * caller's in the order it was sent, placed on the timeline by the caller's clock when the
 * file is made (so a clock that learns, from a later frame, that earlier ones came late moves
 * them all), mixed by adding (clipped).
 */
export class CallRecording {
  private readonly agent = new Track()
  private readonly caller = new Track()

  /** The agent's `samples`, playing `atMs` from the call's start. */
  addAgent(samples: Int16Array | Float32Array, atMs: number): void {
    this.agent.add(samples, Math.max(0, Math.round((atMs * CALL_SAMPLE_RATE) / 1000)))
  }

  /** The caller's next `samples`, after those sent before. */
  addCaller(samples: Float32Array): void {
    this.caller.add(samples, this.caller.length)
  }

  /**
   * A RIFF/WAVE file, PCM 16-bit mono at 16 kHz, exactly `seconds` long: the call's length (audio
   * queued to play after the call ended was never heard). The caller's audio is placed by `callerPlacement`.
   */
  toWav(seconds: number, callerPlacement: readonly CallerSegment[]): Buffer {
    const samples = Math.round(seconds * CALL_SAMPLE_RATE)
    const pcm = Buffer.alloc(samples * 2)
    for (let position = 0; position < Math.min(samples, this.agent.length); position += 1)
      pcm.writeInt16LE(this.agent.at(position), position * 2)
    callerPlacement.forEach((segment, index) => {
      const until = callerPlacement[index + 1]?.fromSample ?? this.caller.length
      const start = Math.round((segment.atMs * CALL_SAMPLE_RATE) / 1000)
      for (let sample = segment.fromSample, position = start; sample < until && position < samples; sample += 1, position += 1) {
        pcm.writeInt16LE(Math.max(-32768, Math.min(32767, pcm.readInt16LE(position * 2) + this.caller.at(sample))), position * 2)
      }
    })
    return encodeWavPcm16Mono(pcm, CALL_SAMPLE_RATE)
  }
}
