/**
 * Cuts samples that arrive in any lengths into blocks of one fixed length, a partial block
 * carried over to the next push: the voice classifiers and transcription's windows judge audio
 * block by block (a WebRTC VAD block, a voice-band hop, a 20 ms frame), whatever sizes the
 * frames come in.
 */
export class FixedBlocks<T extends Int16Array | Float32Array> {
  private filled = 0

  /** `block` holds each block as it fills: the same buffer every time, to be read before the next push. */
  constructor(private readonly block: T) {}

  /** Adds `samples`, calling `onBlock` with the block each time it is full. */
  push(samples: T, onBlock: (block: T) => void): void {
    for (let offset = 0; offset < samples.length;) {
      const taken = Math.min(this.block.length - this.filled, samples.length - offset)
      this.block.set(samples.subarray(offset, offset + taken), this.filled)
      this.filled += taken
      offset += taken
      if (this.filled < this.block.length) return
      this.filled = 0
      onBlock(this.block)
    }
  }
}
