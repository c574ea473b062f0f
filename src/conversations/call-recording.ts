import { encodeWavPcm16Mono } from '../engines/tts/wav-encoding'
import { CALL_SAMPLE_RATE } from './call-audio'

/** Recordings keep one block per second of call, so a long call never reallocates one huge buffer. */
const BLOCK = CALL_SAMPLE_RATE

/**
 * Both sides of a call on one timeline (16 kHz mono): the caller's frames where they arrived,
 * the agent's audio where it plays, mixed by adding (clipped). Silence costs nothing until
 * something is written after it.
 */
export class CallRecording {
  private readonly blocks: (Int16Array | undefined)[] = []
  private length = 0

  /** Adds `samples` starting at `atMs` from the call's start. */
  add(samples: Int16Array | Float32Array, atMs: number): void {
    let position = Math.max(0, Math.round((atMs * CALL_SAMPLE_RATE) / 1000))
    for (let index = 0; index < samples.length; index += 1, position += 1) {
      const blockIndex = Math.floor(position / BLOCK)
      const block = (this.blocks[blockIndex] ??= new Int16Array(BLOCK))
      // Indices inside the loop's bounds: a typed array reads a number there, so `?? 0` never applies.
      const sample = samples[index] ?? 0
      const value = samples instanceof Float32Array ? Math.round(Math.max(-1, Math.min(1, sample)) * 32767) : sample
      const offset = position % BLOCK
      block[offset] = Math.max(-32768, Math.min(32767, (block[offset] ?? 0) + value))
    }
    this.length = Math.max(this.length, position)
  }

  /** Seconds from the start to the last sample written. */
  get durationSeconds(): number {
    return this.length / CALL_SAMPLE_RATE
  }

  /** A RIFF/WAVE file: PCM 16-bit mono at 16 kHz, `minSeconds` long at least. */
  toWav(minSeconds = 0): Buffer {
    const samples = Math.max(this.length, Math.round(minSeconds * CALL_SAMPLE_RATE))
    const pcm = Buffer.alloc(samples * 2)
    for (let position = 0; position < this.length; position += 1) {
      const block = this.blocks[Math.floor(position / BLOCK)]
      if (block) pcm.writeInt16LE(block[position % BLOCK] ?? 0, position * 2)
    }
    return encodeWavPcm16Mono(pcm, CALL_SAMPLE_RATE)
  }
}
