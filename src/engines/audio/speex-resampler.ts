import { joinSamples } from './pcm-encoding'
import { loadWasmModule, type EmscriptenModule } from './wasm-module'

interface SpeexModule extends EmscriptenModule {
  _speex_resampler_init(channels: number, inRate: number, outRate: number, quality: number, errorPointer: number): number
  _speex_resampler_process_interleaved_int(
    state: number,
    input: number,
    inLengthPointer: number,
    output: number,
    outLengthPointer: number,
  ): number
  _speex_resampler_get_input_latency(state: number): number
  _speex_resampler_skip_zeros(state: number): number
  _speex_resampler_reset_mem(state: number): number
  _speex_resampler_destroy(state: number): void
}

/** Converts Int16 PCM from one rate to another (interleaved when channels > 1). */
export interface Resampler {
  readonly fromRate: number
  readonly toRate: number
  readonly channels: number
  /** A whole utterance: exactly round(frames * toRate / fromRate) frames out, not delayed. */
  resample(samples: Int16Array): Int16Array
  /** Streaming: the next chunk in, what is ready out (the filter holds back a few ms). */
  push(chunk: Int16Array): Int16Array
  /** Ends a stream: the held-back tail, trimmed to the exact total length; the next push starts a new stream. */
  flush(): Int16Array
  /** Frees the WASM state; later calls throw. */
  dispose(): void
}

export interface ResamplerOptions {
  /** Speex quality 0-10: 10 is the best and slowest, 4 is Speex's VoIP default. Default 7. */
  quality?: number
}

let speexModule: Promise<SpeexModule> | undefined

/**
 * A Speex resampler (SpeexDSP compiled to WASM, loaded from node_modules once per process).
 * Speech from eSpeak (22050 Hz) becomes 16 kHz for calls and speech recognition.
 */
export async function createResampler(fromRate: number, toRate: number, channels = 1, options: ResamplerOptions = {}): Promise<Resampler> {
  for (const [name, value] of [
    ['fromRate', fromRate],
    ['toRate', toRate],
    ['channels', channels],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`)
  }
  const quality = options.quality ?? 7
  if (!Number.isInteger(quality) || quality < 0 || quality > 10)
    throw new RangeError(`quality must be an integer from 0 to 10, got ${quality}`)
  speexModule ??= loadWasmModule<SpeexModule>('@echogarden/speex-resampler-wasm')
  const speex = await speexModule.catch((error: unknown) => {
    speexModule = undefined // a later call may try again
    throw error
  })
  return new SpeexResampler(speex, fromRate, toRate, channels, quality)
}

class SpeexResampler implements Resampler {
  private state: number
  /** Frames in and out since the stream began, for the exact length at flush(). */
  private framesIn = 0
  private framesOut = 0

  constructor(
    private readonly speex: SpeexModule,
    readonly fromRate: number,
    readonly toRate: number,
    readonly channels: number,
    quality: number,
  ) {
    const errorPointer = speex._malloc(4)
    try {
      this.state = speex._speex_resampler_init(channels, fromRate, toRate, quality, errorPointer)
      const code = speex.HEAPU32[errorPointer >> 2]!
      if (!this.state || code !== 0) throw new Error(`The Speex resampler could not start (${fromRate} -> ${toRate} Hz, error ${code})`)
    } finally {
      speex._free(errorPointer)
    }
    this.startStream()
  }

  resample(samples: Int16Array): Int16Array {
    this.startStream()
    const body = this.push(samples)
    const tail = this.flush()
    const out = new Int16Array(body.length + tail.length)
    out.set(body)
    out.set(tail, body.length)
    return out
  }

  push(chunk: Int16Array): Int16Array {
    this.checkOpen()
    if (chunk.length % this.channels !== 0)
      throw new RangeError(`A chunk must hold whole frames of ${this.channels} channel(s), got ${chunk.length} samples`)
    this.framesIn += chunk.length / this.channels
    const out = this.process(chunk)
    this.framesOut += out.length / this.channels
    return out
  }

  flush(): Int16Array {
    this.checkOpen()
    const expected = Math.round((this.framesIn * this.toRate) / this.fromRate)
    // Zeros push the filter's held-back samples out; what comes beyond the exact length is cut.
    const latency = this.speex._speex_resampler_get_input_latency(this.state)
    const tail = this.process(new Int16Array((latency + 1) * this.channels))
    const wanted = Math.max(0, expected - this.framesOut) * this.channels
    this.startStream()
    return tail.length > wanted ? tail.slice(0, wanted) : tail
  }

  dispose(): void {
    if (!this.state) return
    this.speex._speex_resampler_destroy(this.state)
    this.state = 0
  }

  private startStream(): void {
    this.checkOpen()
    this.speex._speex_resampler_reset_mem(this.state)
    // Starts the output at the first input sample instead of after the filter's delay.
    this.speex._speex_resampler_skip_zeros(this.state)
    this.framesIn = 0
    this.framesOut = 0
  }

  private checkOpen(): void {
    if (!this.state) throw new Error('The resampler was disposed')
  }

  /** Runs interleaved samples through the filter, looping until Speex has taken them all. */
  private process(input: Int16Array): Int16Array {
    const { speex, channels } = this
    const inFrames = input.length / channels
    const capacity = Math.ceil((inFrames * this.toRate) / this.fromRate) + 64
    const inPointer = speex._malloc(Math.max(2, input.byteLength))
    const outPointer = speex._malloc(capacity * channels * 2)
    const lengths = speex._malloc(8)
    const chunks: Int16Array[] = []
    try {
      speex.HEAP16.set(input, inPointer >> 1)
      let consumed = 0
      while (consumed < inFrames) {
        speex.HEAPU32[lengths >> 2] = inFrames - consumed
        speex.HEAPU32[(lengths >> 2) + 1] = capacity
        const code = speex._speex_resampler_process_interleaved_int(
          this.state,
          inPointer + consumed * channels * 2,
          lengths,
          outPointer,
          lengths + 4,
        )
        if (code !== 0) throw new Error(`The Speex resampler failed (error ${code})`)
        const taken = speex.HEAPU32[lengths >> 2]!
        const written = speex.HEAPU32[(lengths >> 2) + 1]!
        // HEAP16 is read after the call: a grown memory replaces the view.
        chunks.push(speex.HEAP16.slice(outPointer >> 1, (outPointer >> 1) + written * channels))
        if (taken === 0 && written === 0) break
        consumed += taken
      }
    } finally {
      speex._free(inPointer)
      speex._free(outPointer)
      speex._free(lengths)
    }
    return joinSamples(chunks, (length) => new Int16Array(length))
  }
}
