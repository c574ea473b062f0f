/**
 * Translation jobs over the whole HTTP pipeline and the real job runner, on SQLite and (in the
 * `postgres` project) PostgreSQL. The language model is a loopback double
 * (helpers/translation-model-double.ts): it stands for an OpenAI-compatible server outside this
 * machine, and is the only thing faked.
 */
import { describe, expect, it } from 'vitest'
import { TranslationResponseSchema } from '../../../src/shared/api/translation-jobs'
import { saveAiContentSetting } from '../../../src/service/settings/ai-content-settings'
import { retryJob } from '../../../src/service/ops/jobs'
import { seedJob } from '../../helpers/seed-jobs'
import { startTestService, type TestService, waitForJobEnd } from '../../helpers/test-service'
import { doubleTranslation, startTranslationModelDouble, type TranslationModelDouble } from '../../helpers/translation-model-double'
import { startWebhookReceiver } from '../../helpers/webhook-receiver'

const API_KEY = 'sk-translation-secret-4711'

/** A running service whose language model is the double (chosen as `voicedesk ai-engine openai-compatible` would). */
async function serviceWithModel(): Promise<{ service: TestService; model: TranslationModelDouble }> {
  const model = await startTranslationModelDouble()
  const service = await startTestService()
  await saveAiContentSetting(service.runtime.store, service.runtime.context.secrets, {
    engine: 'openai-compatible',
    baseUrl: model.url,
    model: 'qwen2.5:7b',
    apiKey: API_KEY,
  })
  return { service, model }
}

async function translate(service: TestService, body: Record<string, unknown>) {
  const response = await service.call('POST', '/v1/jobs/translate', { body })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as { id: string; status: string; [field: string]: unknown }
}

/** A finished transcription as the transcription jobs write it (shared-shapes.md): 45 segments, so more than one batch. */
function arabicTranscript(count = 45) {
  const segments = Array.from({ length: count }, (_, index) => ({
    start: Number((index * 2.5).toFixed(3)),
    end: Number((index * 2.5 + 2.25).toFixed(3)),
    text: `الجملة رقم ${index + 1} من المكالمة.`,
  }))
  const text = segments.map((segment) => segment.text).join(' ')
  return { text, jobResponse: { text, language: 'ar', durationSeconds: 112.5, segments }, segments }
}

