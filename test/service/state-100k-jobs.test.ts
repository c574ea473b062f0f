import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProjectRow } from '../../src/store/records'
import { jobRecord } from '../helpers/job-record'
import { startLiveSqliteService, type LiveService } from '../helpers/project-state-fixture'

/*
 * A snapshot of a 100,000-job project, taken and restored over real HTTP on 127.0.0.1 (issue
 * 15's "snapshots of a 100,000-job project"). SQLite only: the store's own tests run the same
 * rows on PostgreSQL with fewer jobs, and `npm run bench` (parts snapshot, state-archive)
 * times 100,000 on both engines. The jobs are written straight into the store, as an import
 * would, because making 100,000 through /v1 would time the job runner, not the snapshot.
 */

const JOBS = 100_000
const TYPES = ['TTS', 'TRANSCRIPTION', 'TRANSLATION', 'AI_CONTENT'] as const
const STATUSES = ['COMPLETED', 'FAILED', 'COMPLETED', 'COMPLETED'] as const

function* manyJobs(identity: { projectId: string; apiKeyId: string; userId: string }): Generator<ProjectRow> {
  const start = Date.parse('2026-01-01T00:00:00.000Z')
  for (let index = 0; index < JOBS; index += 1) {
    const at = new Date(start + index * 60_000).toISOString()
    const failed = STATUSES[index % STATUSES.length] === 'FAILED'
    yield {
      kind: 'job',
      record: jobRecord({
        ...identity,
        id: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
        type: TYPES[index % TYPES.length],
        status: STATUSES[index % STATUSES.length],
        title: `Job ${index} ${index % 7 === 0 ? 'invoice' : 'support call'}`,
        text: `Customer ${index} asked about order ${index * 7}.`,
        errorCode: failed ? 'STT_ENGINE_FAILED' : null,
        errorMessage: failed ? 'The speech server answered HTTP 500' : null,
        previewToken: `preview-token-${index.toString().padStart(20, '0')}`,
        createdAt: at,
        updatedAt: at,
      }),
    }
  }
}

/** The answers a client would read of the project: lists (first, middle and last pages, a search, a filter), statistics and single jobs. */
async function reads(service: LiveService): Promise<Map<string, string>> {
  const answers = new Map<string, string>()
  const lists = [
    { take: 50, skip: 1 },
    { take: 100, skip: 500 },
    { take: 100, skip: 1000 },
    { take: 20, skip: 1, search: 'invoice' },
    { take: 20, skip: 1, status: 'FAILED' },
  ]
  for (const body of lists) {
    const response = await service.http('POST', `/v1/jobs/all?projectId=${service.runtime.appCaller.projectId}`, { json: body })
    answers.set(`POST /v1/jobs/all ${JSON.stringify(body)}`, `${response.status} ${await response.text()}`)
  }
  for (const path of [
    '/v1/projects/statistics/numbers?period=all',
    '/v1/jobs?jobId=00000000-0000-4000-8000-000000000000',
    `/v1/jobs?jobId=00000000-0000-4000-8000-${(JOBS - 1).toString(16).padStart(12, '0')}`,
    '/v1/voice-agents?take=100',
  ]) {
    const response = await service.http('GET', path)
    // The statistics' window ends now: its two instants move between reads, the counts must not.
    const text = (await response.text()).replace(/"(from|to)":"[^"]*"/g, '"$1":"<now>"')
    answers.set(`GET ${path}`, `${response.status} ${text}`)
  }
  return answers
}

async function dataOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text()
  expect(response.status, text).toBeLessThan(300)
  return (JSON.parse(text) as { data: Record<string, unknown> }).data
}

describe('a snapshot of a 100,000-job project', () => {
  let service: Awaited<ReturnType<typeof startLiveSqliteService>>

  beforeAll(async () => {
    service = await startLiveSqliteService()
    const identity = service.runtime.appCaller
    await service.runtime.store.projectData.replaceProject(identity.projectId, manyJobs(identity))
  }, 240_000)

  afterAll(async () => {
    await service?.stop()
  })

  it('is taken, survives a reset and new work, and restores every read byte for byte', { timeout: 240_000 }, async () => {
    // An agent made through /v1 beside the jobs: the snapshot holds both.
    await dataOf(await service.http('POST', '/v1/voice-agents', { json: { agentName: 'Front desk', lang: 'en' } }))
    const before = await reads(service)
    expect(before.get('POST /v1/jobs/all {"take":50,"skip":1}')).toContain(`"total":${JOBS}`)

    const taken = await dataOf(await service.http('POST', '/_voicedesk/snapshots', { json: { name: 'hundred-thousand' } }))
    expect(taken).toMatchObject({ name: 'hundred-thousand', counts: { jobs: JOBS, agents: 1 } })
    expect(taken.sizeBytes).toBeGreaterThan(1_000_000)

    // The project moves on: emptied, then new work.
    expect(await dataOf(await service.http('POST', '/_voicedesk/reset'))).toMatchObject({ removed: { jobs: JOBS, agents: 1 } })
    await dataOf(await service.http('POST', '/v1/voice-agents', { json: { agentName: 'After the reset', lang: 'ar' } }))
    const changed = await reads(service)
    expect(changed.get('POST /v1/jobs/all {"take":50,"skip":1}')).toContain('"total":0')

    const restored = await dataOf(await service.http('POST', '/_voicedesk/snapshots/hundred-thousand/restore'))
    expect(restored).toMatchObject({ counts: { jobs: JOBS, agents: 1 } })
    const after = await reads(service)
    expect([...after.keys()]).toEqual([...before.keys()])
    for (const [request, answer] of before) expect(after.get(request), request).toBe(answer)
  })
})
