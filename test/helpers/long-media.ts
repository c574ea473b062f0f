import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parseWavPcm16Mono, writeWavPcm16Mono } from '../../src/engines/audio/wav-file'

/** Free of vitest, so bench/ uses it too. */

const FFMPEG = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path

export interface LongSpeechMediaOptions {
  /** One spoken sentence as a mono 16-bit WAV (any rate), repeated to make the talk. */
  sentenceWav: Buffer
  /** The whole recording's length. */
  seconds: number
  /** Each period: talk (sentences with `pauseSeconds` between, as many as fit in `talkSeconds`), then silence to `talkSeconds + silenceSeconds`. */
  talkSeconds: number
  pauseSeconds: number
  silenceSeconds: number
  /** Where the files are written. */
  folder: string
}

export interface LongSpeechMedia {
  /** A 16 kHz mono MP3 at 16 kb/s: 2 hours are about 14 MB. */
  path: string
  bytes: number
  periodSeconds: number
  /** Where each period's silence starts (after its last sentence) and ends, on the recording's clock: the talk is the rest. */
  silences: { start: number; end: number }[]
}

async function ffmpeg(args: string[]): Promise<void> {
  await promisify(execFile)(FFMPEG, ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args])
}

/**
 * A long recording of real speech made in a few seconds: one period (talk, then silence) is
 * built as PCM and encoded to MP3 once, then repeated by FFmpeg's stream copy (`-stream_loop`,
 * no encoding) up to the length. The MP3 frame (36 ms at 16 kHz) divides the period, so the
 * copies line up and the length comes out exact.
 */
export async function longSpeechMedia(options: LongSpeechMediaOptions): Promise<LongSpeechMedia> {
  const sentence = parseWavPcm16Mono(options.sentenceWav)
  const rate = sentence.sampleRate
  const periodSeconds = options.talkSeconds + options.silenceSeconds
  const period = new Int16Array(Math.round(periodSeconds * rate))
  const talkEnd = Math.round(options.talkSeconds * rate)
  const pause = Math.round(options.pauseSeconds * rate)
  let spoken = 0
  for (let at = 0; at + sentence.samples.length <= talkEnd; at += sentence.samples.length + pause) {
    period.set(sentence.samples, at)
    spoken = at + sentence.samples.length
  }
  const periodWav = join(options.folder, 'period.wav')
  const periodMp3 = join(options.folder, 'period.mp3')
  const path = join(options.folder, `speech-${options.seconds}s.mp3`)
  writeFileSync(periodWav, writeWavPcm16Mono(period, rate))
  await ffmpeg(['-i', periodWav, '-ac', '1', '-ar', '16000', '-c:a', 'libmp3lame', '-b:a', '16k', periodMp3])
  await ffmpeg(['-stream_loop', '-1', '-i', periodMp3, '-c', 'copy', '-t', String(options.seconds), path])
  const silences: LongSpeechMedia['silences'] = []
  for (let start = 0; start < options.seconds; start += periodSeconds) {
    silences.push({ start: start + spoken / rate, end: Math.min(options.seconds, start + periodSeconds) })
  }
  return { path, bytes: statSync(path).size, periodSeconds, silences }
}
