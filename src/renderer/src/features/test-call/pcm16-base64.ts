/*
 * The test call's audio frames: base64 PCM16 little-endian, 16 kHz mono (streams.ts). The
 * browser's btoa/atob do the base64; these only turn samples into bytes and back.
 */

/** Float samples (-1..1) as base64 PCM16 LE. */
export function floatToPcm16Base64(samples: Float32Array): string {
  const bytes = new Uint8Array(samples.length * 2)
  const view = new DataView(bytes.buffer)
  for (const [index, sample] of samples.entries()) {
    const clamped = Math.max(-1, Math.min(1, sample))
    view.setInt16(index * 2, Math.round(clamped < 0 ? clamped * 0x8000 : clamped * 0x7fff), true)
  }
  return bytesToBase64(bytes)
}

/** Base64 PCM16 LE as float samples (-1..1), for an AudioBuffer. */
export function pcm16Base64ToFloat(base64: string): Float32Array<ArrayBuffer> {
  const binary = atob(base64)
  const samples = new Float32Array(binary.length >> 1)
  for (let index = 0; index < samples.length; index += 1) {
    const low = binary.charCodeAt(index * 2)
    const high = binary.charCodeAt(index * 2 + 1)
    const value = (high << 8) | low
    samples[index] = (value >= 0x8000 ? value - 0x10000 : value) / 0x8000
  }
  return samples
}

function bytesToBase64(bytes: Uint8Array): string {
  // String.fromCharCode over slices: one call per 32 KiB keeps clear of the argument limit.
  let binary = ''
  for (let offset = 0; offset < bytes.length; offset += 0x8000) binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000))
  return btoa(binary)
}
