import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { diacritiseArabic } from '../../../src/engines/tts/arabic-lexicon'
import { createEspeakTtsEngine, type TtsEngine } from '../../../src/engines/tts/tts-engine'
import { VOICES } from '../../../src/shared/voices'

/**
 * What eSpeak itself says, read as phonemes (its IPA output), not what the text looks like:
 * the engine's phonemes come through the same preparation as its audio; the "bare" phonemes
 * come from eSpeak given the raw text directly, as the engine gave it before speakable-text.
 */
const voice = (name: string) => VOICES.find((candidate) => candidate.name === name)!.id
const AVA = voice('Ava')
const OMAR = voice('Omar')
const LAYLA = voice('Layla')

interface RawEspeak {
  set_voice(name: string): number
  synthesize_ipa(text: string): { code: number; ipa: string }
}
let engine: TtsEngine
let raw: RawEspeak

/** The number of vowel sounds in an IPA string. */
const vowels = (ipa: string) => (ipa.match(/[aeiouɑɐəɛɪʊʌɔæ]/g) ?? []).length
const rawPhonemes = (text: string, espeakVoice: string) => {
  raw.set_voice(espeakVoice)
  return raw.synthesize_ipa(text).ipa.trim()
}

beforeAll(async () => {
  engine = await createEspeakTtsEngine()
  const modulePath = createRequire(import.meta.url).resolve('@echogarden/espeak-ng-emscripten')
  const { default: init } = (await import(pathToFileURL(modulePath).href)) as {
    default: (options: object) => Promise<{ eSpeakNGWorker: new () => RawEspeak }>
  }
  raw = new (await init({})).eSpeakNGWorker()
})

afterAll(async () => {
  await engine?.close()
})

describe('what eSpeak says after speakable-text', () => {
  it('says "10:00 am" as "ten a.m.", where raw eSpeak said "ten zero zero A M"', async () => {
    const zero = /z_ˈiə_ɹ_oʊ/
    expect(rawPhonemes('10:00 am', 'en-us')).toMatch(zero)
    const said = await engine.phonemes('10:00 am', AVA)
    expect(said).not.toMatch(zero)
    expect(said).toMatch(/t_ˈɛ_n/)
  })

  it('says "10:00 صباحًا" with the hour, where raw eSpeak said "عشرة صفر صفر"', async () => {
    const sifr = /s̪-?_ˈi_f_r/
    expect(rawPhonemes('10:00 صباحًا', 'ar')).toMatch(sifr)
    const said = await engine.phonemes('10:00 صباحًا', OMAR)
    expect(said).not.toMatch(sifr)
    expect(said).toMatch(/ʕ_ˈ?aː_ʃ/) // الْعَاشِرَه
  })

  it('voices the vowels of the agent’s Arabic words that bare spelling leaves out', async () => {
    const phrases = [
      'شكرًا لك، سجلت كل ما أحتاجه.',
      'دعني أتأكد: هل هذا صحيح؟',
      'عفوًا، لم أفهم. ممكن تعيد بطريقة أخرى؟',
      'لا بأس، ننتقل إلى السؤال التالي.',
      'وسيتابع معك أحد الزملاء فيما ينقص',
    ]
    for (const phrase of phrases) {
      const bare = rawPhonemes(phrase, 'ar')
      const diacritised = rawPhonemes(diacritiseArabic(phrase), 'ar')
      expect(vowels(diacritised), `${phrase}: ${bare} / ${diacritised}`).toBeGreaterThan(vowels(bare))
      // The engine says the diacritised form.
      expect(await engine.phonemes(phrase, LAYLA)).toBe(diacritised)
    }
  })

  it('serves many texts at once, each in its own voice’s language', async () => {
    const requests = Array.from({ length: 12 }, (_, index) =>
      index % 2 === 0
        ? { text: `Your order BN-${58_231 + index} is due at ${index % 12 || 12}:30 pm`, voice: AVA, language: 'en' as const }
        : { text: `طلبك BN-${58_231 + index} الساعة ${index}:00 مساءً`, voice: OMAR, language: 'ar' as const },
    )
    const spoken = await Promise.all(requests.map(({ text, voice: id }) => engine.phonemes(text, id)))
    const audio = await Promise.all(requests.slice(0, 4).map(({ text, voice: id }) => engine.synthesize(text, id)))
    spoken.forEach((ipa, index) => {
      // English: "thirty p.m."; Arabic: "مَسَاءً" and the letter names بِي إِنْ, never the English letters.
      if (requests[index]!.language === 'en') expect(ipa).toMatch(/θ_ˈɜː_ɾ_i/)
      else expect(ipa).toMatch(/m_ˈa_s_aː/)
      expect(ipa).not.toMatch(/\(en\)/)
    })
    for (const speech of audio) expect(speech.durationSeconds).toBeGreaterThan(1)
  })
})
