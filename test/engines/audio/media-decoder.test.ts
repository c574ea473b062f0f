// The media decoder: real FFmpeg (the @ffmpeg-installer/ffmpeg binary) on committed fixtures of
// known tones in every container transcription takes, each checked for its length and its pitch;
// eSpeak speech through a WAV file compared with the project's own resampler; the errors; abort
// and early exit leaving no process behind; back-pressure; bounded memory on a 10-minute file
// (the 2-hour figure is in bench/decode.ts).
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeToPcm16k, MediaDecodeError, probeMedia } from '../../../src/engines/audio/media-decoder'
import { float32FromInt16, int16FromPcm16 } from '../../../src/engines/audio/pcm-encoding'
import { createResampler } from '../../../src/engines/audio/speex-resampler'
import { parseWavPcm16Mono } from '../../../src/engines/audio/wav-file'
import { createEspeakTtsEngine } from '../../../src/engines/tts/tts-engine'

const FIXTURES = fileURLToPath(new URL('../../fixtures/media/', import.meta.url))
const fixture = (name: string) => join(FIXTURES, name)
const FFMPEG = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path
const ETHAN = 'd7c17d05-0c73-4196-8cd2-25f2687d90b0'

async function decodeAll(path: string): Promise<Int16Array> {
  const chunks: Buffer[] = []
  for await (const chunk of decodeToPcm16k(path)) chunks.push(chunk)
  return int16FromPcm16(Buffer.concat(chunks))
}

/** Frequency from sign changes (two per period), over the middle of the signal (away from codec ramps). */
function zeroCrossingFrequency(samples: Int16Array): number {
  const middle = samples.subarray(Math.floor(samples.length * 0.2), Math.floor(samples.length * 0.8))
  let crossings = 0
  for (let index = 1; index < middle.length; index += 1) if (middle[index - 1]! < 0 !== middle[index]! < 0) crossings += 1
  return crossings / 2 / (middle.length / 16_000)
}

