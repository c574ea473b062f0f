/** The fields of a canonical 44-byte-header WAV file, read independently of the engine's writer. */
export interface WavFile {
  riff: string
  riffSize: number
  wave: string
  fmtId: string
  fmtSize: number
  audioFormat: number
  channels: number
  sampleRate: number
  byteRate: number
  blockAlign: number
  bitsPerSample: number
  dataId: string
  dataSize: number
  samples: Int16Array
}

export function readWav(wav: Buffer): WavFile {
  const dataSize = wav.readUInt32LE(40)
  const samples = new Int16Array(dataSize / 2)
  for (let index = 0; index < samples.length; index += 1) samples[index] = wav.readInt16LE(44 + index * 2)
  return {
    riff: wav.toString('ascii', 0, 4),
    riffSize: wav.readUInt32LE(4),
    wave: wav.toString('ascii', 8, 12),
    fmtId: wav.toString('ascii', 12, 16),
    fmtSize: wav.readUInt32LE(16),
    audioFormat: wav.readUInt16LE(20),
    channels: wav.readUInt16LE(22),
    sampleRate: wav.readUInt32LE(24),
    byteRate: wav.readUInt32LE(28),
    blockAlign: wav.readUInt16LE(32),
    bitsPerSample: wav.readUInt16LE(34),
    dataId: wav.toString('ascii', 36, 40),
    dataSize,
    samples,
  }
}

/** Root mean square of the samples, on the 16-bit scale (full scale is 32768). */
export function rms(samples: Int16Array): number {
  let sum = 0
  for (const sample of samples) sum += sample * sample
  return Math.sqrt(sum / Math.max(1, samples.length))
}

export function nonZeroShare(samples: Int16Array): number {
  let nonZero = 0
  for (const sample of samples) if (sample !== 0) nonZero += 1
  return nonZero / Math.max(1, samples.length)
}

/** The longest run of near-silence (|sample| < 64), in seconds. */
export function longestSilenceSeconds(samples: Int16Array, sampleRate: number): number {
  let longest = 0
  let run = 0
  for (const sample of samples) {
    run = Math.abs(sample) < 64 ? run + 1 : 0
    if (run > longest) longest = run
  }
  return longest / sampleRate
}

/**
 * The median fundamental frequency (voice pitch) in Hz over the voiced 40 ms frames of the
 * first three seconds (enough to judge a voice, and quick), by
 * normalised autocorrelation between 60 and 500 Hz (the first peak close to the best, so
 * multiples of the period are not taken for it). Coarse, but it tells a female
 * voice from a male one reliably.
 */
export function medianPitchHz(speech: Int16Array, sampleRate: number): number {
  const samples = speech.subarray(0, sampleRate * 3)
  const frame = Math.round(sampleRate * 0.04)
  const hop = Math.round(sampleRate * 0.02)
  const minLag = Math.floor(sampleRate / 500)
  const maxLag = Math.ceil(sampleRate / 60)
  const loudness = rms(samples)
  const pitches: number[] = []
  for (let start = 0; start + frame + maxLag < samples.length; start += hop) {
    let energy = 0
    for (let index = start; index < start + frame; index += 1) energy += samples[index]! * samples[index]!
    if (Math.sqrt(energy / frame) < loudness * 0.5) continue // quiet: a pause or a consonant
    const correlations: number[] = []
    for (let lag = minLag; lag <= maxLag; lag += 1) {
      let product = 0
      let shifted = 0
      for (let index = start; index < start + frame; index += 1) {
        product += samples[index]! * samples[index + lag]!
        shifted += samples[index + lag]! * samples[index + lag]!
      }
      correlations.push(product / Math.sqrt(energy * shifted || 1))
    }
    const best = Math.max(...correlations)
    // Multiples of the period correlate almost as well: take the first peak near the best.
    const peak = correlations.findIndex(
      (value, index) => value >= best * 0.9 && value > correlations[index - 1]! && value >= correlations[index + 1]!,
    )
    if (best > 0.6 && peak > 0) pitches.push(sampleRate / (minLag + peak))
  }
  pitches.sort((a, b) => a - b)
  return pitches[Math.floor(pitches.length / 2)] ?? 0
}
