import { describe, expect, it } from 'vitest'
import { SPEAKER_VOICES, VOICES } from '../../../src/shared/voices'
import { readWav } from '../../engines/tts/wav-reading'
import { startTestService } from '../../helpers/test-service'

const ARABIC = 'أهلاً وسهلاً بكم، كيف يمكنني مساعدتكم اليوم؟'

describe("The cloud's public speaker names on realtime TTS", () => {
  it('maps every public name to a catalogue voice of the same language and gender', () => {
    expect(SPEAKER_VOICES.size).toBeGreaterThanOrEqual(38)
    for (const [name, voice] of SPEAKER_VOICES) expect(VOICES, name).toContain(voice)
    expect(SPEAKER_VOICES.get('salma')?.name).toBe('Salma')
    expect(SPEAKER_VOICES.get('amjad')).toMatchObject({ lang: 'ar', gender: 'male' })
    expect(SPEAKER_VOICES.get('layan')).toMatchObject({ lang: 'ar', gender: 'female' })
    expect(SPEAKER_VOICES.get('emma')).toMatchObject({ lang: 'en', gender: 'female' })
    // Every Arabic voice speaks for some public name.
    const used = new Set([...SPEAKER_VOICES.values()].map((voice) => voice.id))
    for (const voice of VOICES.filter((candidate) => candidate.lang === 'ar')) expect(used, voice.name).toContain(voice.id)
  })

  it('speaks "Amjad" with the mapped voice: the same audio as naming that voice, and records that voice', async () => {
    const service = await startTestService()
    const amjad = SPEAKER_VOICES.get('amjad')!
    const byName = await service.call('POST', '/v1/realtime/tts', { body: { text: ARABIC, speaker: 'Amjad', dialect: 'pls' } })
    expect(byName.statusCode, byName.body).toBe(200)
    const byVoice = await service.call('POST', '/v1/realtime/tts', { body: { text: ARABIC, voiceId: amjad.id } })
    // The same voice says the same text for as long (the engine's audio is not byte-for-byte repeatable).
    const lengths = [byName, byVoice].map((answer) => readWav(answer.rawPayload).samples.length)
    expect(Math.abs(lengths[0]! - lengths[1]!) / lengths[1]!).toBeLessThan(0.01)
    const { records } = await service.runtime.store.jobs.list(service.runtime.bootstrap.projectId, {
      type: 'TTS',
      sort: 'createdAt',
      direction: 'asc',
      limit: 10,
      offset: 0,
    })
    expect(records.map((record) => record.voiceId)).toEqual([amjad.id, amjad.id])
    const lower = await service.call('POST', '/v1/realtime/tts', { body: { text: ARABIC, speaker: 'aMjAd' } })
    expect(lower.statusCode).toBe(200)
  })

  it('still refuses a name nobody has, a name that contradicts another voice field, and answers names at once in parallel', async () => {
    const service = await startTestService()
    const unknown = await service.call('POST', '/v1/realtime/tts', { body: { text: 'Hello', speaker: "Amjad'; DROP TABLE jobs" } })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().error.details[0].path).toBe('body.speaker')
    const contradicting = await service.call('POST', '/v1/realtime/tts', { body: { text: 'Hello', speaker: 'Amjad', voiceId: 'Ava' } })
    expect(contradicting.statusCode).toBe(400)
    const names = ['Amjad', 'Layan', 'Mariam', 'Samir', 'Emma', 'James']
    const answers = await Promise.all(
      names.map((speaker) => service.call('POST', '/v1/realtime/tts', { body: { text: 'Hello there', speaker } })),
    )
    expect(answers.map((answer) => answer.statusCode)).toEqual(names.map(() => 200))
  })
})
