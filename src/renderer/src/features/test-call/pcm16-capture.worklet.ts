/*
 * Runs in the AudioWorklet scope (no DOM, no imports): collects the microphone's samples (the
 * context runs at 16 kHz, so the browser has resampled them) into 20 ms frames and posts each as
 * a Float32Array to the page, which encodes and sends it.
 */

declare const sampleRate: number
declare class AudioWorkletProcessor {
  readonly port: MessagePort
  constructor(options?: { processorOptions?: unknown })
}
declare function registerProcessor(
  name: string,
  processor: new (options: { processorOptions?: { frameMs?: number } }) => AudioWorkletProcessor,
): void

class Pcm16Capture extends AudioWorkletProcessor {
  private readonly frame: Float32Array
  private filled = 0

  constructor(options: { processorOptions?: { frameMs?: number } }) {
    super(options)
    this.frame = new Float32Array(Math.round((sampleRate * (options.processorOptions?.frameMs ?? 20)) / 1000))
  }

  process(inputs: Float32Array[][]): boolean {
    const channel = inputs[0]?.[0]
    if (!channel) return true
    let offset = 0
    while (offset < channel.length) {
      const taken = Math.min(this.frame.length - this.filled, channel.length - offset)
      this.frame.set(channel.subarray(offset, offset + taken), this.filled)
      this.filled += taken
      offset += taken
      if (this.filled === this.frame.length) {
        const full = this.frame.slice()
        this.port.postMessage(full, [full.buffer])
        this.filled = 0
      }
    }
    return true
  }
}

registerProcessor('pcm16-capture', Pcm16Capture)
