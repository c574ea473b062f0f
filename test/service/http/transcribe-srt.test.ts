import { describe, expect, it } from 'vitest'
import { JobReadSchema, TranscriptionResponseSchema } from '../../../src/shared/api/jobs'
import { sourceMediaName } from '../../../src/service/ops/media-names'
import { STT_SETTING_KEY } from '../../../src/service/settings/stt-settings'
import { startSpeechServerDouble } from '../../helpers/speech-server-double'
import { speechWav } from '../../helpers/speech-media'
import { startTestService, type TestService, waitForJobEnd } from '../../helpers/test-service'

const SENTENCES = ['The quarterly numbers were better than we expected in every region.', 'Our team in the north grew the fastest of all.']

/** A speech server that hears the two sentences, one segment each, with a pause between them. */
async function serviceWithSpeech() {
  const speech = await startSpeechServerDouble({
    answer: (sent) => ({
      body: {
        text: SENTENCES.join(' '),
        language: 'english',
        duration: sent.seconds,
        segments: [
          { id: 0, start: 0, end: sent.seconds * 0.45, text: ` ${SENTENCES[0]}` },
          { id: 1, start: sent.seconds * 0.6, end: sent.seconds, text: ` ${SENTENCES[1]}` },
        ],
      },
    }),
  })
  const service = await startTestService()
  await service.runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: speech.url, model: 'whisper-1' })
  return service
}

/** An uploaded WAV of the sentences, as this service's own /media/ URL (a transcription takes it without HTTP). */
async function mediaUrlOf(service: TestService): Promise<string> {
  const { wav } = await speechWav([0.3, SENTENCES[0]!, 1.2, SENTENCES[1]!, 0.3])
  const name = sourceMediaName('srt-source.wav')
  await service.runtime.context.media.put(name, wav)
  return `${service.runtime.context.baseUrl()}/media/${name}`
}

const transcribe = (service: TestService, body: Record<string, unknown>) =>
  service.call('POST', '/v1/jobs/transcribe', { body: { model: 'Hamsa-General-V2.0', processingType: 'async', ...body } })

describe('POST /v1/jobs/transcribe with returnSrtFormat and srtOptions', () => {
  it('answers jobId beside the job, and the finished job holds SubRip text laid out as asked', async () => {
    const service = await serviceWithSpeech()
    const mediaUrl = await mediaUrlOf(service)
    const created = await transcribe(service, {
      mediaUrl,
      language: 'en',
      returnSrtFormat: true,
      srtOptions: { maxCharsPerLine: 24, maxLinesPerSubtitle: 1, minGap: 0.1 },
    })
    expect(created.statusCode, created.body).toBe(200)
    const data = created.json().data
    expect(data.jobId).toBe(data.id)
    const job = JobReadSchema.parse((await service.call('GET', `/v1/jobs?jobId=${data.jobId}`)).json()).data
    expect(job.status).toBe('PENDING')
    const done = await waitForJobEnd(service, data.jobId)
    expect(done.status, JSON.stringify(done)).toBe('COMPLETED')
    const response = TranscriptionResponseSchema.parse(done.jobResponse)
    expect(response.srtOptions).toEqual({
      maxLinesPerSubtitle: 1,
      maxCharsPerLine: 24,
      singleSpeakerPerSubtitle: true,
      maxMergeableGap: 0.3,
      minDuration: 0.7,
      maxDuration: 7,
      minGap: 0.1,
    })
    const srt = response.srt!
    const blocks = srt.trim().split(/\n\n/)
    expect(blocks.length).toBeGreaterThan(4)
    expect(blocks.map((block) => block.split('\n').slice(2).join(' ')).join(' ')).toContain('every region.')
    blocks.forEach((block, index) => {
      const [number, timing, ...lines] = block.split('\n')
      expect(number).toBe(String(index + 1))
      expect(timing).toMatch(/^\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}$/)
      expect(lines).toHaveLength(1)
      expect(lines[0]!.length).toBeLessThanOrEqual(24)
    })
    // Without returnSrtFormat the job holds no SRT (srtOptions beside false, as the reference's example sends, is taken and unused).
    const plain = await transcribe(service, { mediaUrl, language: 'en', returnSrtFormat: false, srtOptions: { maxCharsPerLine: 42 } })
    const plainDone = await waitForJobEnd(service, plain.json().data.jobId)
    expect(plainDone.jobResponse).not.toHaveProperty('srt')
  })

  const invalid: [string, Record<string, unknown>, string][] = [
    [
      'bad srtOptions even with returnSrtFormat false',
      { returnSrtFormat: false, srtOptions: { maxLinesPerSubtitle: 0 } },
      'body.srtOptions.maxLinesPerSubtitle',
    ],
    ['returnSrtFormat as text', { returnSrtFormat: 'yes' }, 'body.returnSrtFormat'],
    ['a line of 5 characters', { returnSrtFormat: true, srtOptions: { maxCharsPerLine: 5 } }, 'body.srtOptions.maxCharsPerLine'],
    ['a negative gap', { returnSrtFormat: true, srtOptions: { minGap: -1 } }, 'body.srtOptions.minGap'],
    [
      'a minimum above the maximum',
      { returnSrtFormat: true, srtOptions: { minDuration: 9, maxDuration: 8 } },
      'body.srtOptions.minDuration',
    ],
    ['an unknown option', { returnSrtFormat: true, srtOptions: { fontSize: 12 } }, 'body.srtOptions.fontSize'],
  ]
  it.each(invalid)('refuses %s with a 400 naming the field, and queues nothing', async (_label, change, path) => {
    const service = await startTestService()
    const response = await transcribe(service, { mediaUrl: 'https://example.com/a.mp3', ...change })
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json().error.details.map((detail: { path: string }) => detail.path)).toContain(path)
    const list = await service.call('POST', `/v1/jobs/all?projectId=${service.runtime.bootstrap.projectId}`, { body: {} })
    expect(list.json().data.total).toBe(0)
  })

  it('queues many SRT jobs at once, each answering its own jobId, unseen by another project', async () => {
    const service = await startTestService()
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        transcribe(service, {
          mediaUrl: `https://example.com/${index}.mp3`,
          returnSrtFormat: true,
          srtOptions: { maxCharsPerLine: 30 + index },
        }),
      ),
    )
    const ids = answers.map((answer) => answer.json().data.jobId as string)
    expect(new Set(ids).size).toBe(8)
    const other = await service.otherProject()
    expect((await service.call('GET', `/v1/jobs?jobId=${ids[0]}`, { key: other.key })).statusCode).toBe(404)
  })
})
