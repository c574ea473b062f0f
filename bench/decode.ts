/**
 * Media decoding for transcription (src/engines/audio/media-decoder.ts): decode + resample to
 * 16 kHz mono PCM, in audio seconds per wall second (target ≥ 200), for a 10-minute AAC file
 * (44.1 kHz stereo), a 10-minute H.264 + AAC MP4 with its moov atom at the end, and a 2-hour
 * AAC file; and memory while the 2-hour file decodes: this process's RSS growth and FFmpeg's
 * peak RSS, sampled every 100 ms (streamed, so both stay flat whatever the length).
 * The media is made first, in a temporary folder, with the same FFmpeg (not timed).
 * `npx tsx bench/run.ts decode` merges it into bench/results/latest.json; `npx tsx bench/decode.ts` prints JSON.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { decodeToPcm16k } from '../src/engines/audio/media-decoder'

const FFMPEG = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string; version: string }
const MB = 1024 * 1024

interface DecodeRun {
  audioSeconds: number
  fileMB: number
  wallSeconds: number
  audioSecondsPerWallSecond: number
  /** Growth of this process's RSS over its value before the decode, at its highest. */
  processRssGrowthMB: number
  /** FFmpeg's own peak RSS (VmHWM). */
  decoderPeakRssMB: number
}

export interface DecodeBenchResult {
  decoder: string
  tenMinutesAac: DecodeRun
  tenMinutesVideoMoovAtEnd: DecodeRun
  twoHoursAac: DecodeRun
  target: string
}

async function encode(args: string[]): Promise<void> {
  const child = spawn(FFMPEG.path, ['-nostdin', '-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'inherit'] })
  const code = await new Promise((resolve) => child.once('close', resolve))
  if (code !== 0) throw new Error(`ffmpeg ${args.join(' ')} exited with ${String(code)}`)
}

/** The highest peak RSS (VmHWM, kB) of this process's children now running: FFmpeg while it decodes. */
export function decoderPeakKb(): number {
  let peak = 0
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    for (const pid of readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
      try {
        peak = Math.max(peak, Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0))
      } catch {
        // exited between the listing and the read
      }
    }
  }
  return peak
}

async function measure(path: string): Promise<DecodeRun> {
  globalThis.gc?.()
  const startRss = process.memoryUsage().rss
  let peakRss = startRss
  let decoderPeak = 0
  const sample = () => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss)
    decoderPeak = Math.max(decoderPeak, decoderPeakKb())
  }
  const sampler = setInterval(sample, 100)
  const started = performance.now()
  let bytes = 0
  try {
    for await (const chunk of decodeToPcm16k(path)) bytes += chunk.length
  } finally {
    clearInterval(sampler)
  }
  const wallSeconds = (performance.now() - started) / 1000
  sample()
  const audioSeconds = bytes / 32_000
  const round = (value: number) => Math.round(value * 10) / 10
  return {
    audioSeconds: round(audioSeconds),
    fileMB: round(statSync(path).size / MB),
    wallSeconds: Math.round(wallSeconds * 100) / 100,
    audioSecondsPerWallSecond: Math.round(audioSeconds / wallSeconds),
    processRssGrowthMB: round((peakRss - startRss) / MB),
    decoderPeakRssMB: round(decoderPeak / 1024),
  }
}

export async function benchDecode(): Promise<DecodeBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-decode-'))
  try {
    const tenMinutes = join(dir, 'ten-minutes.m4a')
    const tenMinutesVideo = join(dir, 'ten-minutes-video.mp4')
    const twoHours = join(dir, 'two-hours.m4a')
    console.error('making the media (10 min AAC, 10 min H.264 + AAC, 2 h AAC)…')
    await encode(['-f', 'lavfi', '-i', 'sine=f=440:sample_rate=44100:d=600', '-ac', '2', '-c:a', 'aac', '-b:a', '96k', tenMinutes])
    // No +faststart: FFmpeg writes the moov atom after the media data, the case that needs seeking.
    await encode([
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=10:d=600',
      '-f',
      'lavfi',
      '-i',
      'sine=f=550:sample_rate=48000:d=600',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-shortest',
      tenMinutesVideo,
    ])
    await encode(['-f', 'lavfi', '-i', 'sine=f=440:sample_rate=44100:d=7200', '-ac', '1', '-c:a', 'aac', '-b:a', '32k', twoHours])
    return {
      decoder: `FFmpeg ${FFMPEG.version} (@ffmpeg-installer/ffmpeg)`,
      tenMinutesAac: await measure(tenMinutes),
      tenMinutesVideoMoovAtEnd: await measure(tenMinutesVideo),
      twoHoursAac: await measure(twoHours),
      target: 'audioSecondsPerWallSecond >= 200; memory flat (2 h no higher than 10 min, bar the file index)',
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(JSON.stringify(await benchDecode(), null, 2))
