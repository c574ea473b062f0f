import FFT from 'fft.js'

const WINDOW = 256
export const VOICE_BAND_HOP = 128

/**
 * The power of the voice band (by default 300-3400 Hz, the telephone band) of a stream, one value
 * per hop of 128 samples: a 256-sample Hann window over the latest samples, FFT from fft.js. Below
 * the band sits mains hum and rumble, above it hiss and little of a voice, so white noise loses
 * about 60 % of its power here (4 dB) while a voice keeps nearly all of its own, and hum is gone.
 * Powers read as the mean square of the samples would for noise spread over the band. Undefined
 * for the first hop, whose window is half empty (its power would read 3 dB low and seed a low floor).
 */
export function createVoiceBandPower(sampleRate: number, bandHz: [number, number]): (hop: Float32Array) => number | undefined {
  const fft = new FFT(WINDOW)
  const spectrum = fft.createComplexArray() as number[]
  const windowed = new Array<number>(WINDOW).fill(0)
  const hann = Float64Array.from({ length: WINDOW }, (_, index) => 0.5 - 0.5 * Math.cos((2 * Math.PI * index) / WINDOW))
  // Parseval with the window's own power: a one-sided bin's |X|² over this is its share of the mean square.
  const scale = 2 / (WINDOW * hann.reduce((sum, weight) => sum + weight * weight, 0))
  const firstBin = Math.max(1, Math.round((bandHz[0] * WINDOW) / sampleRate))
  const lastBin = Math.min(WINDOW / 2 - 1, Math.round((bandHz[1] * WINDOW) / sampleRate))
  const recent = new Float32Array(WINDOW)
  let samplesSeen = 0
  return (hop) => {
    recent.copyWithin(0, hop.length)
    recent.set(hop, WINDOW - hop.length)
    samplesSeen += hop.length
    if (samplesSeen < WINDOW) return undefined
    for (let index = 0; index < WINDOW; index += 1) windowed[index] = recent[index]! * hann[index]!
    fft.realTransform(spectrum, windowed)
    let power = 0
    for (let bin = firstBin; bin <= lastBin; bin += 1) power += spectrum[2 * bin]! ** 2 + spectrum[2 * bin + 1]! ** 2
    return power * scale
  }
}
