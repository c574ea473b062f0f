import type { TurnDetector } from '../engines/audio/turn-detector'
import type { Pronunciation } from '../engines/tts/pronunciations'

/*
 * What a live call needs of the audio engines, as the runtime composes them: the agent's voice
 * at the SDK's rate, a turn detector per caller, and the caller's gender from pitch. The call
 * itself knows only 16 kHz mono samples.
 */

/** The rate of everything on the wire: the SDK sends and plays 16 kHz mono. */
export const CALL_SAMPLE_RATE = 16_000

export type { TurnDetector }

export interface CallAudio {
  /** The agent's voice: text to PCM 16-bit mono at CALL_SAMPLE_RATE, its voice dictionaries' `pronunciations` applied. */
  speak(text: string, voiceId: string, signal?: AbortSignal, pronunciations?: readonly Pronunciation[]): Promise<Int16Array>
  /** A turn detector for one caller; `trailingSilenceMs` is the silence after the voice that ends a turn. */
  turnDetector(options?: { trailingSilenceMs?: number }): Promise<TurnDetector>
  /** The caller's gender from the pitch of their voiced speech, when there is enough of it. */
  estimateGender(samples: Float32Array, sampleRate: number): 'male' | 'female' | undefined
}
