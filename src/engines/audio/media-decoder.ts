import { spawn, type ChildProcessByStdio } from 'node:child_process'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import type { Readable } from 'node:stream'

/**
 * Media decoding for transcription: FFmpeg from the @ffmpeg-installer/ffmpeg package (a static
 * build shipped inside the npm tarball), run as a child process on a file path. A path, not a
 * pipe, because an MP4 whose moov atom is at the end can only be read by seeking.
 */

export type MediaDecodeErrorCode = 'MEDIA_UNREADABLE' | 'MEDIA_HAS_NO_AUDIO' | 'DECODER_UNAVAILABLE'

/** Why a media file could not be probed or decoded, in one plain sentence (never the decoder's whole log). */
export class MediaDecodeError extends Error {
  override readonly name = 'MediaDecodeError'

  constructor(
    readonly code: MediaDecodeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

export interface MediaProbe {
  /** Null when the container does not say (a raw stream without an index). */
  durationSeconds: number | null
  hasAudio: boolean
  /** A real picture track; an MP3's or M4A's cover art does not count. */
  hasVideo: boolean
  /** FFmpeg's demuxer name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `mp3`, `wav`. */
  container: string
}

export interface DecoderOptions {
  signal?: AbortSignal
  /** The FFmpeg executable; by default the one @ffmpeg-installer/ffmpeg ships for this platform. */
  decoderPath?: string
}

export interface DecodeOptions extends DecoderOptions {
  /** Called after each chunk with the seconds of audio decoded so far. */
  onProgress?: (decodedSeconds: number) => void
}

export const DECODED_SAMPLE_RATE = 16_000
const DECODED_BYTES_PER_SECOND = DECODED_SAMPLE_RATE * 2
const DECODER_PACKAGE = '@ffmpeg-installer/ffmpeg'

/**
 * The demuxers FFmpeg may pick. Without a list it would also follow playlists and concat
 * scripts (HLS, ffconcat), which read other local files or fetch URLs named inside the upload.
 */
const ALLOWED_DEMUXERS = [
  'mov',
  'mp4',
  'm4a',
  '3gp',
  'matroska',
  'webm',
  'ogg',
  'mp3',
  'flac',
  'wav',
  'w64',
  'aac',
  'aiff',
  'caf',
  'asf',
  'amr',
  'avi',
  'mpegts',
]
const INPUT_GUARDS = ['-nostdin', '-hide_banner', '-protocol_whitelist', 'file', '-format_whitelist', ALLOWED_DEMUXERS.join(',')]

/** The most of the decoder's log kept in memory: its last lines hold the reason of a failure. */
const STDERR_TAIL_BYTES = 16 * 1024
/** A probe's log lists every stream and tag; a file with megabytes of tags is cut here. */
const PROBE_LOG_BYTES = 1024 * 1024
const REASON_MAX_CHARS = 200

let packagedDecoderPath: string | undefined

function decoderPath(options: DecoderOptions): string {
  if (options.decoderPath !== undefined) return options.decoderPath
  if (packagedDecoderPath !== undefined) return packagedDecoderPath
  try {
    // Resolved at run time (the package is external to the bundle); it throws a string when its platform package is missing.
    const installer = createRequire(import.meta.url)(DECODER_PACKAGE) as { path: string }
    packagedDecoderPath = installer.path
    return packagedDecoderPath
  } catch (error) {
    throw unavailable(`${String(error instanceof Error ? error.message : error).slice(0, REASON_MAX_CHARS)}`, error)
  }
}

function unavailable(detail: string, cause?: unknown): MediaDecodeError {
  return new MediaDecodeError(
    'DECODER_UNAVAILABLE',
    `The media decoder (FFmpeg) cannot be started: ${detail}. Reinstall the ${DECODER_PACKAGE} package (npm ci).`,
    { cause },
  )
}

type DecoderProcess = ChildProcessByStdio<null, Readable, Readable>

interface Running {
  child: DecoderProcess
  /** Resolves when the process has exited and its pipes are closed (it is reaped then, so never a zombie). */
  closed: Promise<{ code: number | null; spawnError: NodeJS.ErrnoException | undefined }>
  log: () => string
}

function start(args: string[], options: DecoderOptions, logBytes: number): Running {
  const child = spawn(decoderPath(options), args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true })
  let log = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (text: string) => {
    log += text
    if (log.length > logBytes) log = log.slice(log.length - logBytes)
  })
  let spawnError: NodeJS.ErrnoException | undefined
  const closed = new Promise<{ code: number | null; spawnError: NodeJS.ErrnoException | undefined }>((resolveClosed) => {
    child.once('error', (error) => {
      spawnError = error
      // A process that never started emits no 'close' after a spawn error on some versions.
      if (child.pid === undefined) resolveClosed({ code: null, spawnError })
    })
    child.once('close', (code) => resolveClosed({ code, spawnError }))
  })
  return { child, closed, log: () => log }
}

function stop(running: Running): void {
  if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL')
}

/** The decoder's failure in one line: its last message, with the path it repeats taken out. */
function failureReason(log: string, inputArgument: string): string {
  const lines = log
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('To ignore this') && !/misdetection possible/.test(line))
  const last = lines.at(-1) ?? 'the decoder stopped without saying why'
  const previous = lines.at(-2)
  const strip = (line: string) => line.replace(`${inputArgument}: `, '').replace(/^\[[^\]]+ @ 0x[0-9a-f]+\] /, '')
  // FFmpeg often states the cause on one line (`moov atom not found`) and the generic error on the next.
  const reason = previous !== undefined && /^\[[^\]]+ @ 0x[0-9a-f]+\] /.test(previous) ? `${strip(previous)}; ${strip(last)}` : strip(last)
  return reason.length > REASON_MAX_CHARS ? `${reason.slice(0, REASON_MAX_CHARS - 1)}…` : reason
}

