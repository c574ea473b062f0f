import { LRUCache } from 'lru-cache'
import { TtsEngineError } from './tts-engine-error'

export interface SharedSpeechOptions {
  /** The most audio kept, in samples (each kept sentence counts its length). */
  maxSamples: number
}

interface InFlight {
  audio: Promise<Int16Array>
  waiters: number
  stop: AbortController
}

/**
 * Sentences the agents say, made once and shared: calls of one agent open with the same greeting
 * and often say the same lines, so twenty calls starting together need one synthesis, not twenty.
 * Concurrent requests for one sentence share its synthesis (which stops only when every caller
 * waiting for it has left), and made sentences are kept, least recently used first out, up to a
 * size. The audio handed out is shared: callers read it and never write into it.
 */
export class SharedSpeech {
  private readonly made: LRUCache<string, Int16Array>
  private readonly inFlight = new Map<string, InFlight>()

  constructor(options: SharedSpeechOptions) {
    this.made = new LRUCache<string, Int16Array>({ maxSize: options.maxSamples, sizeCalculation: (audio) => Math.max(1, audio.length) })
  }

  /** The audio of `text` in `voiceId`, made by `make` unless kept or being made already. */
  async speak(
    text: string,
    voiceId: string,
    signal: AbortSignal | undefined,
    make: (stop: AbortSignal) => Promise<Int16Array>,
  ): Promise<Int16Array> {
    if (signal?.aborted) throw abortedError(signal)
    const key = `${voiceId}\u0000${text}`
    const kept = this.made.get(key)
    if (kept) return kept
    let flight = this.inFlight.get(key)
    if (!flight) {
      const stop = new AbortController()
      const audio = make(stop.signal)
      flight = { audio, waiters: 0, stop }
      const started = flight
      this.inFlight.set(key, started)
      audio.then(
        (made) => {
          if (this.inFlight.get(key) === started) this.inFlight.delete(key)
          if (made.length > 0) this.made.set(key, made)
        },
        () => {
          if (this.inFlight.get(key) === started) this.inFlight.delete(key)
        },
      )
    }
    return this.wait(key, flight, signal)
  }

  private wait(key: string, flight: InFlight, signal: AbortSignal | undefined): Promise<Int16Array> {
    flight.waiters += 1
    if (!signal) return flight.audio.finally(() => (flight.waiters -= 1))
    return new Promise<Int16Array>((resolve, reject) => {
      const leave = () => {
        signal.removeEventListener('abort', onAbort)
        flight.waiters -= 1
      }
      const onAbort = () => {
        leave()
        reject(abortedError(signal))
        // Nobody waits for it any more: its place in the engine's queue is freed.
        if (flight.waiters === 0) {
          if (this.inFlight.get(key) === flight) this.inFlight.delete(key)
          flight.stop.abort()
        }
      }
      signal.addEventListener('abort', onAbort, { once: true })
      flight.audio.then(
        (audio) => {
          if (signal.aborted) return
          leave()
          resolve(audio)
        },
        (error: unknown) => {
          if (signal.aborted) return
          leave()
          reject(error)
        },
      )
    })
  }
}

function abortedError(signal: AbortSignal): TtsEngineError {
  return new TtsEngineError('ABORTED', 'Speech synthesis was aborted', { cause: signal.reason })
}
