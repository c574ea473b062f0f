import { describe, expect, it } from 'vitest'
import { splitSentences } from '../../../src/engines/dialogue/spoken-sentences'
import { planSlots } from '../../../src/engines/dialogue/slot-plan'
import { dialoguePhrases } from '../../../src/engines/dialogue/slot-questions'
import { extractDate, spokenDate, spokenTime } from '../../../src/engines/dialogue/spoken-dates'
import { findNumbers } from '../../../src/engines/dialogue/spoken-numbers'
import { templateAgent } from './template-agents'

describe('spoken numbers', () => {
  it('keeps runs of number words together and separates what cannot continue', () => {
    expect(findNumbers('three four').map((n) => n.value)).toEqual([3, 4])
    expect(findNumbers('two thousand and twenty six').map((n) => n.value)).toEqual([2026])
    expect(findNumbers('ثلاث مية وخمسة').map((n) => n.value)).toEqual([305])
    expect(findNumbers('I need 3 tickets')[0]).toEqual({ value: 3, start: 2, next: 'tickets' })
  })

  it('reads every unit and tens word, and no word an object has of its own (constructor, toString)', () => {
    expect(findNumbers('nineteen').map((n) => n.value)).toEqual([19])
    expect(findNumbers('ninety nine').map((n) => n.value)).toEqual([99])
    expect(findNumbers('the constructor said toString twice').map((n) => n.value)).toEqual([2])
  })
})

describe('spoken dates', () => {
  it('reads a date said on the day it names as a week ahead, and a past day of the month as next month', () => {
    const wednesday = new Date(2026, 10, 11)
    expect(extractDate('wednesday', wednesday)).toBe('2026-11-18')
    expect(extractDate('the 3rd', wednesday)).toBe('2026-12-03')
    expect(extractDate('31/2', wednesday)).toBeUndefined()
  })

  it('reads dates and times back in words', () => {
    expect(spokenDate('2026-11-13', 'en')).toBe('Friday 13 November 2026')
    expect(spokenDate('2026-11-13', 'ar')).toBe('الجمعة 13 نوفمبر 2026')
    expect(spokenTime('19:30', 'en')).toBe('7:30 pm')
    expect(spokenTime('09:05', 'ar')).toBe('9:05 صباحًا')
    expect(spokenTime('00:00', 'en')).toBe('12:00 am')
  })
})

describe('greeting sentences', () => {
  it('splits on sentence stops only', () => {
    expect(splitSentences('Hello. The fee is 2.5 riyals, see www.site.com! Ready?')).toEqual([
      'Hello.',
      'The fee is 2.5 riyals, see www.site.com!',
      'Ready?',
    ])
    expect(splitSentences('مرحبًا، معك هالة. هل لديك دقيقة؟')).toEqual(['مرحبًا، معك هالة.', 'هل لديك دقيقة؟'])
  })
})

describe('questions from descriptions', () => {
  it('turns third-person notes for the outcome writer into questions to the caller', () => {
    const slots = new Map(planSlots(templateAgent('customer-support-triage-en.json').outcomeShape).map((slot) => [slot.key, slot]))
    const english = dialoguePhrases('en', undefined)
    expect(english.question(slots.get('customerName')!)).toBe('Could you tell me your full name?')
    expect(english.question(slots.get('urgency')!)).toBe('Could you tell me how urgent the issue is for you: low, medium or high?')
    expect(english.question(slots.get('humanHandoffRequested')!)).toBe(
      'Is it true that you asked to speak with a person or were transferred?',
    )
    // Never asked: the engine fills how the call ended and the caller's mood itself.
    expect(slots.get('resolution')!.inferred).toBe('call-status')
    expect(slots.get('customerSentiment')!.inferred).toBe('sentiment')
  })
})