function errorFromExit(
  exit: { code: number | null; spawnError: NodeJS.ErrnoException | undefined },
  log: string,
  inputArgument: string,
): MediaDecodeError {
  const spawnCode = exit.spawnError?.code
  if (exit.spawnError !== undefined)
    return unavailable(
      spawnCode === 'ENOENT'
        ? 'its executable is missing'
        : spawnCode === 'EACCES'
          ? 'its executable may not be run'
          : exit.spawnError.message,
      exit.spawnError,
    )
  if (/matches no streams/.test(log)) return new MediaDecodeError('MEDIA_HAS_NO_AUDIO', 'The media has no audio track to transcribe.')
  return new MediaDecodeError('MEDIA_UNREADABLE', `The file is not media the decoder can read (${failureReason(log, inputArgument)}).`)
}

/** `file:` keeps FFmpeg from reading a path such as `concat:a|b` or `http://…` as a protocol. */
function inputArgument(path: string): string {
  return `file:${resolve(path)}`
}

function abortable(running: Running, signal: AbortSignal | undefined): () => void {
  if (signal === undefined) return () => undefined
  const onAbort = () => {
    stop(running)
    // Wakes a reader waiting on stdout at once, with the signal's reason.
    running.child.stdout.destroy(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)))
  }
  signal.addEventListener('abort', onAbort, { once: true })
  return () => signal.removeEventListener('abort', onAbort)
}

/**
 * A picture stored with the audio (an MP3's, FLAC's or M4A's cover): newer FFmpeg marks it
 * `(attached pic)`; this build does not, so also a still-image codec with no frame rate.
 */
function isCoverArt(streamLine: string): boolean {
  return (
    streamLine.includes('(attached pic)') || (/: Video: (mjpeg|png|bmp|gif|webp|tiff)\b/.test(streamLine) && !/ fps\b/.test(streamLine))
  )
}

/** What the container holds, read from its header (FFmpeg's input summary); nothing is decoded. */
export async function probeMedia(path: string, options: DecoderOptions = {}): Promise<MediaProbe> {
  options.signal?.throwIfAborted()
  const input = inputArgument(path)
  // With no output named, FFmpeg prints the input's summary and exits with 1: that summary is the answer.
  const running = start([...INPUT_GUARDS, '-i', input], options, PROBE_LOG_BYTES)
  const release = abortable(running, options.signal)
  running.child.stdout.resume()
  let exit: Awaited<Running['closed']>
  try {
    exit = await running.closed
  } finally {
    release()
  }
  if (options.signal?.aborted) throw options.signal.reason
  const log = running.log()
  const header = /^Input #0, (.+), from '/m.exec(log)
  if (exit.spawnError !== undefined || header === null) throw errorFromExit(exit, log, input)
  const streams = log.split('\n').filter((line) => /^\s*Stream #0:\d+/.test(line))
  const duration = /^\s*Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/m.exec(log)
  return {
    durationSeconds: duration === null ? null : Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]),
    hasAudio: streams.some((line) => /: Audio: /.test(line)),
    hasVideo: streams.some((line) => /: Video: /.test(line) && !isCoverArt(line)),
    container: header[1]!,
  }
}

/**
 * The first audio track decoded, down-mixed and resampled by FFmpeg to 16 kHz mono 16-bit
 * little-endian PCM, as it is decoded. Every chunk holds whole samples. Memory stays bounded
 * whatever the length: a consumer that stops pulling fills the pipe and FFmpeg waits.
 * Aborting the signal kills FFmpeg and rejects with the signal's reason; leaving the loop
 * early kills it too. Media that decodes with damaged stretches is decoded as far as it goes.
 */
export async function* decodeToPcm16k(path: string, options: DecodeOptions = {}): AsyncGenerator<Buffer, void, undefined> {
  options.signal?.throwIfAborted()
  const input = inputArgument(path)
  const args = [
    ...INPUT_GUARDS,
    '-loglevel',
    'error',
    '-i',
    input,
    '-map',
    '0:a:0',
    '-vn',
    '-sn',
    '-dn',
    '-ac',
    '1',
    '-ar',
    String(DECODED_SAMPLE_RATE),
    '-f',
    's16le',
    '-acodec',
    'pcm_s16le',
    'pipe:1',
  ]
  const running = start(args, options, STDERR_TAIL_BYTES)
  const release = abortable(running, options.signal)
  let decodedBytes = 0
  let oddByte: Buffer | undefined
  try {
    try {
      for await (const piece of running.child.stdout as AsyncIterable<Buffer>) {
        let chunk = oddByte === undefined ? piece : Buffer.concat([oddByte, piece])
        oddByte = undefined
        if (chunk.length % 2 === 1) {
          oddByte = chunk.subarray(chunk.length - 1)
          chunk = chunk.subarray(0, chunk.length - 1)
        }
        if (chunk.length === 0) continue
        decodedBytes += chunk.length
        yield chunk
        options.onProgress?.(decodedBytes / DECODED_BYTES_PER_SECOND)
      }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason
      throw error
    }
    const exit = await running.closed
    if (options.signal?.aborted) throw options.signal.reason
    if (exit.code !== 0 || exit.spawnError !== undefined) throw errorFromExit(exit, running.log(), input)
  } finally {
    release()
    stop(running)
    await running.closed
  }
}
