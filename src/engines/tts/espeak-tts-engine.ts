import { endianness } from 'node:os'
import { EspeakWorkerThread, type SpeechTask } from './espeak-worker-thread'
import { speakableText } from './speakable-text'
import { escapeForEspeak, normaliseSpeechText } from './speech-text'
import type { SpeechResult, TtsEngine } from './tts-engine-contract'
import { TtsEngineError } from './tts-engine-error'
import { speechLanguageOf, voiceProfileFor } from './voice-profiles'
import { encodeWavPcm16Mono } from './wav-encoding'

/**
 * eSpeak NG in worker threads: a FIFO queue of tasks served by `workers` warm threads,
 * one task per thread at a time. See createEspeakTtsEngine for the contract.
 */
export class EspeakTtsEngine implements TtsEngine {
  private readonly threads: EspeakWorkerThread[]
  private readonly queue: SpeechTask[] = []
  private nextId = 1
  private closing: Promise<void> | undefined

  constructor(options: { espeakModulePath: string; workers: number }) {
    const events = {
      idle: () => this.dispatch(),
      // Every thread would fail the same way (the package or its data file is missing),
      // so the waiting calls fail now rather than each retrying the start.
      startFailed: (error: TtsEngineError) => {
        for (const task of this.queue.splice(0)) task.fail(error)
      },
    }
    this.threads = Array.from({ length: options.workers }, () => new EspeakWorkerThread(options.espeakModulePath, events))
  }

  /** Starts every worker thread and resolves once all are warm. */
  async start(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.start()))
  }

  async synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<SpeechResult> {
    const { pcm, sampleRate } = await this.speak(text, voiceId, signal)
    return speechResult(pcm, sampleRate)
  }

  async synthesizeStream(text: string, voiceId: string, onChunk: (pcm: Buffer, sampleRate: number) => void, signal?: AbortSignal): Promise<Omit<SpeechResult, 'wav'>> {
    let samples = 0
    const { sampleRate } = await this.speak(text, voiceId, signal, (pcm, rate) => {
      const bytes = littleEndian(pcm)
      samples += bytes.byteLength / 2
      onChunk(bytes, rate)
    })
    return { sampleRate, durationSeconds: samples / sampleRate }
  }

  async phonemes(text: string, voiceId: string, signal?: AbortSignal): Promise<string> {
    const { ipa } = await this.speak(text, voiceId, signal, undefined, true)
    return (ipa ?? '').trim()
  }

  /** Queues one synthesis; `onChunk` makes it a streaming one, `phonemes` one that answers with phonemes only. */
  private async speak(
    text: string,
    voiceId: string,
    signal: AbortSignal | undefined,
    onChunk?: (pcm: ArrayBuffer, sampleRate: number) => void,
    phonemes = false,
  ): Promise<{ pcm: ArrayBuffer; sampleRate: number; ipa?: string | undefined }> {
    if (this.closing) throw new TtsEngineError('ENGINE_CLOSED', 'The TTS engine is closed')
    const profile = voiceProfileFor(voiceId)
    if (!profile) throw new TtsEngineError('UNKNOWN_VOICE', `Unknown voice id "${voiceId}": it is not one of the 14 catalogue voices`)
    if (signal?.aborted) throw abortedError(signal)
    const normalised = normaliseSpeechText(text)
    if (!normalised) throw new TtsEngineError('EMPTY_TEXT', 'There is no text to speak')
    // Digits, times, amounts… as words, and Arabic with its vowels, in the voice's own language.
    const spoken = speakableText(normalised, speechLanguageOf(profile))

    return new Promise<{ pcm: ArrayBuffer; sampleRate: number; ipa?: string | undefined }>((resolve, reject) => {
      const id = this.nextId++
      let settled = false
      const onAbort = () => {
        task.fail(abortedError(signal))
        const queued = this.queue.indexOf(task)
        if (queued >= 0) this.queue.splice(queued, 1)
        // Rejected already; the thread running it (if any) stops it and frees itself.
        for (const thread of this.threads) thread.cancel(id)
      }
      const settle = () => {
        settled = true
        signal?.removeEventListener('abort', onAbort)
      }
      const task: SpeechTask = {
        request: { type: 'synthesize', id, text: escapeForEspeak(spoken), ...profile, stream: onChunk !== undefined, ...(phonemes ? { phonemes } : {}) },
        get settled() {
          return settled
        },
        succeed: (pcm, sampleRate, ipa) => {
          if (settled) return
          settle()
          resolve({ pcm, sampleRate, ipa })
        },
        ...(onChunk ? { chunk: onChunk } : {}),
        fail: (error) => {
          if (settled) return
          settle()
          reject(error)
        },
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.queue.push(task)
      this.dispatch()
    })
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const error = new TtsEngineError('ENGINE_CLOSED', 'The TTS engine was closed before this synthesis finished')
      for (const task of this.queue.splice(0)) task.fail(error)
      await Promise.all(this.threads.map((thread) => thread.stop(error)))
    })()
    return this.closing
  }

  /** Gives queued tasks to idle threads, starting (or restarting) their workers as needed. */
  private dispatch(): void {
    if (this.closing) return
    for (const thread of this.threads) {
      if (thread.busy) continue
      const task = this.queue.shift()
      if (!task) return
      void thread.run(task)
    }
  }
}

// Undefined only in a listener's closure, which TypeScript cannot see is on the signal it was added to.
function abortedError(signal: AbortSignal | undefined): TtsEngineError {
  return new TtsEngineError('ABORTED', 'Speech synthesis was aborted', { cause: signal?.reason })
}

/** The worker sends samples in the platform's byte order; WAV and streamed PCM are little-endian. */
function littleEndian(pcm: ArrayBuffer): Buffer {
  const bytes = Buffer.from(pcm)
  if (endianness() === 'BE') bytes.swap16()
  return bytes
}

function speechResult(pcm: ArrayBuffer, sampleRate: number): SpeechResult {
  const bytes = littleEndian(pcm)
  const samples = bytes.byteLength / 2
  return { wav: encodeWavPcm16Mono(bytes, sampleRate), sampleRate, durationSeconds: samples / sampleRate }
}
