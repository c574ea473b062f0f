import { describe, expect, it } from 'vitest'
import { VOICE_PROFILES, voiceProfileFor } from '../../../src/engines/tts/voice-profiles'
import { VOICES } from '../../../src/shared/voices'

/** The eSpeak language voice for each accent of the catalogue. */
const ESPEAK_VOICE_FOR_ACCENT: Record<string, string> = {
  American: 'en-us',
  British: 'en',
  Scottish: 'en-gb-scotland',
  Caribbean: 'en-029',
  'Modern Standard Arabic': 'ar',
}

describe('voice profiles', () => {
  it('cover exactly the catalogue', () => {
    expect(Object.keys(VOICE_PROFILES).sort()).toEqual(VOICES.map((voice) => voice.id).sort())
    expect(voiceProfileFor('no-such-voice')).toBeUndefined()
    expect(voiceProfileFor('toString')).toBeUndefined()
  })

  it.each(VOICES.map((voice) => [voice.name, voice] as const))('%s speaks its accent and gender within eSpeak limits', (_name, voice) => {
    const profile = voiceProfileFor(voice.id)!
    const [language, variant] = profile.espeakVoice.split('+')
    expect(language).toBe(ESPEAK_VOICE_FOR_ACCENT[voice.accent])
    expect(variant).toMatch(voice.gender === 'female' ? /^f[1-5]$/ : /^m[1-7]$/)
    expect(profile.rate).toBeGreaterThanOrEqual(80)
    expect(profile.rate).toBeLessThanOrEqual(450)
    for (const setting of [profile.pitch, profile.range]) {
      expect(Number.isInteger(setting)).toBe(true)
      expect(setting).toBeGreaterThanOrEqual(0)
      expect(setting).toBeLessThanOrEqual(99)
    }
  })

  it('are all different, and no two voices of a language share a variant', () => {
    expect(new Set(Object.values(VOICE_PROFILES).map((profile) => JSON.stringify(profile))).size).toBe(VOICES.length)
    for (const lang of ['en', 'ar']) {
      const variants = VOICES.filter((voice) => voice.lang === lang).map((voice) => voiceProfileFor(voice.id)!.espeakVoice.split('+')[1])
      expect(new Set(variants).size, lang).toBe(variants.length)
    }
  })

  it('pitch female voices above male ones of the same language', () => {
    for (const lang of ['en', 'ar']) {
      const pitches = (gender: string) =>
        VOICES.filter((voice) => voice.lang === lang && voice.gender === gender).map((voice) => voiceProfileFor(voice.id)!.pitch)
      expect(Math.min(...pitches('female')), lang).toBeGreaterThan(Math.max(...pitches('male')))
    }
  })
})