/** The decoder children of this process (Linux /proc), with their state letter (Z: a zombie). */
function childProcesses(): { pid: number; state: string; command: string }[] {
  const pids = readdirSync(`/proc/${process.pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  )
  return pids.flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      return [{ pid, state: stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3), command }]
    } catch {
      return []
    }
  })
}

const decoderChildren = () => childProcesses().filter((child) => child.command === 'ffmpeg')

async function waitFor<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const value = read()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`timed out waiting for ${what}`)
}

function writtenBytes(pid: number): number {
  return Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1])
}

async function codeOf(promise: Promise<unknown>): Promise<MediaDecodeError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(MediaDecodeError)
  return error as MediaDecodeError
}

let workDir: string
/** Ten minutes of a 440 Hz tone as a low-bitrate MP3, made with the same FFmpeg. */
let tenMinutes: string

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'media-decoder-'))
  tenMinutes = join(workDir, 'ten-minutes.mp3')
  const encoder = spawn(
    FFMPEG,
    ['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'sine=f=440:sample_rate=16000:d=600', '-c:a', 'libmp3lame', '-b:a', '16k', tenMinutes],
    {
      stdio: 'inherit',
    },
  )
  expect(await new Promise((resolve) => encoder.once('close', resolve))).toBe(0)
}, 60_000)

afterAll(() => rmSync(workDir, { recursive: true, force: true }))

describe('decodeToPcm16k', () => {
  it.each([
    ['tone-440hz.mp3', 3, 440],
    ['tone-550hz.m4a', 3, 550],
    ['video-h264-aac-660hz.mp4', 3, 660],
    ['video-moov-at-end-770hz.mp4', 3, 770],
    ['tone-880hz.webm', 3, 880],
    ['tone-990hz.ogg', 3, 990],
    ['tone-330hz.flac', 2, 330],
    ['tone-1100hz-44k-stereo.wav', 1, 1100],
  ])('%s: %d s of 16 kHz mono, the tone at its pitch', async (name, seconds, frequency) => {
    const samples = await decodeAll(fixture(name))
    // Codec priming and padding may add or trim a frame: 30 ms either way.
    expect(Math.abs(samples.length - seconds * 16_000)).toBeLessThan(0.03 * 16_000)
    expect(zeroCrossingFrequency(samples)).toBeGreaterThan(frequency * 0.98)
    expect(zeroCrossingFrequency(samples)).toBeLessThan(frequency * 1.02)
  })

  it('speech written as a 22050 Hz WAV decodes to what the Speex resampler makes of it', async () => {
    const tts = await createEspeakTtsEngine()
    try {
      const { wav } = await tts.synthesize('The quarterly report is ready for review.', ETHAN)
      const path = join(workDir, 'speech.wav')
      writeFileSync(path, wav)
      const decoded = await decodeAll(path)
      const speech = parseWavPcm16Mono(wav)
      const resampler = await createResampler(speech.sampleRate, 16_000)
      const expected = float32FromInt16(resampler.resample(speech.samples))
      resampler.dispose()
      expect(Math.abs(decoded.length - expected.length)).toBeLessThan(160)
      // Two resamplers differ by a few samples of delay: the best correlation over a small lag.
      let best = 0
      for (let lag = -40; lag <= 40; lag += 1) {
        let dot = 0
        let decodedPower = 0
        let expectedPower = 0
        for (let index = Math.max(0, -lag); index < Math.min(decoded.length, expected.length - lag); index += 1) {
          const a = decoded[index]! / 32_768
          const b = expected[index + lag]!
          dot += a * b
          decodedPower += a * a
          expectedPower += b * b
        }
        best = Math.max(best, dot / Math.sqrt(decodedPower * expectedPower))
      }
      expect(best).toBeGreaterThan(0.95)
    } finally {
      await tts.close()
    }
  })

  it('chunks hold whole samples and progress counts the seconds decoded', async () => {
    const progress: number[] = []
    let bytes = 0
    for await (const chunk of decodeToPcm16k(fixture('tone-550hz.m4a'), { onProgress: (seconds) => progress.push(seconds) })) {
      expect(chunk.length % 2).toBe(0)
      bytes += chunk.length
    }
    expect(progress.length).toBeGreaterThan(0)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(progress.at(-1)).toBe(bytes / 32_000)
  })

  it('a video without audio: MEDIA_HAS_NO_AUDIO', async () => {
    const error = await codeOf(decodeAll(fixture('video-no-audio.mp4')))
    expect(error.code).toBe('MEDIA_HAS_NO_AUDIO')
    expect(error.message).toBe('The media has no audio track to transcribe.')
  })

  it.each([
    ['corrupt.m4a', /moov atom not found/],
    ['text-renamed.mp3', /Invalid argument/],
  ])('%s: MEDIA_UNREADABLE with the decoder’s reason on one short line', async (name, reason) => {
    const error = await codeOf(decodeAll(fixture(name)))
    expect(error.code).toBe('MEDIA_UNREADABLE')
    expect(error.message).toMatch(/^The file is not media the decoder can read \(/)
    expect(error.message).toMatch(reason)
    expect(error.message).not.toContain('\n')
    expect(error.message.length).toBeLessThan(300)
    expect(error.message).not.toContain(FIXTURES)
  })

  it('a playlist naming another file is refused, not followed', async () => {
    const playlist = join(workDir, 'list.m3u8')
    writeFileSync(playlist, `#EXTM3U\n#EXTINF:3,\n${fixture('tone-440hz.mp3')}\n`)
    expect((await codeOf(decodeAll(playlist))).code).toBe('MEDIA_UNREADABLE')
    const concat = join(workDir, 'list.ffconcat')
    writeFileSync(concat, `ffconcat version 1.0\nfile '${fixture('tone-440hz.mp3')}'\n`)
    const error = await codeOf(decodeAll(concat))
    expect(error.code).toBe('MEDIA_UNREADABLE')
    expect(error.message).toContain('not on whitelist')
  })

  it('a missing or unrunnable decoder: DECODER_UNAVAILABLE naming the package to reinstall', async () => {
    for (const decoderPath of [join(workDir, 'no-such-ffmpeg'), fixture('text-renamed.mp3')]) {
      const error = await codeOf(
        (async () => {
          for await (const chunk of decodeToPcm16k(fixture('tone-440hz.mp3'), { decoderPath })) void chunk
        })(),
      )
      expect(error.code).toBe('DECODER_UNAVAILABLE')
      expect(error.message).toContain('@ffmpeg-installer/ffmpeg')
      expect((await codeOf(probeMedia(fixture('tone-440hz.mp3'), { decoderPath }))).code).toBe('DECODER_UNAVAILABLE')
    }
  })

  it('abort kills FFmpeg at once and rejects with the signal’s reason; no zombie is left', async () => {
    const controller = new AbortController()
    const reason = new Error('job cancelled')
    const chunks = decodeToPcm16k(tenMinutes, { signal: controller.signal })[Symbol.asyncIterator]()
    await chunks.next()
    const [child] = decoderChildren()
    expect(child).toBeDefined()
    // Waiting for the next chunk while the abort comes: the wait ends with the reason.
    const pending = chunks.next()
    controller.abort(reason)
    await expect(pending).rejects.toBe(reason)
    await waitFor(() => (decoderChildren().length === 0 ? true : undefined), 'the decoder to be reaped')
    expect(() => readFileSync(`/proc/${child!.pid}/stat`)).toThrow()
    await expect(chunks.next()).resolves.toEqual({ done: true, value: undefined })
  })

  it('abort while the consumer is busy with a chunk ends FFmpeg without waiting for the next pull', async () => {
    const controller = new AbortController()
    const chunks = decodeToPcm16k(tenMinutes, { signal: controller.signal })[Symbol.asyncIterator]()
    await chunks.next()
    expect(decoderChildren()).toHaveLength(1)
    controller.abort(new Error('job cancelled'))
    await waitFor(() => (decoderChildren().length === 0 ? true : undefined), 'the decoder to be reaped')
    await expect(chunks.next()).rejects.toThrow('job cancelled')
  })

  it('an already aborted signal starts nothing', async () => {
    const controller = new AbortController()
    controller.abort(new Error('too late'))
    await expect(decodeToPcm16k(tenMinutes, { signal: controller.signal }).next()).rejects.toThrow('too late')
    await expect(probeMedia(tenMinutes, { signal: controller.signal })).rejects.toThrow('too late')
    expect(decoderChildren()).toEqual([])
  })

  it('leaving the loop early stops FFmpeg and reaps it', async () => {
    for await (const chunk of decodeToPcm16k(tenMinutes)) {
      expect(chunk.length).toBeGreaterThan(0)
      break
    }
    expect(decoderChildren()).toEqual([])
  })

  it('back-pressure: a consumer that stops pulling makes FFmpeg wait', async () => {
    const chunks = decodeToPcm16k(tenMinutes)[Symbol.asyncIterator]()
    await chunks.next()
    const child = await waitFor(() => decoderChildren()[0], 'the decoder')
    // The pipe fills within moments; then FFmpeg writes nothing more until the consumer reads.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const before = writtenBytes(child.pid)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(writtenBytes(child.pid)).toBe(before)
    expect(before).toBeLessThan(600 * 32_000 * 0.1)
    await chunks.next()
    await chunks.return(undefined)
    expect(decoderChildren()).toEqual([])
  })

  it('ten minutes decode whole, in bounded memory (this process and FFmpeg)', async () => {
    const startRss = process.memoryUsage().rss
    let peakRss = startRss
    let decoderPeakKb = 0
    let bytes = 0
    for await (const chunk of decodeToPcm16k(tenMinutes)) {
      bytes += chunk.length
      peakRss = Math.max(peakRss, process.memoryUsage().rss)
      const child = decoderChildren()[0]
      if (child !== undefined) {
        try {
          decoderPeakKb = Math.max(
            decoderPeakKb,
            Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]),
          )
        } catch {
          // it exited between the listing and the read
        }
      }
    }
    expect(Math.abs(bytes / 32_000 - 600)).toBeLessThan(0.1)
    // 19 MB of PCM went through; holding it would show here.
    expect(peakRss - startRss).toBeLessThan(15 * 1024 * 1024)
    expect(decoderPeakKb).toBeGreaterThan(0)
    expect(decoderPeakKb).toBeLessThan(64 * 1024)
  }, 60_000)
})