describe('POST /v1/jobs/translate', () => {
  it('translates a text into Arabic, keeps the source, and the translation becomes the job text (searched, read by AI content)', async () => {
    const { service, model } = await serviceWithModel()
    const source =
      'Thanks for calling Northwind Dental. Your cleaning is moved to Thursday at three.\n\nA reminder text will go out on Wednesday.'
    const created = await translate(service, { text: source, toLng: 'ar' })
    expect(created).toMatchObject({
      type: 'TRANSLATION',
      status: 'PENDING',
      fromLng: 'en', // told from the text's English function words
      toLng: 'ar',
      model: 'qwen2.5:7b',
      systemModelKey: 'translation-openai-compatible',
      processingType: 'ASYNC',
      relevantJobId: null,
      jobResponse: null,
      totalCost: 2, // one started block of 1,000 characters
      title: expect.stringMatching(/^Translation \(ar\): Thanks for calling/),
    })

    const done = await waitForJobEnd(service, created.id)
    expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED')
    const response = TranslationResponseSchema.strict().parse(done.jobResponse)
    // Lines stay lines; each piece is translated once.
    expect(response).toEqual({
      text: `${doubleTranslation('Thanks for calling Northwind Dental. Your cleaning is moved to Thursday at three.', 'ar')}\n\n${doubleTranslation('A reminder text will go out on Wednesday.', 'ar')}`,
      fromLng: 'en',
      toLng: 'ar',
      sourceText: source,
    })
    expect(done.usageTime).toBeNull()
    expect(model.requests).toHaveLength(1)
    expect(model.requests[0]).toMatchObject({ to: 'ar', model: 'qwen2.5:7b', authorization: `Bearer ${API_KEY}` })

    const projectId = service.runtime.bootstrap.projectId
    const found = (
      await service.call('POST', `/v1/jobs/all?projectId=${projectId}`, { body: { search: 'reminder wednesday', type: 'TRANSLATION' } })
    ).json().data
    expect(found.jobs.map((job: { id: string }) => job.id)).toEqual([created.id])
    expect(found.jobs[0]).toMatchObject({ type: 'TRANSLATION', status: 'COMPLETED', cost: 2, relevantJobId: null })

    // AI content made from the translation reads the translated text (the offline engine quotes it).
    const ai = (await service.call('POST', `/v1/jobs/ai-content?jobId=${created.id}`, { body: { aiParts: ['summary'] } })).json().data
    const aiDone = await waitForJobEnd(service, ai.id)
    expect(aiDone.status).toBe('COMPLETED')
    expect(String(aiDone.jobResponse!.summary)).toContain('Wednesday')
    expect(String(aiDone.jobResponse!.summary)).toMatch(/\[ar\]/)
  })

  it('translates a finished transcription into English segment by segment, each keeping its times, in batches', async () => {
    const { service, model } = await serviceWithModel()
    const transcript = arabicTranscript()
    const source = await seedJob(service.runtime, {
      type: 'TRANSCRIPTION',
      title: 'مكالمة العيادة',
      fromLng: null,
      text: transcript.text,
      jobResponse: transcript.jobResponse,
      usageSeconds: 112.5,
    })
    const created = await translate(service, { jobId: source.id, toLng: 'en', title: 'Clinic call in English' })
    expect(created).toMatchObject({ title: 'Clinic call in English', fromLng: 'ar', toLng: 'en', relevantJobId: source.id, totalCost: 8 }) // 2 started minutes × 4

    const done = await waitForJobEnd(service, created.id)
    expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED')
    const response = TranslationResponseSchema.strict().parse(done.jobResponse)
    expect(response.segments).toEqual(transcript.segments.map((segment) => ({ ...segment, text: doubleTranslation(segment.text, 'en') })))
    expect(response.text).toBe(transcript.segments.map((segment) => doubleTranslation(segment.text, 'en')).join(' '))
    expect(response).toMatchObject({ fromLng: 'ar', toLng: 'en' })
    expect(response.sourceText).toBeUndefined()
    expect(done.usageTime).toBe('112.500')
    // 45 segments: a batch of 40, then one of 5.
    expect(model.requests.map((request) => request.texts.length)).toEqual([40, 5])

    // A translation of the translation keeps the times too, and goes back the other way.
    const again = await translate(service, { jobId: created.id, toLng: 'ar' })
    expect(again).toMatchObject({ fromLng: 'en', relevantJobId: created.id })
    const back = TranslationResponseSchema.parse((await waitForJobEnd(service, again.id)).jobResponse)
    expect(back.segments!.map(({ start, end }) => ({ start, end }))).toEqual(transcript.segments.map(({ start, end }) => ({ start, end })))
    expect(back.segments![0]!.text).toBe(doubleTranslation(doubleTranslation(transcript.segments[0]!.text, 'en'), 'ar'))
  })

  it('asks a malformed batch again, then segment by segment, and never drops or invents a segment', async () => {
    const { service, model } = await serviceWithModel()
    const transcript = arabicTranscript(3)
    const source = await seedJob(service.runtime, {
      type: 'TRANSCRIPTION',
      text: transcript.text,
      jobResponse: transcript.jobResponse,
      usageSeconds: 7,
    })
    // The batch of 3 is answered with 2 items, then not as JSON; alone, each segment is answered well.
    model.answer((index, request) => (request.texts.length > 1 ? (index === 0 ? 'one-too-few' : 'not-json') : 'translate'))
    const created = await translate(service, { jobId: source.id, toLng: 'en' })
    const done = await waitForJobEnd(service, created.id)
    expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED')
    expect(TranslationResponseSchema.parse(done.jobResponse).segments).toEqual(
      transcript.segments.map((segment) => ({ ...segment, text: doubleTranslation(segment.text, 'en') })),
    )
    expect(model.requests.map((request) => request.texts.length)).toEqual([3, 3, 1, 1, 1])

    // A batch whose first answer is malformed and second good costs one more request only.
    model.requests.length = 0
    model.answer((index) => (index === 0 ? 'one-too-few' : 'bare-array'))
    const second = await waitForJobEnd(service, (await translate(service, { jobId: source.id, toLng: 'en' })).id)
    expect(second.status).toBe('COMPLETED')
    expect(model.requests.map((request) => request.texts.length)).toEqual([3, 3])
  })

  it('fails with LLM_ENGINE_FAILED when the model keeps answering badly, when it answers an error, and when it cannot be reached; never with the key', async () => {
    const { service, model } = await serviceWithModel()
    model.answer(() => ({ content: '{"translations": []}' }))
    const bad = await waitForJobEnd(service, (await translate(service, { text: 'Hello there, how are you today?', toLng: 'ar' })).id)
    expect(bad).toMatchObject({
      status: 'FAILED',
      error: { code: 'LLM_ENGINE_FAILED', message: expect.stringContaining('0 translations for 1 text') },
    })
    expect(model.requests).toHaveLength(2)

    model.answer(() => ({
      status: 500,
      body: JSON.stringify({ error: { message: `model "qwen2.5:7b" not found, try pulling it first (key ${API_KEY})` } }),
    }))
    const refused = await waitForJobEnd(service, (await translate(service, { text: 'Hello there, how are you today?', toLng: 'ar' })).id)
    expect(refused).toMatchObject({ status: 'FAILED', error: { code: 'LLM_ENGINE_FAILED', message: expect.stringContaining('HTTP 500') } })
    expect(refused.error!.message).toContain('not found, try pulling it first')
    expect(refused.error!.message).not.toContain(API_KEY)

    await model.close()
    const down = await waitForJobEnd(service, (await translate(service, { text: 'Hello there, how are you today?', toLng: 'ar' })).id)
    expect(down).toMatchObject({
      status: 'FAILED',
      error: { code: 'LLM_ENGINE_FAILED', message: expect.stringContaining('could not reach the model server') },
    })
    expect(down.error!.message).not.toContain(API_KEY)
  })

  it('fails with LLM_ENGINE_NOT_CONFIGURED while the AI engine is offline, and a retry once one is chosen translates the same text', async () => {
    const service = await startTestService()
    const created = await translate(service, { text: 'مرحبا، شكرا لاتصالك بنا اليوم.', toLng: 'en' })
    expect(created).toMatchObject({ model: 'not-configured', systemModelKey: 'translation-not-configured', fromLng: 'ar' })
    const failed = await waitForJobEnd(service, created.id)
    expect(failed).toMatchObject({ status: 'FAILED', error: { code: 'LLM_ENGINE_NOT_CONFIGURED' } })
    expect(failed.error!.message).toContain('voicedesk ai-engine openai-compatible --base-url URL --model NAME')

    const model = await startTranslationModelDouble()
    await saveAiContentSetting(service.runtime.store, service.runtime.context.secrets, {
      engine: 'openai-compatible',
      baseUrl: model.url,
      model: 'qwen2.5:7b',
    })
    const copy = await retryJob(service.runtime.context, service.runtime.appCaller, created.id)
    expect(copy).toMatchObject({
      type: 'TRANSLATION',
      status: 'PENDING',
      model: 'qwen2.5:7b',
      fromLng: 'ar',
      toLng: 'en',
      totalCost: created.totalCost,
    })
    const done = await waitForJobEnd(service, copy.id)
    expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED')
    expect(done.jobResponse).toMatchObject({
      text: doubleTranslation('مرحبا، شكرا لاتصالك بنا اليوم.', 'en'),
      sourceText: 'مرحبا، شكرا لاتصالك بنا اليوم.',
    })
  })

  it('tells the webhook when the translation is done, with the job and its result', async () => {
    const { service } = await serviceWithModel()
    const receiver = await startWebhookReceiver()
    const created = await translate(service, {
      text: 'Your order has shipped and will arrive on Friday.',
      toLng: 'ar',
      webhookUrl: `${receiver.url}/hook`,
      webhookAuth: { authKey: 'Bearer', authSecret: 'hook-secret' },
    })
    const [request] = await receiver.waitForRequests(1)
    expect(request!.headers.authorization).toBe('Bearer hook-secret')
    const body = JSON.parse(request!.body)
    expect(body.event).toBe('job.completed')
    expect(body.data).toMatchObject({
      id: created.id,
      type: 'TRANSLATION',
      status: 'COMPLETED',
      toLng: 'ar',
      jobResponse: { text: doubleTranslation('Your order has shipped and will arrive on Friday.', 'ar') },
    })
  })

  it('refuses bad bodies with a 400 naming the field, and queues nothing', async () => {
    const service = await startTestService()
    const source = await seedJob(service.runtime, { type: 'TRANSCRIPTION', text: 'Hello, thanks for calling.' })
    const cases: [Record<string, unknown>, string][] = [
      [{ toLng: 'ar' }, 'body.jobId'],
      [{ jobId: source.id, text: 'Hello', toLng: 'ar' }, 'body.text'],
      [{ text: 'Hello', toLng: 'fr' }, 'body.toLng'],
      [{ text: 'Hello' }, 'body.toLng'],
      [{ text: 'Hello', toLng: 'ar', fromLng: 'ar' }, 'body.fromLng'],
      [{ text: '   \n ', toLng: 'ar' }, 'body.text'],
      [{ text: 'a'.repeat(20_001), toLng: 'ar' }, 'body.text'],
      [{ jobId: 'not-a-uuid', toLng: 'ar' }, 'body.jobId'],
      [{ text: 'Hello', toLng: 'ar', speed: 2 }, 'body.speed'],
      [{ text: 'Hello', toLng: 'ar', webhookUrl: 'file:///etc/passwd' }, 'body.webhookUrl'],
      // Already in the language asked for: Arabic letters, or the source job's language.
      [{ text: 'مرحبا، شكرا لاتصالك.', toLng: 'ar' }, 'body.toLng'],
      [{ jobId: source.id, toLng: 'en' }, 'body.toLng'],
    ]
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/v1/jobs/translate', { body })
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
      expect(response.json().error.details.map((detail: { path: string }) => detail.path)).toContain(path)
    }
    const list = (
      await service.call('POST', `/v1/jobs/all?projectId=${service.runtime.bootstrap.projectId}`, { body: { type: 'TRANSLATION' } })
    ).json().data
    expect(list.filtered).toBe(0)
  })

  it('refuses a source that is not a finished transcription or translation of this project', async () => {
    const service = await startTestService()
    const pending = await seedJob(service.runtime, {
      type: 'TRANSCRIPTION',
      status: 'PENDING',
      attempts: 0,
      jobResponse: null,
      runAfter: Date.now() + 3_600_000,
    })
    const tts = await seedJob(service.runtime, { type: 'TTS', text: 'Hello there.' })
    const other = await service.otherProject()
    const theirs = await seedJob(service.runtime, { projectId: other.projectId, type: 'TRANSCRIPTION' })
    const empty = await seedJob(service.runtime, { type: 'TRANSCRIPTION', text: '  ' })

    const notDone = await service.call('POST', '/v1/jobs/translate', { body: { jobId: pending.id, toLng: 'ar' } })
    expect(notDone.statusCode).toBe(409)
    expect(notDone.json()).toMatchObject({
      message: expect.stringContaining('is PENDING'),
      error: { code: 'CONFLICT', details: [{ path: 'body.jobId' }] },
    })
    const wrongType = await service.call('POST', '/v1/jobs/translate', { body: { jobId: tts.id, toLng: 'ar' } })
    expect(wrongType.statusCode).toBe(409)
    expect(wrongType.json().message).toContain('is TTS; a translation starts from a TRANSCRIPTION or TRANSLATION job')
    expect((await service.call('POST', '/v1/jobs/translate', { body: { jobId: empty.id, toLng: 'ar' } })).statusCode).toBe(409)
    expect((await service.call('POST', '/v1/jobs/translate', { body: { jobId: theirs.id, toLng: 'ar' } })).statusCode).toBe(404)
    expect(
      (await service.call('POST', '/v1/jobs/translate', { body: { jobId: '9d6a1707-b717-4e39-b6d2-4bfd68aee57d', toLng: 'ar' } }))
        .statusCode,
    ).toBe(404)
    // The other project's key cannot reach this project's transcription either.
    const ours = await seedJob(service.runtime, { type: 'TRANSCRIPTION' })
    expect((await service.call('POST', '/v1/jobs/translate', { key: other.key, body: { jobId: ours.id, toLng: 'ar' } })).statusCode).toBe(
      404,
    )
  })
})
