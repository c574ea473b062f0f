import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { int16FromFloat32 } from '../../src/engines/audio/pcm-encoding'
import { writeWavPcm16Mono } from '../../src/engines/audio/wav-file'
import { spokenSamples } from './spoken-audio'
import { makeTempDir } from './temp-dir'

const RATE = 16_000

/** Real speech (the project's eSpeak voice) with silences between, as a 16 kHz WAV: a string is spoken, a number is seconds of silence. */
export async function speechWav(parts: (string | number)[]): Promise<{ wav: Buffer; seconds: number }> {
  const pieces: Int16Array[] = []
  for (const part of parts)
    pieces.push(typeof part === 'number' ? new Int16Array(Math.round(part * RATE)) : int16FromFloat32(await spokenSamples(part)))
  const samples = new Int16Array(pieces.reduce((sum, piece) => sum + piece.length, 0))
  let offset = 0
  for (const piece of pieces) {
    samples.set(piece, offset)
    offset += piece.length
  }
  return { wav: writeWavPcm16Mono(samples, RATE), seconds: samples.length / RATE }
}

/**
 * The WAV as another container, encoded by the FFmpeg the decoder ships with (so a test needs
 * nothing the machine lacks): `video` puts a small H.264 picture beside AAC audio in an mp4.
 */
export async function transcodedSpeech(wav: Buffer, kind: 'video' | 'mp3'): Promise<Buffer> {
  const ffmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path
  const folder = makeTempDir()
  const input = join(folder, 'speech.wav')
  const output = join(folder, kind === 'video' ? 'speech.mp4' : 'speech.mp3')
  await writeFile(input, wav)
  const args =
    kind === 'video'
      ? [
          '-f',
          'lavfi',
          '-i',
          'color=c=navy:s=160x120:r=10',
          '-i',
          input,
          '-shortest',
          '-c:v',
          'libx264',
          '-pix_fmt',
          'yuv420p',
          '-c:a',
          'aac',
          '-b:a',
          '64k',
          output,
        ]
      : ['-i', input, '-c:a', 'libmp3lame', '-b:a', '48k', output]
  await promisify(execFile)(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...args])
  return readFile(output)
}
