import { describe, expect, it } from 'vitest'
import { runUnderstanding } from '../../bench/understanding/bench'
import { startTestService } from '../helpers/test-service'

/*
 * The understanding bench in smoke mode, so its code cannot rot: two scenarios as real calls
 * over the real /stream socket of a real runtime on 127.0.0.1, one text through real TTS and
 * AI-content jobs over /v1. Only the report's shape is checked here, not the engine's scores
 * (the bench measures those; they are a baseline, not a contract).
 */

describe('the understanding bench (smoke)', () => {
  it('runs scenarios over /stream and a text through AI content, and reports every figure', async () => {
    const service = await startTestService({ port: 0 })
    const base = (await service.runtime.start()).replace('localhost', '127.0.0.1')
    const report = await runUnderstanding({
      scenarioIds: ['en-delivery-own-order-angry', 'ar-levantine-delivery-own-order'],
      textIds: ['en-delivery-complaint-transcript'],
      serviceFor: () => Promise.resolve({ base, key: service.key }),
      aiTimingRuns: 1,
    })
    expect(report.scenarios.map((result) => result.id)).toEqual(['ar-levantine-delivery-own-order', 'en-delivery-own-order-angry'])
    for (const result of report.scenarios) {
      expect(result.status).toBe('COMPLETED')
      expect(result.turns).toBeGreaterThanOrEqual(1)
      expect(Object.keys(result.fields).sort()).toEqual(['customerName', 'issue', 'orderNumber', 'wantsRefund'])
      expect(result.transcript.filter((turn) => turn.role === 'caller').length).toBe(result.turns)
    }
    const field = { right: expect.any(Number), total: 8, percent: expect.any(Number) }
    expect(report.summary).toMatchObject({
      scenarios: 2,
      fieldAccuracy: { ownOrder: field, answersWhatIsAsked: { total: 0 }, all: field, english: { total: 4 }, arabic: { total: 4 } },
      turnsPerCall: { median: expect.any(Number), medianRequiredPlusTwo: 6 },
      dialogueEngineTurnMs: { p50: expect.any(Number), p95: expect.any(Number) },
      texts: 1,
      summaryFactCoverage: { total: 6 },
      templateTitles: { count: expect.any(Number) },
      greetingOrVocativeFaqQuestions: { count: expect.any(Number) },
      aiContentTwoThousandWordsMs: { english: { words: expect.any(Number) }, arabic: { words: expect.any(Number) } },
    })
    expect(report.texts[0]).toMatchObject({ id: 'en-delivery-complaint-transcript', facts: 6, summary: expect.any(String) })
    expect((report.summary.worstScenarios as unknown[]).length).toBe(2)
  }, 60_000)
})
