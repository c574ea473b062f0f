/**
 * The FaultBook's own rules, without a server (the HTTP, job and webhook effects are observed by
 * real clients in http/fault-injection.test.ts): path globs, the order rules apply in, delays
 * drawn from each distribution (a seeded random), default codes, expiry and its event, the
 * limit of rules per project, and the index that lets a request test only the rules that can
 * match its path.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FaultRuleInputSchema, MAX_FAULT_RULES_PER_PROJECT, type FaultRuleInput } from '../../src/shared/api/faults'
import { defaultCodeOf, FaultBook } from '../../src/service/faults/fault-book'
import { pathBasesOf, pathGlobBase, pathGlobMatcher } from '../../src/service/faults/path-glob'
import { ServiceError } from '../../src/service/ops/service-error'
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

  it('tells the literal base every matching path starts with', () => {
    const cases: [string, string][] = [
      ['/v1/voice-agents/*', '/v1/voice-agents'],
      ['/v1/{jobs,voice-agents}/*', '/v1'],
      ['/v1/**', '/v1'],
      ['/**', ''],
      ['/v1/jobs/all', '/v1/jobs/all'],
      ['/v1/jobs/', '/v1/jobs'],
      ['!/v1/jobs', ''],
      ['/v1/a\\*b', ''],
    ]
    for (const [glob, base] of cases) expect(pathGlobBase(glob), glob).toBe(base)
    expect(pathBasesOf('/v1/jobs/all')).toEqual(['', '/v1', '/v1/jobs', '/v1/jobs/all'])
  })

  // The index is only right if no path a glob matches lacks the glob's base among its own:
  // checked against picomatch itself, over globs of every kind picomatch reads.
  it('never leaves out a glob that matches: its base is always one of the path’s', () => {
    const word = fc.constantFrom('v1', 'jobs', 'all', 'a', 'b', 'ab', '.x', 'a.b', 'a+b', 'x-y', '')
    const globPart = fc.oneof(
      word,
      fc.constantFrom('*', '**', '?', 'a*', '*b', '{a,b}', '{jobs,v1}', '[ab]', '@(a|b)', '+(a)', '!(a)', '(a|b)', 'a\\*', '\\{a\\}'),
    )
    const glob = fc
      .tuple(fc.constantFrom('', '!', '/'), fc.array(globPart, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '/'))
      .map(([lead, parts, trail]) => `${lead === '!' ? '!/' : '/'}${parts.join('/')}${trail}`)
    const path = fc
      .tuple(
        fc.array(fc.oneof(word, fc.constantFrom('*', 'a*', '{a}', '{a,b}', 'a|b')), { minLength: 0, maxLength: 4 }),
        fc.constantFrom('', '/'),
      )
      .map(([parts, trail]) => `/${parts.join('/')}${trail}`)
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 8 }), (pattern, paths) => {
        const matches = pathGlobMatcher(pattern)
        const base = pathGlobBase(pattern)
        for (const candidate of paths) if (matches(candidate)) expect(pathBasesOf(candidate), `${pattern} ~ ${candidate}`).toContain(base)
      }),
      { numRuns: 3_000, seed: 22 },
    )
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

  it('tests only the rules whose method and path base can match a request, in the order they were added', () => {
    let tests = 0
    const book = new FaultBook({
      now: () => new Date(),
      pathMatcher: (glob) => {
        const matches = pathGlobMatcher(glob)
        return (path) => {
          tests += 1
          return matches(path)
        }
      },
    })
    // 190 rules about other agents' paths, 5 about other methods: none can match the request below.
    for (let index = 0; index < 190; index += 1)
      book.add('p', rule({ match: { path: `/v1/voice-agents/agent-${index}/**` }, respond: { status: 500 } }))
    for (let index = 0; index < 5; index += 1)
      book.add('p', rule({ match: { method: 'DELETE', path: '/v1/jobs/*' }, respond: { status: 500 } }))
    const wide = book.add('p', rule({ match: { path: '/v1/**' }, delayMs: 10 }))
    const exact = book.add('p', rule({ match: { method: 'GET', path: '/v1/jobs/*' }, delayMs: 5 }))
    const any = book.add('p', rule({ match: { method: 'get' }, respond: { status: 503 } }))
    book.add('p', rule({ match: { path: '/v1/jobs/*' }, respond: { status: 500 } })) // later than the answering rule

    expect(book.matchRequest('p', 'GET', '/v1/jobs/123')).toMatchObject({ delayMs: 15, respond: { status: 503 } })
    // The two path rules that can match were tested; none of the 195 others.
    expect(tests).toBe(2)
    expect(
      book
        .list('p')
        .filter((fault) => fault.hits > 0)
        .map((fault) => fault.id),
    ).toEqual([wide.id, exact.id, any.id])

    tests = 0
    expect(book.matchRequest('p', 'GET', '/v1/voice-agents/agent-7/calls')).toMatchObject({ respond: { status: 500 } })
    expect(tests).toBe(1)
  })

  it('holds at most 200 rules per project: the next is refused with CONFLICT, until one goes or expires', () => {
    let clock = Date.parse('2026-11-24T10:00:00.000Z')
    const book = new FaultBook({ now: () => new Date(clock) })
    const first = book.add('p', rule({ delayMs: 1, expiresInSeconds: 60 }))
    for (let index = 1; index < MAX_FAULT_RULES_PER_PROJECT; index += 1)
      book.add('p', rule({ match: { path: `/v1/x/${index}` }, delayMs: 1 }))
    const refused = (() => {
      try {
        book.add('p', rule({ delayMs: 1 }))
      } catch (error) {
        return error
      }
    })()
    expect(refused).toBeInstanceOf(ServiceError)
    expect(refused).toMatchObject({ code: 'CONFLICT', status: 409, message: expect.stringContaining('200 fault rules') })
    expect(book.list('p')).toHaveLength(MAX_FAULT_RULES_PER_PROJECT)
    // Another project has its own 200.
    book.add('q', rule({ delayMs: 1 }))
    book.remove('p', first.id)
    book.add('p', rule({ delayMs: 1, expiresInSeconds: 60 }))
    expect(() => book.add('p', rule({ delayMs: 1 }))).toThrow(ServiceError)
    clock += 60_000
    book.add('p', rule({ delayMs: 1 }))
    expect(book.list('p')).toHaveLength(MAX_FAULT_RULES_PER_PROJECT)
    book.close()
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
