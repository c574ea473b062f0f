/**
 * POST /v1/jobs/ai-content/custom and /estimate over a real service on 127.0.0.1: custom parts
 * offline (the nearest built-in part, the followable instructions applied, the rest said), with
 * a chat model (a loopback chat-model double standing for an OpenAI-compatible server, which is
 * all it fakes), and an estimate that is exactly what the job then charges.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createOpenAiCompatibleEngine } from '../../../src/engines/ai-content/openai-compatible-engine'
import { aiContentCost } from '../../../src/service/ops/prices'
import { VOICES } from '../../../src/shared/voices'
import { startTestService, type TestService } from '../../helpers/test-service'

const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id
const SOURCE =
  'The clinic opens a new wing on Monday. Dr. Rowe will lead the cardiology team there. Patients can book visits online from next week. ' +
  'Parking is free for the first two hours. The old entrance on Hill Street closes in March. #clinic #health'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

async function finished(service: TestService, id: string) {
  const deadline = Date.now() + 30_000
  for (;;) {
    const job = (await service.call('GET', `/v1/jobs?jobId=${id}`)).json().data as Record<string, unknown> & { status: string }
    if (job.status !== 'PENDING') return job
    if (Date.now() > deadline) throw new Error(`job ${id} did not end in time`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** A COMPLETED TTS job: a job with text that AI content is written from. */
async function sourceJob(service: TestService): Promise<string> {
  const created = await service.call('POST', '/v1/jobs/text-to-speech', { body: { voiceId: AVA, text: SOURCE } })
  const id = (created.json().data as { id: string }).id
  expect((await finished(service, id)).status).toBe('COMPLETED')
  return id
}

interface CustomPart {
  aiPart: string
  language: string
  prompt: string
  content: string
  engine: string
  basedOn: string | null
  honoured: string[]
  notHonoured: string[]
}

describe('POST /v1/jobs/ai-content/estimate', () => {
  it('answers what the job then charges, for built-in and for custom parts, with the source checks of the job', async () => {
    const service = await startTestService()
    const jobId = await sourceJob(service)
    const builtIn = { aiParts: ['summary', 'faq', 'keywords'] }
    const estimate = await service.call('POST', `/v1/jobs/ai-content/estimate?jobId=${jobId}`, { body: builtIn })
    expect(estimate.statusCode, estimate.body).toBe(200)
    expect(estimate.json().data).toEqual({
      jobId,
      parts: 3,
      pricePerPart: aiContentCost(1),
      estimatedCost: aiContentCost(3),
      currency: 'credits',
    })
    const job = await service.call('POST', `/v1/jobs/ai-content?jobId=${jobId}`, { body: builtIn })
    expect(job.json().data.totalCost).toBe(estimate.json().data.estimatedCost)
    expect((await finished(service, job.json().data.id as string)).totalCost).toBe(estimate.json().data.estimatedCost)

    const custom = { aiParts: [{ aiPart: 'Recap', prompt: 'Summarise it in one sentence' }] }
    const customEstimate = (await service.call('POST', `/v1/jobs/ai-content/estimate?jobId=${jobId}`, { body: custom })).json().data
    const customJob = (await service.call('POST', `/v1/jobs/ai-content/custom?jobId=${jobId}`, { body: custom })).json().data
    expect(customJob.totalCost).toBe(customEstimate.estimatedCost)
    expect((await finished(service, customJob.id as string)).totalCost).toBe(customEstimate.estimatedCost)

    expect((await service.call('POST', '/v1/jobs/ai-content/estimate?jobId=nope', { body: builtIn })).statusCode).toBe(404)
    expect((await service.call('POST', `/v1/jobs/ai-content/estimate?jobId=${jobId}`, { body: { aiParts: [] } })).statusCode).toBe(400)
    expect((await service.call('POST', `/v1/jobs/ai-content/estimate?jobId=${jobId}`, { body: { aiParts: ['poem'] } })).statusCode).toBe(
      400,
    )
  })
})

