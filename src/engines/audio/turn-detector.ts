import { createEnergyVoiceClassifier, type EnergyVoiceClassifierOptions } from './energy-voice-classifier'
import type { VoiceClassifier } from './voice-classifier'
import { createWebRtcVoiceClassifier, type WebRtcVoiceClassifierOptions } from './webrtc-voice-classifier'

/** Times are ms of audio since the detector's first frame. */
export type TurnEvent =
  | { type: 'speech-start'; atMs: number }
  /** `atMs` is where the voice stopped; the event comes `trailingSilenceMs` later. */
  | { type: 'speech-end'; atMs: number; speechMs: number }

/** Finds the caller's turns in a stream of frames. */
export interface TurnDetector {
  /** One frame (any length, samples in [-1, 1]); the turn events it completes, oldest first. */
  push(frame: Float32Array): TurnEvent[]
  /** Between a speech-start and its speech-end. */
  readonly speaking: boolean
  dispose(): void
}

export type VoiceDetectorName = 'energy' | 'webrtc'

export interface TurnDetectorOptions {
  /**
   * `energy` (the default) or `webrtc`. Chosen by bench/vad.ts (bench/results/vad.json): 44 eSpeak
   * caller turns (English, Arabic, women, men) in white noise, 8-talker babble and hum at 20/10/5 dB.
   * The energy detector's level is the power of the 300-3400 Hz voice band over 100 ms against an
   * adaptive floor: at 5 dB it finds 100 % of turns in white noise, babble and hum (the whole
   * signal's level: 84 %, 98 %, 89 %), starts at most one turn a minute on any noise alone, for
   * 0.35 ms CPU per second of audio. WebRTC VAD (any mode) calls 10 dB noise speech.
   */
  detector?: VoiceDetectorName
  sampleRate?: number
  /** Silence after the voice that ends the turn. Default 600 ms. */
  trailingSilenceMs?: number
  /** Voice needed before a turn starts, so a cough or a click starts none. Default 200 ms. */
  minSpeechMs?: number
  /** A pause shorter than this does not reset the voice counted towards minSpeechMs. Default 100 ms. */
  bridgeGapMs?: number
  webrtc?: Omit<WebRtcVoiceClassifierOptions, 'sampleRate'>
  energy?: Omit<EnergyVoiceClassifierOptions, 'sampleRate'>
  /**
   * Told why, when the chosen detector cannot start (its package missing or broken) and the
   * energy detector, which needs no model, listens instead. Without it the reason goes to stderr.
   */
  onFallback?: (message: string, error: unknown) => void
}

async function createClassifier(detector: VoiceDetectorName, options: TurnDetectorOptions, sampleRate: number): Promise<VoiceClassifier> {
  switch (detector) {
    case 'webrtc':
      return createWebRtcVoiceClassifier({ ...options.webrtc, sampleRate })
    case 'energy':
      return createEnergyVoiceClassifier({ ...options.energy, sampleRate })
  }
}

export async function createTurnDetector(options: TurnDetectorOptions = {}): Promise<TurnDetector> {
  const sampleRate = options.sampleRate ?? 16_000
  const detector = options.detector ?? 'energy'
  let classifier: VoiceClassifier
  try {
    classifier = await createClassifier(detector, options, sampleRate)
  } catch (error) {
    if (detector === 'energy') throw error
    const message = `voice detector: WebRTC VAD could not start (${error instanceof Error ? error.message : String(error)}); this call listens with the energy detector instead`
    if (options.onFallback) options.onFallback(message, error)
    else console.warn(message)
    classifier = createEnergyVoiceClassifier({ ...options.energy, sampleRate })
  }
  return turnDetectorOver(classifier, { ...options, sampleRate })
}

/** The turn-taking rules over any classifier (exported for the bench and for tests). */
export function turnDetectorOver(classifier: VoiceClassifier, options: TurnDetectorOptions & { sampleRate: number }): TurnDetector {
  const trailingSilenceMs = options.trailingSilenceMs ?? 600
  const minSpeechMs = options.minSpeechMs ?? 200
  const bridgeGapMs = options.bridgeGapMs ?? 100
  let samplesSeen = 0
  let speaking = false
  /** Outside a turn: where the voice now being counted began, and how much of it there was. */
  let onsetMs: number | undefined
  let voicedMs = 0
  let turnStartMs = 0
  /** The end of the last voiced frame. */
  let lastVoiceMs = 0

  return {
    get speaking() {
      return speaking
    },
    push(frame) {
      const startMs = (samplesSeen * 1000) / options.sampleRate
      samplesSeen += frame.length
      const endMs = (samplesSeen * 1000) / options.sampleRate
      const voice = classifier.isVoice(frame)
      const events: TurnEvent[] = []
      if (voice) {
        if (!speaking && (onsetMs === undefined || startMs - lastVoiceMs > bridgeGapMs)) {
          onsetMs = startMs
          voicedMs = 0
        }
        voicedMs += endMs - startMs
        lastVoiceMs = endMs
        // The classifier hears a burst for up to endLagMs after it stops: a cough is not made long enough by that.
        if (!speaking && voicedMs - (classifier.endLagMs ?? 0) >= minSpeechMs) {
          speaking = true
          turnStartMs = onsetMs!
          onsetMs = undefined
          events.push({ type: 'speech-start', atMs: turnStartMs })
        }
      } else if (speaking && endMs - Math.max(turnStartMs, lastVoiceMs - (classifier.endLagMs ?? 0)) >= trailingSilenceMs) {
        speaking = false
        // Where the voice stopped: the classifier heard it for up to endLagMs after that.
        const voiceEndMs = Math.max(turnStartMs, lastVoiceMs - (classifier.endLagMs ?? 0))
        events.push({ type: 'speech-end', atMs: voiceEndMs, speechMs: voiceEndMs - turnStartMs })
      }
      return events
    },
    dispose() {
      classifier.dispose()
    },
  }
}
