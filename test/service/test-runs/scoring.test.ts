import { describe, expect, it } from 'vitest'
import { TestSuiteSchema } from '../../../src/shared/api/test-suites'
import { matches, percentile, resolveRelativeDate, scoreCall, valueAt } from '../../../src/service/test-runs/scoring'
import { askedField, simulatedCaller } from '../../../src/service/test-runs/simulated-caller'
import { planSlots } from '../../../src/engines/dialogue/slot-plan'
import type { OutcomeShape } from '../../../src/shared/api/outcome-shape'

/* Scoring a scenario and the adaptive caller's reading of the agent: pure functions, no service. */

/** Wednesday 2 December 2026, midday local time. */
const WEDNESDAY = new Date(2026, 11, 2, 12)

const product = (outcome: unknown, fields: Partial<Parameters<typeof scoreCall>[1]> = {}) => ({
  outcome,
  endReason: 'smart-end',
  turns: 4,
  webhooks: ['call.started', 'call.ended'],
  callDate: WEDNESDAY,
  ...fields,
})

describe('scoring', () => {
  it('resolves relative dates from the call’s own date, as the offline dialogue reads them', () => {
    expect(resolveRelativeDate('today', WEDNESDAY)).toBe('2026-12-02')
    expect(resolveRelativeDate('today+3', WEDNESDAY)).toBe('2026-12-05')
    expect(resolveRelativeDate('today-3', WEDNESDAY)).toBe('2026-11-29')
    expect(resolveRelativeDate('tomorrow', WEDNESDAY)).toBe('2026-12-03')
    expect(resolveRelativeDate('next friday', WEDNESDAY)).toBe('2026-12-04')
    expect(resolveRelativeDate('Friday', WEDNESDAY)).toBe('2026-12-04')
    // Today's own weekday is a week ahead; across a month's and a year's end.
    expect(resolveRelativeDate('next wednesday', WEDNESDAY)).toBe('2026-12-09')
    expect(resolveRelativeDate('today+30', WEDNESDAY)).toBe('2027-01-01')
  })

  it('matches each kind of matcher, and only what it should', () => {
    const cases: [Parameters<typeof matches>[0], unknown, boolean][] = [
      ['Sara Haddad', 'sara haddad ', true],
      ['Sara Haddad', 'Sara', false],
      [4, 4, true],
      [4, '4', true],
      [4, '', false],
      [true, 'true', false],
      [null, null, true],
      [['a', 'b'], ['a', 'b'], true],
      [['a', 'b'], ['b', 'a'], false],
      [{ pattern: '^05\\d{8}$' }, '0501234567', true],
      [{ pattern: '^05\\d{8}$' }, '+971501234567', false],
      [{ pattern: '^4$' }, 4, true],
      [{ pattern: 'x' }, { x: 1 }, false],
      [{ oneOf: ['terrace', 'indoor'] }, 'indoor', true],
      [{ oneOf: ['terrace', 'indoor'] }, 'bar', false],
      [{ present: true }, 'x', true],
      [{ present: true }, '', false],
      [{ present: true }, [], false],
      [{ present: true }, undefined, false],
      [{ absent: true }, undefined, true],
      [{ absent: true }, null, true],
      [{ absent: true }, 'x', false],
      [{ date: 'next friday' }, '2026-12-04', true],
      [{ date: 'next friday' }, '2026-12-04T19:00', true],
      [{ date: 'next friday' }, '2026-12-11', false],
      [{ date: 'today+3' }, 20261205, false],
      [{ time: '15:30' }, '15:30', true],
      [{ time: '15:30' }, '15:30:00', true],
      [{ time: '15:30' }, '2026-12-04T15:30:00', true],
      [{ time: '15:30' }, '15:35', false],
      [{ time: '05:30' }, '15:30', false],
    ]
    for (const [matcher, got, expected] of cases)
      expect(matches(matcher, got, WEDNESDAY), `${JSON.stringify(matcher)} ~ ${JSON.stringify(got)}`).toBe(expected)
  })

  it('answers one readable diff per field, with dates resolved, and fails on any', () => {
    const score = scoreCall(
      {
        outcome: { guestName: 'Sara Haddad', 'unit.bedrooms': 2, date: { date: 'next friday' }, phone: { present: true } },
        endReason: 'smart-end',
        maxTurns: 3,
        webhooks: ['call.ended', 'call.analyzed'],
      },
      product({ guestName: 'Sara Haddad', unit: { bedrooms: 3 }, date: '2026-12-04' }),
    )
    expect(score).toEqual({
      pass: false,
      fields: [
        { field: 'guestName', expected: 'Sara Haddad', got: 'Sara Haddad', pass: true },
        { field: 'unit.bedrooms', expected: 2, got: 3, pass: false },
        { field: 'date', expected: { date: 'next friday', is: '2026-12-04' }, got: '2026-12-04', pass: true },
        { field: 'phone', expected: { present: true }, got: undefined, pass: false },
        { field: 'endReason', expected: 'smart-end', got: 'smart-end', pass: true },
        { field: 'turns', expected: { atMost: 3 }, got: 4, pass: false },
        { field: 'webhooks.call.ended', expected: 'sent', got: 'sent', pass: true },
        { field: 'webhooks.call.analyzed', expected: 'sent', got: 'not sent', pass: false },
      ],
    })
    expect(scoreCall({}, product(null))).toEqual({ pass: true, fields: [] })
    expect(scoreCall({ outcome: { name: { absent: true } } }, product(null)).pass).toBe(true)
    expect(valueAt({ a: { b: [1] } }, 'a.b')).toEqual([1])
    expect(valueAt({ a: 'text' }, 'a.length')).toBeUndefined()
  })

  it('gives nearest-rank percentiles', () => {
    expect(percentile([], 0.5)).toBeNull()
    expect(percentile([30, 10, 20], 0.5)).toBe(20)
    const hundred = Array.from({ length: 100 }, (_, index) => index + 1)
    expect([percentile(hundred, 0.5), percentile(hundred, 0.95), percentile(hundred, 0.99)]).toEqual([50, 95, 99])
  })
})