describe('POST /v1/jobs/ai-content/custom', () => {
  it('offline: writes the nearest built-in part, follows the lengths, lists and hashtags asked, and says what it did not do', async () => {
    const service = await startTestService()
    const jobId = await sourceJob(service)
    const response = await service.call('POST', `/v1/jobs/ai-content/custom?jobId=${jobId}`, {
      body: {
        aiParts: [
          {
            aiPart: 'Patient recap',
            language: 'en',
            prompt: 'Summarise the news as a bulleted list of 2 points, no hashtags, in a warm tone',
          },
          { aiPart: 'Arabic teaser', language: 'ar', prompt: 'A tweet announcing the new wing' },
        ],
      },
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().data).toMatchObject({ type: 'AI_CONTENT', status: 'PENDING', jobResponse: null, relevantJobId: jobId })
    const done = await finished(service, response.json().data.id as string)
    expect(done.status).toBe('COMPLETED')
    const read = (await service.call('GET', `/v1/jobs/ai-content?jobId=${done.id as string}`)).json().data
    const [recap, teaser] = read.jobResponse.customParts as CustomPart[]
    expect(read.jobResponse.transcriptionJobId).toBe(jobId)

    expect(recap).toMatchObject({ aiPart: 'Patient recap', language: 'en', engine: 'offline', basedOn: 'summary' })
    const lines = recap!.content.split('\n')
    expect(lines.length).toBeLessThanOrEqual(2)
    for (const line of lines) expect(line).toMatch(/^- \S/)
    expect(recap!.content).not.toContain('#')
    expect(recap!.honoured).toEqual(expect.arrayContaining(['as a bulleted list of at most 2 items', 'without hashtags']))
    expect(recap!.notHonoured.join(' ')).toMatch(/only lengths, lists, capitals and hashtags/)

    expect(teaser).toMatchObject({ aiPart: 'Arabic teaser', basedOn: 'twitterThread', language: 'en' })
    expect(teaser!.notHonoured[0]).toMatch(/language ar: the offline engine does not translate/)
    expect(teaser!.content.length).toBeGreaterThan(20)
  })

  it('with a chat model configured: the model writes each part from its instruction (a loopback chat-model double)', async () => {
    const asked: string[] = []
    const server = createServer((request, reply) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      request.on('end', () => {
        const { messages } = JSON.parse(body) as { messages: { role: string; content: string }[] }
        const system = messages[0]!.content
        asked.push(messages.map((message) => message.content).join('\n'))
        // Each part's line: - "partN" ("name"), written in LANGUAGE: instruction
        const parts = [...system.matchAll(/^- "(part\d+)" \((".*?")\), written in ([^:]+): (.*)$/gm)]
        const answer = Object.fromEntries(
          parts.map(([, key, name, language, prompt]) => [key, `MODEL ${JSON.parse(name!) as string} / ${language} / ${prompt}`]),
        )
        reply.setHeader('content-type', 'application/json')
        reply.end(JSON.stringify({ choices: [{ message: { content: JSON.stringify(answer) } }] }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => server.close(() => resolve())))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
    const service = await startTestService({ aiContentEngine: createOpenAiCompatibleEngine({ baseUrl: url, model: 'double-7b' }) })
    const jobId = await sourceJob(service)
    const response = await service.call('POST', `/v1/jobs/ai-content/custom?jobId=${jobId}`, {
      body: { aiParts: [{ aiPart: 'Haiku', language: 'ar', prompt: 'A haiku about the new wing' }] },
    })
    expect(response.statusCode, response.body).toBe(200)
    const done = await finished(service, response.json().data.id as string)
    expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED')
    const [haiku] = (done.jobResponse as { customParts: CustomPart[] }).customParts
    expect(haiku).toMatchObject({
      aiPart: 'Haiku',
      language: 'ar',
      content: 'MODEL Haiku / Arabic (Modern Standard Arabic) / A haiku about the new wing',
      engine: 'openai-compatible:double-7b',
      basedOn: null,
      notHonoured: [],
    })
    expect(asked[0]).toContain('Source text:')
  })

  it('refuses bad bodies with 400 envelopes, an unknown source with 404', async () => {
    const service = await startTestService()
    const jobId = await sourceJob(service)
    const refused = async (body: unknown, path: string) => {
      const response = await service.call('POST', `/v1/jobs/ai-content/custom?jobId=${jobId}`, { body })
      expect(response.statusCode, response.body).toBe(400)
      expect((response.json().error.details as { path: string }[]).map((detail) => detail.path)).toContain(path)
    }
    await refused({ aiParts: [] }, 'body.aiParts')
    await refused({ aiParts: [{ aiPart: 'x', prompt: '   ' }] }, 'body.aiParts.0.prompt')
    await refused({ aiParts: [{ aiPart: '', prompt: 'p' }] }, 'body.aiParts.0.aiPart')
    await refused({ aiParts: [{ aiPart: 'x', prompt: 'p', language: 'fr' }] }, 'body.aiParts.0.language')
    await refused(
      {
        aiParts: [
          { aiPart: 'Same', prompt: 'p' },
          { aiPart: 'same', prompt: 'q' },
        ],
      },
      'body.aiParts.1.aiPart',
    )
    await refused({ aiParts: [{ aiPart: 'x', prompt: 'p'.repeat(2_001) }] }, 'body.aiParts.0.prompt')
    const unknown = await service.call('POST', '/v1/jobs/ai-content/custom?jobId=missing', {
      body: { aiParts: [{ aiPart: 'x', prompt: 'p' }] },
    })
    expect(unknown.statusCode).toBe(404)
  })
})
