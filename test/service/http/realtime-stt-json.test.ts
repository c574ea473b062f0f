import { describe, expect, it } from 'vitest'
import { TranscriptionResponseSchema } from '../../../src/shared/api/jobs'
import { STT_SETTING_KEY } from '../../../src/service/settings/stt-settings'
import { startSpeechServerDouble } from '../../helpers/speech-server-double'
import { speechWav } from '../../helpers/speech-media'
import { startTestService, type TestService } from '../../helpers/test-service'

const SENTENCE = 'Please book a table for four people tomorrow evening.'

async function serviceWithSpeech() {
  const speech = await startSpeechServerDouble()
  const service = await startTestService()
  await service.runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: speech.url, model: 'whisper-1' })
  return { service, speech }
}

const stt = (service: TestService, body: unknown, key?: string | null) => service.call('POST', '/v1/realtime/stt', { body, key })

describe('POST /v1/realtime/stt with JSON { audioBase64 } (the cloud reference form)', () => {
  it('transcribes base64 audio at once, answering the envelope and the reference top-level text', async () => {
    const { service, speech } = await serviceWithSpeech()
    const { wav, seconds } = await speechWav([0.2, SENTENCE, 0.2])
    const answer = await stt(service, { audioBase64: wav.toString('base64'), language: 'en', isEosEnabled: false, eosThreshold: 0.3 })
    expect(answer.statusCode, answer.body).toBe(200)
    const data = TranscriptionResponseSchema.strict().parse(answer.json().data)
    expect(answer.json()).toMatchObject({ success: true, text: data.text })
    expect(data.text.length).toBeGreaterThan(0)
    expect(data.durationSeconds).toBeCloseTo(seconds, 0)
    expect(speech.requests[0]).toMatchObject({ language: 'en' })
    const urlSafe = await stt(service, { audioBase64: wav.toString('base64url') })
    expect(urlSafe.statusCode, urlSafe.body).toBe(200)
    expect(urlSafe.json().text).toBe(data.text)
  })

  const invalid: [string, unknown, string][] = [
    ['no audio', {}, 'body.audioBase64'],
    ['an empty string', { audioBase64: '' }, 'body.audioBase64'],
    ['text that is not base64', { audioBase64: 'not base64!' }, 'body.audioBase64'],
    ['a data: URL', { audioBase64: 'data:audio/wav;base64,UklGRg==' }, 'body.audioBase64'],
    ['a three-letter language', { audioBase64: 'UklGRg==', language: 'ara' }, 'body.language'],
    ['a threshold above 1', { audioBase64: 'UklGRg==', eosThreshold: 2 }, 'body.eosThreshold'],
    ['an unknown field', { audioBase64: 'UklGRg==', speaker: 'x' }, 'body.speaker'],
  ]
  it.each(invalid)('refuses %s with a 400 naming the field', async (_label, body, path) => {
    const { service, speech } = await serviceWithSpeech()
    const answer = await stt(service, body)
    expect(answer.statusCode, answer.body).toBe(400)
    expect(answer.json().error.details.map((detail: { path: string }) => detail.path)).toContain(path)
    expect(speech.requests).toHaveLength(0)
  })

  it('refuses bytes that are no audio (400), answers 401 without a key, and takes many requests at once', async () => {
    const { service } = await serviceWithSpeech()
    const garbage = await stt(service, { audioBase64: Buffer.from('just some text, not audio at all').toString('base64') })
    expect(garbage.statusCode, garbage.body).toBe(400)
    expect(garbage.json().error.code).toBe('VALIDATION_ERROR')
    expect((await stt(service, { audioBase64: 'UklGRg==' }, null)).statusCode).toBe(401)
    const { wav } = await speechWav([SENTENCE])
    const answers = await Promise.all(Array.from({ length: 4 }, () => stt(service, { audioBase64: wav.toString('base64') })))
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200])
  })

  it('says the larger limit of this route when a body is over it', async () => {
    const service = await startTestService()
    const answer = await stt(service, { audioBase64: 'A'.repeat(13 * 1024 * 1024) })
    expect(answer.statusCode).toBe(413)
    expect(answer.json().message).toMatch(/12 MiB/)
  })
})
