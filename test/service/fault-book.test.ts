/**
 * The FaultBook's own rules, without a server (the HTTP, job and webhook effects are observed by
 * real clients in http/fault-injection.test.ts): path globs, the order rules apply in, delays
 * drawn from each distribution (a seeded random), default codes, expiry and its event.
 */
import { describe, expect, it } from 'vitest'
import { FaultRuleInputSchema, type FaultRuleInput } from '../../src/shared/api/faults'
import { defaultCodeOf, FaultBook } from '../../src/service/faults/fault-book'
import { pathGlobMatcher } from '../../src/service/faults/path-glob'
import { seededRandom } from '../helpers/seeded-random'

const rule = (input: FaultRuleInput) => FaultRuleInputSchema.parse(input)

describe('path globs', () => {
  it('takes * as one segment, ** as any number of them, and braces as a choice', () => {
    const cases: [string, string, boolean][] = [
      ['/v1/voice-agents/*', '/v1/voice-agents/abc', true],
      ['/v1/voice-agents/*', '/v1/voice-agents', false],
      ['/v1/voice-agents/*', '/v1/voice-agents/abc/x', false],
      ['/v1/**', '/v1', true],
      ['/v1/**', '/v1/jobs/all', true],
      ['/v1/**', '/v10', false],
      ['/v1/jobs/*-jobs', '/v1/jobs/translation-jobs', true],
      ['/v1/*/all', '/v1/jobs/all', true],
      ['/v1/jobs.all', '/v1/jobsXall', false],
      ['/**', '/stream/abc', true],
      ['/v1/{jobs,voice-agents}/*', '/v1/voice-agents/abc', true],
      ['/v1/{jobs,voice-agents}/*', '/v1/phone-numbers/abc', false],
      ['/v1/jobs/*', '/v1/jobs/.hidden', true],
    ]
    for (const [glob, path, matches] of cases) expect(pathGlobMatcher(glob)(path), `${glob} ~ ${path}`).toBe(matches)
  })
})

describe('the fault book', () => {
  it('draws delays from a range and a normal distribution, within their bounds', () => {
    const book = new FaultBook({ now: () => new Date(), random: seededRandom(7) })
    book.add('p', rule({ match: { path: '/a' }, delayMs: { min: 100, max: 200 } }))
    book.add('p', rule({ match: { path: '/b' }, delayMs: { mean: 300, stddev: 50 } }))
    book.add('p', rule({ match: { path: '/c' }, delayMs: { mean: 10, stddev: 1000 } }))
    const draws = (path: string) => Array.from({ length: 2000 }, () => book.matchRequest('p', 'GET', path)!.delayMs)
    const uniform = draws('/a')
    expect(Math.min(...uniform)).toBeGreaterThanOrEqual(100)
    expect(Math.max(...uniform)).toBeLessThanOrEqual(200)
    expect(uniform.reduce((sum, value) => sum + value, 0) / uniform.length).toBeCloseTo(150, -1)
    const normal = draws('/b')
    const mean = normal.reduce((sum, value) => sum + value, 0) / normal.length
    const stddev = Math.sqrt(normal.reduce((sum, value) => sum + (value - mean) ** 2, 0) / normal.length)
    expect(mean).toBeGreaterThan(295)
    expect(mean).toBeLessThan(305)
    expect(stddev).toBeGreaterThan(45)
    expect(stddev).toBeLessThan(55)
    // Never below zero, however wide the spread.
    expect(Math.min(...draws('/c'))).toBe(0)
  })

  it('adds the delays of every matching rule, and the first answering rule answers', () => {
    const book = new FaultBook({ now: () => new Date() })
    book.add('p', rule({ delayMs: 100 }))
    const answering = book.add('p', rule({ match: { method: 'POST' }, respond: { status: 409 } }))
    const later = book.add('p', rule({ dropConnection: true }))
    expect(book.matchRequest('p', 'POST', '/v1/x')).toEqual({
      delayMs: 100,
      respond: { status: 409, code: 'CONFLICT', message: `Injected fault ${answering.id}: Conflict` },
    })
    expect(book.matchRequest('p', 'GET', '/v1/x')).toEqual({ delayMs: 100, dropConnection: { ruleId: later.id } })
    expect(book.list('p').map((fault) => fault.hits)).toEqual([2, 1, 1])
    expect(book.matchRequest('other', 'GET', '/v1/x')).toBeUndefined()
  })

  it('names codes after the contract, else after the status', () => {
    expect([400, 404, 500, 503, 507, 429, 502, 418].map(defaultCodeOf)).toEqual([
      'VALIDATION_ERROR',
      'NOT_FOUND',
      'INTERNAL',
      'UNAVAILABLE',
      'INSUFFICIENT_STORAGE',
      'TOO_MANY_REQUESTS',
      'BAD_GATEWAY',
      'I_M_A_TEAPOT',
    ])
  })

  it('drops an expired rule and tells, by the clock it is given', async () => {
    let clock = Date.now()
    const changes: number[] = []
    const book = new FaultBook({ now: () => new Date(clock), onChanged: (_project, active) => changes.push(active) })
    book.add('p', rule({ delayMs: 1, expiresInSeconds: 1 }))
    expect(changes).toEqual([1])
    clock += 1_000
    // Nobody asks: the timer at the expiry tells all the same.
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    expect(changes).toEqual([1, 0])
    expect(book.empty).toBe(true)
    book.close()
  })
})
