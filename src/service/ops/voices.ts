import type { TtsVoice, TtsVoicesQuery } from '../../shared/api/voices'
import { VOICES, type Voice } from '../../shared/voices'

const LANGUAGE_NAMES: Record<Voice['lang'], string> = { en: 'English', ar: 'Arabic' }

/** The catalogue voice with the tags pickers show (`Ava (English - Female - American)`). */
function toTtsVoice(voice: Voice): TtsVoice {
  const gender = voice.gender === 'female' ? 'Female' : 'Male'
  return { ...voice, tags: [LANGUAGE_NAMES[voice.lang], gender, voice.accent] }
}

/** `GET /v1/tts/voices?take=&skip=`: a slice of the catalogue; `skip` is an offset, as its clients send it. */
export function listTtsVoices(query: TtsVoicesQuery): TtsVoice[] {
  return VOICES.slice(query.skip, query.skip + query.take).map(toTtsVoice)
}
