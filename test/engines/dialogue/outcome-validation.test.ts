import { describe, expect, it } from 'vitest'
import type { OutcomeShape } from '../../../src/shared/api/outcome-shape'
import { bestValidPartial, validateOutcome } from '../../../src/engines/dialogue/outcome-validation'
import { templateAgent } from './template-agents'

const shape: OutcomeShape = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    age: { type: 'integer' },
    plan: { type: 'string', enum: ['basic', 'pro'] },
    callback: { type: 'boolean' },
    slots: {
      type: 'array',
      items: { type: 'object', properties: { day: { type: 'string' }, hour: { type: 'number' } }, required: ['day'] },
    },
  },
  required: ['name', 'plan'],
}

describe('validateOutcome', () => {
  it('accepts a value of the shape', () => {
    expect(validateOutcome(shape, { name: 'Sara', age: 41, plan: 'pro', slots: [{ day: 'Monday', hour: 10.5 }] })).toEqual({
      valid: true,
      errors: [],
    })
  })

  it('is strict about types (no coercion), required, enum and items, and names every problem by path', () => {
    const { valid, errors } = validateOutcome(shape, { age: '41', plan: 'gold', callback: 'yes', slots: [{ hour: 'ten' }] })
    expect(valid).toBe(false)
    expect(errors).toEqual(
      expect.arrayContaining([
        "/ must have required property 'name'",
        '/age must be integer',
        '/plan must be equal to one of the allowed values: "basic", "pro"',
        '/callback must be boolean',
        "/slots/0 must have required property 'day'",
        '/slots/0/hour must be number',
      ]),
    )
    expect(validateOutcome({ type: 'integer' }, 4.5).valid).toBe(false)
    expect(validateOutcome({ type: 'null' }, null).valid).toBe(true)
  })
})

describe('bestValidPartial', () => {
  it('keeps what fits and drops the rest, items included', () => {
    const value = {
      name: 'Sara',
      age: 'forty',
      plan: 'gold',
      extra: 1,
      slots: [{ day: 'Monday', hour: 'ten' }, 'Tuesday', { day: 'Friday', hour: 9 }],
    }
    expect(bestValidPartial(shape, value)).toEqual({ name: 'Sara', slots: [{ day: 'Monday' }, { day: 'Friday', hour: 9 }] })
  })

  it('gives an empty object or list, or null, when nothing fits', () => {
    expect(bestValidPartial(shape, 'not an object')).toEqual({})
    expect(bestValidPartial({ type: 'array', items: { type: 'string' } }, { a: 1 })).toEqual([])
    expect(bestValidPartial({ type: 'string', enum: ['a'] }, 'b')).toBeNull()
    expect(bestValidPartial({ type: 'string', enum: ['a'] }, 'a')).toBe('a')
  })
})

describe('a real template outcome', () => {
  it('gives a valid value whenever the required fields survive', () => {
    const shape = templateAgent('restaurant-reservation-en.json').outcomeShape!
    const messy = {
      requestType: 'new_reservation',
      guestName: 'Sara',
      partySize: 4,
      date: '2026-11-13',
      time: '19:30',
      status: 'request_confirmed',
      seatingPreference: 'roof',
      dietaryNotes: [null, 'vegan'],
    }
    const partial = bestValidPartial(shape, messy)
    expect(validateOutcome(shape, partial)).toEqual({ valid: true, errors: [] })
    expect(partial).toMatchObject({ dietaryNotes: ['vegan'] })
    expect(partial).not.toHaveProperty('seatingPreference')
  })
})
