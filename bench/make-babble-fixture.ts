/**
 * Writes test/fixtures/media/babble-8-talkers-60s.opus: 60 s of 8-talker babble (bench/vad-corpus.ts
 * says how it is made; seed 31) from the project's eSpeak voices, at an RMS of 0.05, as Opus 32 kbit/s.
 * eSpeak's output differs a little from run to run, so the test that bounds false starts on babble
 * reads this fixed file rather than new speech. Run once: `npx tsx bench/make-babble-fixture.ts`.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ffmpeg from '@ffmpeg-installer/ffmpeg'
import { int16FromFloat32 } from '../src/engines/audio/pcm-encoding'
import { writeWavPcm16Mono } from '../src/engines/audio/wav-file'
import { createEspeakTtsEngine } from '../src/engines/tts/tts-engine'
import { RATE, babble, babbleVoices, power } from './vad-corpus'

const SECONDS = 60
const RMS = 0.05

const tts = await createEspeakTtsEngine()
try {
  const noise = babble(await babbleVoices(tts), SECONDS * RATE, 31)
  const gain = RMS / Math.sqrt(power(noise))
  const folder = mkdtempSync(join(tmpdir(), 'babble-'))
  const wav = join(folder, 'babble.wav')
  writeFileSync(wav, writeWavPcm16Mono(int16FromFloat32(noise.map((sample) => sample * gain)), RATE))
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'media', 'babble-8-talkers-60s.opus')
  execFileSync(ffmpeg.path, ['-y', '-loglevel', 'error', '-i', wav, '-c:a', 'libopus', '-b:a', '32k', out])
  rmSync(folder, { recursive: true })
  console.log(`Wrote ${out}`)
} finally {
  await tts.close()
}
