/**
 * How eSpeak NG speaks one catalogue voice. `espeakVoice` is a voice name with a variant
 * (`en-us+f2`); the numbers are eSpeak's own prosody settings, applied after the voice on
 * every call because eSpeak keeps them across `set_voice`.
 */
export interface VoiceProfile {
  /** eSpeak language voice plus `+variant`; the variant sets the timbre and gender. */
  espeakVoice: string
  /** Speaking rate in words per minute (eSpeak accepts 80-450; its default is 175). */
  rate: number
  /** Base pitch 0-99 (default 50), relative to the variant's own pitch band. */
  pitch: number
  /** Pitch range 0-99 (default 50): 0 is a monotone, higher is livelier intonation. */
  range: number
}

/**
 * One profile per catalogue voice, keyed by its stable id. The accent picks the eSpeak
 * language voice (`en` is British English; `en-gb` is not a voice name in this build),
 * the gender picks a female (f1-f5) or male (m1-m7) variant, and the description sets
 * the prosody: "quick" voices speak faster, "calm"/"measured" ones slower and flatter,
 * "bright"/"lively" ones higher with a wider range, "deep" ones lower.
 * No two voices of a language share a variant, so each sounds like a different person.
 */
export const VOICE_PROFILES: Readonly<Record<string, Readonly<VoiceProfile>>> = {
  // Ava, American female, warm and clear
  'fe68337a-10d3-4648-99bb-2bb04554b6cf': { espeakVoice: 'en-us+f2', rate: 165, pitch: 58, range: 55 },
  // Ethan, American male, steady and confident
  'd7c17d05-0c73-4196-8cd2-25f2687d90b0': { espeakVoice: 'en-us+m3', rate: 170, pitch: 45, range: 45 },
  // Grace, British female, calm and precise
  '23122556-e2c0-461a-8eb5-b59a2ab5727b': { espeakVoice: 'en+f4', rate: 155, pitch: 55, range: 40 },
  // Oliver, British male, measured and formal
  '131fb3d1-06b1-4da0-9df8-f3ffa912b311': { espeakVoice: 'en+m1', rate: 150, pitch: 40, range: 35 },
  // Isla, Scottish female, bright and lively
  'db8fcffa-ee5c-4f47-8e33-61a8dd7a591d': { espeakVoice: 'en-gb-scotland+f5', rate: 180, pitch: 68, range: 75 },
  // Marcus, Caribbean male, relaxed and deep
  '70e3b4e6-c53d-4cb9-a499-819b984065d2': { espeakVoice: 'en-029+m2', rate: 150, pitch: 20, range: 50 },
  // Harper, American female, quick and upbeat
  'ac6cefc6-80b4-41ae-a5a0-f8ca90c2e2f2': { espeakVoice: 'en-us+f3', rate: 200, pitch: 64, range: 70 },
  // Layla, Arabic female, warm and clear
  '16677e49-bcd2-4044-adb3-541626c49304': { espeakVoice: 'ar+f2', rate: 155, pitch: 58, range: 55 },
  // Omar, Arabic male, steady and confident
  'f738ab97-f3a6-4bfd-996a-0dacb6d9252a': { espeakVoice: 'ar+m3', rate: 160, pitch: 45, range: 45 },
  // Salma, Arabic female, calm and precise
  '12aefec9-90b5-4397-8a05-e82a35a625d3': { espeakVoice: 'ar+f4', rate: 145, pitch: 54, range: 38 },
  // Karim, Arabic male, measured and formal
  'bb4233cf-b34b-4def-9654-acf73dbde890': { espeakVoice: 'ar+m1', rate: 140, pitch: 42, range: 32 },
  // Nour, Arabic female, bright and lively
  '1901056d-58b3-4e82-87eb-785af536671e': { espeakVoice: 'ar+f5', rate: 170, pitch: 68, range: 75 },
  // Yousef, Arabic male, deep and reassuring
  '47fb0122-054b-4ed1-af20-18a72f37dc9c': { espeakVoice: 'ar+m6', rate: 145, pitch: 18, range: 40 },
  // Rania, Arabic female, quick and upbeat
  'e5c47d3e-9b33-4fd8-bf04-66ace52a52e7': { espeakVoice: 'ar+f1', rate: 190, pitch: 64, range: 65 },
}

/** The language a profile speaks: what its text is made speakable in. */
export function speechLanguageOf(profile: Readonly<VoiceProfile>): 'ar' | 'en' {
  return profile.espeakVoice.startsWith('ar') ? 'ar' : 'en'
}

/** The profile of a catalogue voice id, or undefined for an id outside the catalogue. */
export function voiceProfileFor(voiceId: string): Readonly<VoiceProfile> | undefined {
  return Object.hasOwn(VOICE_PROFILES, voiceId) ? VOICE_PROFILES[voiceId] : undefined
}
