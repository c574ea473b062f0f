import { endianness } from 'node:os'
import { EspeakWorkerThread, type SpeechTask } from './espeak-worker-thread'
import { applyPronunciations } from './pronunciations'
import { speakableText } from './speakable-text'
import { SpeechQueue } from './speech-queue'
import { speechSegments } from './speech-segments'
import { escapeForEspeak, normaliseSpeechText } from './speech-text'
import type { PcmSpeech, SpeechOptions, SpeechResult, TtsEngine } from './tts-engine-contract'
import { TtsEngineError } from './tts-engine-error'
import { speechLanguageOf, voiceProfileFor } from './voice-profiles'
import { encodeWavPcm16Mono } from './wav-encoding'

export interface EspeakPoolOptions {
  espeakModulePath: string
  /** The most worker threads; the first starts with the engine, the others when work waits for them. */
  workers: number
  /**
   * `priority`: live before batch, live flows in turn, long texts segment by segment.
   * `fifo`: one queue in arrival order, every text whole: how the engine worked before the pool
   * (kept for benchmarks to compare against).
   */
  scheduling: 'priority' | 'fifo'
  /** A worker idle this long is ended (one always stays warm). */
  idleReleaseMs: number
}

interface Spoken {
  pcm: Int16Array
  sampleRate: number
  ipa?: string | undefined
}

/**
 * eSpeak NG in a pool of worker threads: a SpeechQueue of tasks served by up to `workers`
 * warm threads, one task per thread at a time. See createEspeakTtsEngine for the contract.
 */
export class EspeakTtsEngine implements TtsEngine {
  private readonly threads: EspeakWorkerThread[]
  private readonly queue = new SpeechQueue<SpeechTask>()
  private readonly releaseTimers = new Map<EspeakWorkerThread, NodeJS.Timeout>()
  private nextId = 1
  private closing: Promise<void> | undefined

  constructor(private readonly options: EspeakPoolOptions) {
    const events = { idle: () => this.dispatch() }
    this.threads = Array.from({ length: options.workers }, () => new EspeakWorkerThread(options.espeakModulePath, events))
  }

  /** Starts the first worker thread and resolves once it is warm (the others start when work waits for them). */
  async start(): Promise<void> {
    await this.threads[0]?.start()
  }

  async synthesize(text: string, voiceId: string, options?: AbortSignal | SpeechOptions): Promise<SpeechResult> {
    const { pcm, sampleRate } = await this.speak(text, voiceId, speechOptions(options))
    const bytes = littleEndian(pcm)
    return { wav: encodeWavPcm16Mono(bytes, sampleRate), sampleRate, durationSeconds: pcm.length / sampleRate }
  }

  async synthesizePcm(text: string, voiceId: string, options?: AbortSignal | SpeechOptions): Promise<PcmSpeech> {
    const { pcm, sampleRate } = await this.speak(text, voiceId, speechOptions(options))
    return { samples: pcm, sampleRate, durationSeconds: pcm.length / sampleRate }
  }

  async synthesizeStream(
    text: string,
    voiceId: string,
    onChunk: (pcm: Buffer, sampleRate: number) => void,
    options?: AbortSignal | SpeechOptions,
  ): Promise<Omit<SpeechResult, 'wav'>> {
    let samples = 0
    const { sampleRate } = await this.speak(text, voiceId, speechOptions(options), (pcm, rate) => {
      const bytes = littleEndian(new Int16Array(pcm))
      samples += bytes.byteLength / 2
      onChunk(bytes, rate)
    })
    return { sampleRate, durationSeconds: samples / sampleRate }
  }