describe('the adaptive caller', () => {
  const shape: OutcomeShape = {
    type: 'object',
    properties: {
      guestName: { type: 'string', description: 'Name the booking is under.' },
      phoneNumber: { type: 'string', description: 'Mobile number for the confirmation text.' },
      partySize: { type: 'integer', description: 'Number of guests, children included.' },
    },
    required: ['guestName', 'phoneNumber', 'partySize'],
  }
  const fields = ['guestName', 'phoneNumber', 'partySize']

  it('knows which field the agent asks for, in the dialogue’s words or near them, and not in a read-back', () => {
    const slots = planSlots(shape)
    expect(askedField(['Got it.', 'Could you tell me the name the booking is under?'], fields, slots, 'en')).toBe('guestName')
    expect(askedField(['Thanks. Could you tell me the number of guests, children included?'], fields, slots, 'en')).toBe('partySize')
    expect(askedField(['And how many guests will there be?'], fields, slots, 'en')).toBe('partySize')
    expect(
      askedField(['So that is Sara Haddad, phone number 0501234567 and four guests. Is that right?'], fields, slots, 'en'),
    ).toBeUndefined()
  })

  it('opens, answers what is asked, agrees to a read-back, and gives up on a field asked again and again', () => {
    const suite = TestSuiteSchema.parse({
      scenarios: [{ name: 'a', caller: { opening: 'Hello', answers: { guestName: 'Sara Haddad' } }, expect: {} }],
    })
    const caller = simulatedCaller(present(suite.scenarios[0]), 'en', shape)
    const asked = ['Could you tell me the name the booking is under?']
    expect(caller.next(['Welcome!'])).toBe('Hello')
    expect(caller.next(asked)).toBe('Sara Haddad')
    expect(caller.next(['So that is Sara Haddad. Is that right?'])).toBe('Yes, that is right.')
    expect(caller.next(asked)).toBe('Sara Haddad')
    expect(caller.next(asked)).toBe('Sara Haddad')
    expect(caller.next(asked)).toBeUndefined()
  })
})

function present<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('missing')
  return value
}
