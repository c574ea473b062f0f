import { describe, expect, it } from 'vitest'
import { bestValidPartial, validateOutcome } from '../../../src/engines/dialogue/outcome-validation'
import type { OutcomeShape } from '../../../src/shared/api/outcome-shape'
import { templateAgent } from './template-agents'

const SHAPE: OutcomeShape = {
  type: 'object',
  properties: {
    partySize: { type: 'integer' },
    status: { type: 'string', enum: ['confirmed', 'declined'] },
    notes: { type: 'array', items: { type: 'string' } },
    unit: { type: 'object', properties: { rooms: { type: 'integer' }, kind: { type: 'string' } }, required: ['kind'] },
  },
  required: ['partySize', 'status'],
}

describe('validateOutcome', () => {
  it('accepts a value that fits and names what does not', () => {
    expect(validateOutcome(SHAPE, { partySize: 4, status: 'confirmed' })).toEqual({ valid: true, errors: [] })
    const result = validateOutcome(SHAPE, { partySize: 2.5, status: 'maybe', notes: ['ok', 3] })
    expect(result.valid).toBe(false)
    expect(result.errors).toEqual(['/partySize must be integer', '/status must be equal to one of the allowed values', '/notes/1 must be string'])
    expect(validateOutcome(SHAPE, { status: 'declined' }).errors).toEqual(["/ must have required property 'partySize'"])
  })
})

describe('bestValidPartial', () => {
  it('drops what fails the shape and keeps the rest, recursively', () => {
    const partial = bestValidPartial(SHAPE, { partySize: 2.5, status: 'confirmed', notes: ['ok', 3, 'fine'], unit: { rooms: 'three', kind: 'flat' }, extra: 1 })
    expect(partial).toEqual({ status: 'confirmed', notes: ['ok', 'fine'], unit: { kind: 'flat' }, extra: 1 })
    expect(bestValidPartial(SHAPE, 'not an object')).toBeUndefined()
  })

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
