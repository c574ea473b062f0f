import { describe, expect, it } from 'vitest'
import { StatisticsNumbersEnvelopeSchema } from '../../../src/shared/api/projects'
import { seedJob } from '../../helpers/seed-jobs'
import { startTestService, type TestService } from '../../helpers/test-service'

const NUMBERS = '/v1/projects/statistics/numbers'

async function numbers(service: TestService, query: string, key?: string) {
  const response = await service.call('GET', `${NUMBERS}${query}`, { key })
  expect(response.statusCode, response.body).toBe(200)
  return StatisticsNumbersEnvelopeSchema.parse(response.json()).data
}

describe('GET /v1/projects/statistics/numbers with startPeriod and endPeriod (a custom period)', () => {
  it('counts only the jobs created in the window, start included and end excluded, with the reference figures', async () => {
    const service = await startTestService()
    const { runtime } = service
    await seedJob(runtime, { type: 'TRANSCRIPTION', usageSeconds: 90, totalCost: 6, createdAt: '2026-03-01T00:00:00.000Z' })
    await seedJob(runtime, { type: 'TRANSCRIPTION', usageSeconds: 30, totalCost: 2, createdAt: '2026-03-15T12:00:00.000Z' })
    await seedJob(runtime, { type: 'TTS', usageSeconds: 3, totalCost: 1, createdAt: '2026-03-20T12:00:00.000Z', status: 'FAILED' })
    await seedJob(runtime, { type: 'TRANSCRIPTION', usageSeconds: 600, totalCost: 40, createdAt: '2026-04-01T00:00:00.000Z' })
    await seedJob(runtime, { type: 'TRANSCRIPTION', usageSeconds: 60, totalCost: 4, createdAt: '2026-02-28T23:59:59.999Z' })

    const march = await numbers(
      service,
      `?startPeriod=2026-03-01T00:00:00Z&endPeriod=2026-04-01T00:00:00Z&projectId=${runtime.bootstrap.projectId}`,
    )
    expect(march).toMatchObject({
      period: 'custom',
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-04-01T00:00:00.000Z',
      jobs: 3,
      cost: 8,
      minutes: 2,
      jobsByStatus: { COMPLETED: 2, FAILED: 1 },
      transcription: { value: 2, unit: 'minutes' },
      price: { value: 8, unit: 'credits' },
      requests: { value: '3', unit: 'requests' },
    })
    const dates = await numbers(service, '?period=custom&startPeriod=2026-03-15&endPeriod=2026-03-16')
    expect(dates).toMatchObject({ period: 'custom', jobs: 1, cost: 2, from: '2026-03-15T00:00:00.000Z' })
    const offset = await numbers(service, '?startPeriod=2026-03-15T14:00:00%2B02:00&endPeriod=2026-03-15T15:00:00%2B02:00')
    expect(offset).toMatchObject({ from: '2026-03-15T12:00:00.000Z', jobs: 1 })
    expect((await numbers(service, '?period=all')).requests).toEqual({ value: '5', unit: 'requests' })
  })

  const invalid: [string, string, string][] = [
    ['a start without an end', '?startPeriod=2026-03-01T00:00:00Z', 'query.endPeriod'],
    ['custom without bounds', '?period=custom', 'query.startPeriod'],
    ['bounds with another period', '?period=week&startPeriod=2026-03-01&endPeriod=2026-03-02', 'query.period'],
    ['an end before the start', '?startPeriod=2026-03-02&endPeriod=2026-03-01', 'query.endPeriod'],
    ['a start that is no date', "?startPeriod=yesterday'--&endPeriod=2026-03-01", 'query.startPeriod'],
    ['an impossible date', '?startPeriod=2026-02-30&endPeriod=2026-03-01', 'query.startPeriod'],
  ]
  it.each(invalid)('refuses %s with a 400 naming the parameter', async (_label, query, path) => {
    const service = await startTestService()
    const response = await service.call('GET', `${NUMBERS}${query}`)
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json().error.details.map((detail: { path: string }) => detail.path)).toContain(path)
  })

  it("answers 403 for another project's id, never counts another project's jobs, and agrees under many reads at once", async () => {
    const service = await startTestService()
    await seedJob(service.runtime, { createdAt: '2026-03-05T00:00:00.000Z', totalCost: 3 })
    const other = await service.otherProject()
    const window = '?startPeriod=2026-03-01&endPeriod=2026-04-01'
    expect(await numbers(service, window, other.key)).toMatchObject({ jobs: 0, cost: 0 })
    const forbidden = await service.call('GET', `${NUMBERS}${window}&projectId=${service.runtime.bootstrap.projectId}`, { key: other.key })
    expect(forbidden.statusCode).toBe(403)
    expect(forbidden.json().error.code).toBe('FORBIDDEN')
    const reads = await Promise.all(Array.from({ length: 10 }, () => numbers(service, window)))
    expect(reads.every((read) => read.jobs === 1 && read.cost === 3)).toBe(true)
  })
})
