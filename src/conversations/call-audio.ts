/*
 * What a live call needs of the audio engines, as the runtime composes them: the agent's voice
 * at the SDK's rate, a turn detector per caller, and the caller's gender from pitch. The call
 * itself knows only 16 kHz mono samples.
 */

/** The rate of everything on the wire: the SDK sends and plays 16 kHz mono. */
export const CALL_SAMPLE_RATE = 16_000

export type TurnEvent = { type: 'speech-start'; atMs: number } | { type: 'speech-end'; atMs: number; speechMs: number }

/** Voice activity over the caller's frames, with end-of-turn after a trailing silence. */
export interface TurnDetector {
  push(frame: Float32Array): TurnEvent[]
}

export interface CallAudio {
  /** The agent's voice: text to PCM 16-bit mono at CALL_SAMPLE_RATE. */
  speak(text: string, voiceId: string, signal?: AbortSignal): Promise<Int16Array>
  /** A turn detector for one caller. */
  turnDetector(): Promise<TurnDetector>
  /** The caller's gender from the pitch of their voiced speech, when there is enough of it. */
  estimateGender(samples: Float32Array, sampleRate: number): 'male' | 'female' | undefined
}

/** A media frame's payload: base64 Float32 little-endian samples (the SDK's microphone frames). */
export function callerSamplesOf(payload: string): Float32Array {
  const bytes = Buffer.from(payload, 'base64')
  const samples = new Float32Array(Math.floor(bytes.length / 4))
  for (let index = 0; index < samples.length; index += 1) samples[index] = bytes.readFloatLE(index * 4)
  return samples
}

/** PCM16 samples as a media payload: base64 of 16-bit little-endian samples (always an even length). */
export function agentPayloadOf(samples: Int16Array): string {
  const bytes = Buffer.alloc(samples.length * 2)
  for (let index = 0; index < samples.length; index += 1) bytes.writeInt16LE(samples[index]!, index * 2)
  return bytes.toString('base64')
}