  async phonemes(text: string, voiceId: string, options?: AbortSignal | SpeechOptions): Promise<string> {
    const { ipa } = await this.speak(text, voiceId, speechOptions(options), undefined, true)
    return (ipa ?? '').trim()
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const timer of this.releaseTimers.values()) clearTimeout(timer)
      const error = new TtsEngineError('ENGINE_CLOSED', 'The TTS engine was closed before this synthesis finished')
      for (const task of this.queue.drain()) task.fail(error)
      await Promise.all(this.threads.map((thread) => thread.stop(error)))
    })()
    return this.closing
  }

  /**
   * Queues one synthesis, segment after segment (each queued anew when the one before it is
   * spoken, so other work takes turns in between); `onChunk` makes it a streaming one,
   * `phonemes` one that answers with phonemes only.
   */
  private async speak(
    text: string,
    voiceId: string,
    { signal, priority = 'live', flow, pronunciations }: SpeechOptions,
    onChunk?: (pcm: ArrayBuffer, sampleRate: number) => void,
    phonemes = false,
  ): Promise<Spoken> {
    if (this.closing) throw new TtsEngineError('ENGINE_CLOSED', 'The TTS engine is closed')
    const profile = voiceProfileFor(voiceId)
    if (!profile) throw new TtsEngineError('UNKNOWN_VOICE', `Unknown voice id "${voiceId}": it is not one of the 14 catalogue voices`)
    if (signal?.aborted) throw abortedError(signal)
    // A voice dictionary's words first, once, so the words its entries give are read like any other text.
    const normalised = applyPronunciations(normaliseSpeechText(text), pronunciations)
    if (!normalised) throw new TtsEngineError('EMPTY_TEXT', 'There is no text to speak')
    // Digits, times, amounts… as words, and Arabic with its vowels, in the voice's own language.
    const language = speechLanguageOf(profile)
    const spoken = speakableText(normalised, language)
    const fifo = this.options.scheduling === 'fifo'
    const segments = phonemes || fifo ? [spoken] : speechSegments(spoken, language)
    const queuedAs = fifo ? 'batch' : priority
    // Live syntheses sharing a signal are one call's sentences: served in order, in turn with other calls.
    const flowKey = flow ?? signal ?? Symbol('flow')

    return new Promise<Spoken>((resolve, reject) => {
      const pieces: Int16Array[] = []
      let settled = false
      let current: SpeechTask | undefined
      const settle = () => {
        settled = true
        signal?.removeEventListener('abort', onAbort)
      }
      const fail = (error: TtsEngineError) => {
        if (settled) return
        settle()
        reject(error)
      }
      const onAbort = () => {
        fail(abortedError(signal))
        if (!current) return
        // Rejected already: its place in the queue is freed, and the thread running it (if any) stops it and frees itself.
        this.queue.remove(current)
        for (const thread of this.threads) thread.cancel(current.request.id)
      }
      const queueSegment = (index: number) => {
        const task: SpeechTask = {
          request: {
            type: 'synthesize',
            id: this.nextId++,
            text: escapeForEspeak(segments[index] ?? ''),
            ...profile,
            stream: onChunk !== undefined,
            ...(phonemes ? { phonemes } : {}),
          },
          get settled() {
            return settled
          },
          succeed: (pcm, sampleRate, ipa) => {
            if (settled) return
            pieces.push(new Int16Array(pcm))
            if (index + 1 < segments.length) return queueSegment(index + 1)
            settle()
            resolve({ pcm: joined(pieces), sampleRate, ipa })
          },
          ...(onChunk ? { chunk: onChunk } : {}),
          fail,
        }
        current = task
        this.queue.push(task, queuedAs, flowKey)
        this.dispatch()
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      queueSegment(0)
    })
  }

  /** Gives queued tasks to ready idle threads, and starts (or restarts) threads for work still waiting. */
  private dispatch(): void {
    if (this.closing) return
    for (const thread of this.threads) {
      if (this.queue.size === 0) break
      if (!thread.ready || thread.busy) continue
      let task = this.queue.shift()
      // An aborted task leaves the queue when its signal fires; one settled some other way is not worth a worker.
      while (task?.settled) task = this.queue.shift()
      if (task) thread.run(task)
    }
    // Threads loading already will take some of what waits; each further task gets a thread of its own.
    let unserved = this.queue.size - this.threads.filter((thread) => thread.started && !thread.ready).length
    for (const thread of this.threads) {
      if (unserved <= 0) break
      if (thread.started) continue
      unserved -= 1
      thread.start().then(
        () => this.dispatch(),
        (error: unknown) => this.startFailed(error as TtsEngineError),
      )
    }
    this.scheduleReleases()
  }

  /**
   * A thread could not load eSpeak. With another thread up, the work waits for that one; with
   * none, every thread would fail the same way (the package or its data file is missing), so
   * the waiting calls fail now rather than each retrying the start.
   */
  private startFailed(error: TtsEngineError): void {
    if (this.closing || this.threads.some((thread) => thread.started)) return
    for (const task of this.queue.drain()) task.fail(error)
  }

  /** Idle ready threads get a timer that ends them, busy ones lose theirs. */
  private scheduleReleases(): void {
    for (const thread of this.threads) {
      const timer = this.releaseTimers.get(thread)
      if (thread.ready && !thread.busy) {
        if (timer) continue
        const release = setTimeout(() => {
          this.releaseTimers.delete(thread)
          // One thread stays warm: a call's first sentence should not wait for eSpeak to load.
          if (this.threads.some((other) => other !== thread && other.ready)) thread.release()
        }, this.options.idleReleaseMs)
        release.unref()
        this.releaseTimers.set(thread, release)
      } else if (timer) {
        clearTimeout(timer)
        this.releaseTimers.delete(thread)
      }
    }
  }
}

/** The options a method was given: a bare AbortSignal (the older signature) or SpeechOptions. */
function speechOptions(options: AbortSignal | SpeechOptions | undefined): SpeechOptions {
  return options instanceof AbortSignal ? { signal: options } : (options ?? {})
}

// Undefined only in a listener's closure, which TypeScript cannot see is on the signal it was added to.
function abortedError(signal: AbortSignal | undefined): TtsEngineError {
  return new TtsEngineError('ABORTED', 'Speech synthesis was aborted', { cause: signal?.reason })
}

function joined(pieces: Int16Array[]): Int16Array {
  if (pieces.length === 1 && pieces[0]) return pieces[0]
  const samples = new Int16Array(pieces.reduce((total, piece) => total + piece.length, 0))
  let offset = 0
  for (const piece of pieces) {
    samples.set(piece, offset)
    offset += piece.length
  }
  return samples
}

/** The worker sends samples in the platform's byte order; WAV and streamed PCM are little-endian. */
function littleEndian(samples: Int16Array): Buffer {
  const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)
  if (endianness() === 'BE') return Buffer.from(bytes).swap16()
  return bytes
}
