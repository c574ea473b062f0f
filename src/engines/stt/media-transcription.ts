import { decodeToPcm16k, MediaDecodeError, probeMedia } from '../audio/media-decoder'
import type { VoiceClassifier } from '../audio/voice-classifier'
import { writeWavPcm16Mono } from '../audio/wav-file'
import { speechWindows, WINDOW_SAMPLE_RATE } from './speech-windows'
import type { SttEngine, TranscriptSegment } from './stt-engine'

export interface MediaTranscript {
  text: string
  /** The language asked for, else the first the server detected (ISO 639-1), else null. */
  language: string | null
  durationSeconds: number
  segments: TranscriptSegment[]
}

export interface MediaTranscriptionOptions {
  stt: SttEngine
  /** A fresh WebRTC VAD for this media's windows (disposed by the caller). */
  classifier: VoiceClassifier
  /** ISO 639-1, sent with every window; left out, the first window's detected language is sent with the rest. */
  language?: string
  signal?: AbortSignal
  /** A window's longest length (default 60 s). */
  windowSeconds?: number
  /** Refuses media longer than this, before any of it is sent (a MediaTooLongError). */
  maxSeconds?: number
  /** Called once the media's length is known (from its container; null when it does not say). */
  onDuration?: (seconds: number | null) => void
  /** Called after each window, with where it ended (seconds): progress. */
  onWindow?: (endSeconds: number) => Promise<void> | void
  /** Wraps each request to the speech server (to keep a long job alive while it waits). */
  aroundRequest?: <T>(request: () => Promise<T>) => Promise<T>
}

/** Media longer than a caller takes (the realtime route's limit). */
export class MediaTooLongError extends Error {
  override readonly name = 'MediaTooLongError'
  constructor(
    readonly seconds: number,
    readonly maxSeconds: number,
  ) {
    super(`The media is ${Math.round(seconds)} s long, more than the ${maxSeconds} s this takes`)
  }
}

/** Seconds with 3 decimals, as the contract writes times. */
const seconds3 = (value: number) => Math.round(value * 1000) / 1000

/**
 * Transcribes a media file: decoded (audio or video) to 16 kHz mono, cut into windows of at
 * most a minute at pauses, each window with a voice sent to the speech recognition server, and
 * the segments put back on the media's clock. Windows without a voice are not sent (a server
 * asked to transcribe silence tends to invent words). Holds one window of audio at a time.
 * Throws MediaDecodeError (unreadable, no audio), SttEngineError, MediaTooLongError, or the
 * signal's reason.
 */
export async function transcribeMediaFile(path: string, options: MediaTranscriptionOptions): Promise<MediaTranscript> {
  const { stt, classifier, signal } = options
  const probe = await probeMedia(path, { signal })
  if (!probe.hasAudio) throw new MediaDecodeError('MEDIA_HAS_NO_AUDIO', 'The media has no audio track')
  if (options.maxSeconds !== undefined && probe.durationSeconds !== null && probe.durationSeconds > options.maxSeconds) {
    throw new MediaTooLongError(probe.durationSeconds, options.maxSeconds)
  }
  options.onDuration?.(probe.durationSeconds)
  const around = options.aroundRequest ?? ((request) => request())
  const segments: TranscriptSegment[] = []
  // A language asked for is sent with every window; else the first one the server hears is, so
  // one recording is not written in two languages because a window was short or noisy.
  let language = options.language
  let totalSamples = 0
  for await (const window of speechWindows(decodeToPcm16k(path, { signal }), { classifier, maxSeconds: options.windowSeconds })) {
    const offset = window.startSample / WINDOW_SAMPLE_RATE
    const windowEnd = offset + window.samples.length / WINDOW_SAMPLE_RATE
    totalSamples = window.startSample + window.samples.length
    // A container that lied about its length: the limit holds for what is decoded too.
    if (options.maxSeconds !== undefined && windowEnd > options.maxSeconds + 1) throw new MediaTooLongError(windowEnd, options.maxSeconds)
    if (window.voiced) {
      const heard = await around(() => stt.transcribe(writeWavPcm16Mono(window.samples, WINDOW_SAMPLE_RATE), { language, signal }))
      language ??= heard.language
      const pieces = heard.segments?.length ? heard.segments : [{ start: 0, end: windowEnd - offset, text: heard.text }]
      for (const piece of pieces) {
        const text = piece.text.trim()
        if (!text) continue
        const start = Math.min(windowEnd, offset + Math.max(0, piece.start))
        segments.push({ start: seconds3(start), end: seconds3(Math.min(windowEnd, Math.max(start, offset + piece.end))), text })
      }
    }
    await options.onWindow?.(windowEnd)
  }
  return {
    text: segments.map((segment) => segment.text).join(' '),
    language: language ?? null,
    durationSeconds: seconds3(totalSamples / WINDOW_SAMPLE_RATE),
    segments,
  }
}
