// Gender from pitch, on the catalogue's male and female eSpeak voices in English and Arabic.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GENDER_F0_THRESHOLD_HZ, estimateGender, medianPitch } from '../../../src/engines/audio/caller-gender'
import { createEspeakTtsEngine, type TtsEngine } from '../../../src/engines/tts/tts-engine'
import { VOICE_PROFILES } from '../../../src/engines/tts/voice-profiles'
import { RATE, speak16k, whiteNoise } from './call-audio'

const ENGLISH = 'Hello, I would like to book an appointment with the doctor next week, please.'
const ARABIC = 'مرحبا، أريد أن أحجز موعدا مع الطبيب في الأسبوع القادم من فضلك.'

describe('estimateGender', () => {
  let tts: TtsEngine
  beforeAll(async () => {
    tts = await createEspeakTtsEngine()
  })
  afterAll(() => tts.close())

  // All fourteen catalogue voices: the variant (+mN / +fN) says which gender eSpeak speaks.
  it.each(Object.entries(VOICE_PROFILES).map(([id, profile]) => ({ id, voice: profile.espeakVoice })))(
    '$voice is classified by its variant',
    async ({ id, voice }) => {
      const speech = await speak16k(tts, voice.startsWith('ar') ? ARABIC : ENGLISH, id)
      const expected = /\+m\d$/.test(voice) ? 'male' : 'female'
      const pitch = medianPitch(speech, RATE)!
      // The margin from the threshold, so a drift in eSpeak or YIN shows before it flips an answer.
      if (expected === 'male') expect(pitch.medianHz).toBeLessThan(GENDER_F0_THRESHOLD_HZ - 40)
      else expect(pitch.medianHz).toBeGreaterThan(GENDER_F0_THRESHOLD_HZ + 10)
      expect(estimateGender(speech, RATE)).toBe(expected)
    },
  )

  it('gives no answer for silence, noise, or too little voice', async () => {
    expect(estimateGender(new Float32Array(RATE * 2), RATE)).toBeUndefined()
    expect(estimateGender(whiteNoise(RATE * 2, 0.1), RATE)).toBeUndefined()
    const speech = await speak16k(tts, ENGLISH, 'fe68337a-10d3-4648-99bb-2bb04554b6cf')
    expect(estimateGender(speech.subarray(0, RATE * 0.25), RATE)).toBeUndefined()
  })
})