describe('probeMedia', () => {
  it.each([
    ['tone-440hz.mp3', 3.03, false, 'mp3'],
    ['tone-550hz.m4a', 3.02, false, 'mov,mp4,m4a,3gp,3g2,mj2'],
    ['video-h264-aac-660hz.mp4', 3.02, true, 'mov,mp4,m4a,3gp,3g2,mj2'],
    ['video-moov-at-end-770hz.mp4', 3.02, true, 'mov,mp4,m4a,3gp,3g2,mj2'],
    ['tone-880hz.webm', 3.01, false, 'matroska,webm'],
    ['tone-990hz.ogg', 3, false, 'ogg'],
    ['tone-330hz.flac', 2, false, 'flac'],
    ['tone-1100hz-44k-stereo.wav', 1, false, 'wav'],
  ])('%s: %d s, audio, video %s, container %s', async (name, durationSeconds, hasVideo, container) => {
    expect(await probeMedia(fixture(name))).toEqual({ durationSeconds, hasAudio: true, hasVideo, container })
  })

  it('a video without audio says so', async () => {
    expect(await probeMedia(fixture('video-no-audio.mp4'))).toEqual({
      durationSeconds: 2,
      hasAudio: false,
      hasVideo: true,
      container: 'mov,mp4,m4a,3gp,3g2,mj2',
    })
  })

  it('an MP3’s cover art is not a video', async () => {
    const withCover = join(workDir, 'with-cover.mp3')
    const encoder = spawn(FFMPEG, [
      '-nostdin',
      '-v',
      'error',
      '-i',
      fixture('tone-440hz.mp3'),
      '-f',
      'lavfi',
      '-i',
      'color=c=red:s=16x16:d=1',
      '-frames:v',
      '1',
      '-map',
      '0:a',
      '-map',
      '1:v',
      '-c:a',
      'copy',
      '-c:v',
      'mjpeg',
      '-id3v2_version',
      '3',
      withCover,
    ])
    expect(await new Promise((resolve) => encoder.once('close', resolve))).toBe(0)
    expect(await probeMedia(withCover)).toMatchObject({ hasAudio: true, hasVideo: false, container: 'mp3' })
  })

  it.each(['corrupt.m4a', 'text-renamed.mp3'])('%s: MEDIA_UNREADABLE', async (name) => {
    const error = await codeOf(probeMedia(fixture(name)))
    expect(error.code).toBe('MEDIA_UNREADABLE')
    expect(error.message).not.toContain('\n')
  })

  it('a missing file: MEDIA_UNREADABLE that says so', async () => {
    const error = await codeOf(probeMedia(join(workDir, 'gone.mp4')))
    expect(error.code).toBe('MEDIA_UNREADABLE')
    expect(error.message).toContain('No such file or directory')
  })
})
