import { describe, expect, it } from 'vitest'
import {
  carries,
  faqQuestions,
  holdsGreetingOrVocative,
  isTemplateQuestion,
  isTemplateTitle,
  normaliseText,
  parseTime,
  resolveDateSpec,
  scoreField,
} from '../../bench/understanding/scorer'

// A Wednesday, 23:30 in London and already Thursday in Riyadh.
const NOW = new Date('2026-11-25T23:30:00Z')
const LONDON = { timeZone: 'Europe/London', now: NOW }

describe('the understanding scorer', () => {
  it('normalises case, Arabic letter variants, diacritics and digits', () => {
    expect(normaliseText('أحْمد  إبراهيم')).toBe(normaliseText('احمد ابراهيم'))
    expect(normaliseText('مدرسة')).toBe(normaliseText('مدرسه'))
    expect(normaliseText('٢٠٢٦')).toBe('2026')
    expect(scoreField('name', 'Sara Haddad', 'sara  HADDAD.', LONDON).right).toBe(true)
    expect(scoreField('name', 'فهد العتيبي', 'فَهد العتيبى', LONDON).right).toBe(true)
  })

  it('says wrong when the value is wrong, missing, or only part of it', () => {
    expect(scoreField('name', 'Sara Haddad', 'Do you have vegetarian food', LONDON)).toMatchObject({
      right: false,
      got: 'Do you have vegetarian food',
    })
    expect(scoreField('identifier', 'BN-58231', '58231', LONDON).right).toBe(false)
    expect(scoreField('integer', 4471, 4, LONDON).right).toBe(false)
    expect(scoreField('enum', 'delivery', 'Delivery', LONDON).right).toBe(false)
    expect(scoreField('boolean', false, undefined, LONDON).right).toBe(false)
    expect(scoreField('time', '10:00', undefined, LONDON).right).toBe(false)
    expect(scoreField('date', 'fri', '2026-11-26', LONDON).right).toBe(false)
    expect(scoreField('name', null, 'Someone', LONDON).right).toBe(false)
  })

  it('compares identifiers with their letters and separators, integers and booleans by value', () => {
    expect(scoreField('identifier', 'BN-58231', 'bn-58231', LONDON).right).toBe(true)
    expect(scoreField('identifier', ['BN-58231', 'BN58231'], 'BN 58231', LONDON).right).toBe(true)
    expect(scoreField('integer', 7, '٧', LONDON).right).toBe(true)
    expect(scoreField('boolean', true, 'true', LONDON).right).toBe(true)
    expect(scoreField('name', null, '', LONDON).right).toBe(true)
  })

  it('resolves relative dates in the scenario time zone, and reads ISO and day-first dates', () => {
    expect(resolveDateSpec('today', 'Europe/London', NOW)).toBe('2026-11-25')
    expect(resolveDateSpec('today', 'Asia/Riyadh', NOW)).toBe('2026-11-26')
    expect(resolveDateSpec('today+1', 'Europe/London', NOW)).toBe('2026-11-26')
    expect(resolveDateSpec('today-2', 'Europe/London', NOW)).toBe('2026-11-23')
    expect(resolveDateSpec('fri', 'Europe/London', NOW)).toBe('2026-11-27')
    expect(resolveDateSpec('wed', 'Europe/London', NOW)).toBe('2026-12-02')
    expect(resolveDateSpec('fri+7', 'Europe/London', NOW)).toBe('2026-12-04')
    expect(resolveDateSpec('12-21', 'Europe/London', NOW)).toBe('2026-12-21')
    expect(resolveDateSpec('03-14', 'Europe/London', NOW)).toBe('2027-03-14')
    expect(scoreField('date', 'today+1', '26/11/2026', LONDON).right).toBe(true)
    expect(scoreField('date', ['fri', 'fri+7'], '٢٠٢٦-١٢-٠٤', LONDON)).toMatchObject({
      right: true,
      expected: ['2026-11-27', '2026-12-04'],
    })
  })

  it('reads times as HH:MM from 24-hour, am/pm and Arabic forms', () => {
    expect(parseTime('19:30')).toBe('19:30')
    expect(parseTime('7:30 pm')).toBe('19:30')
    expect(parseTime('12:15 am')).toBe('00:15')
    expect(parseTime('10 am')).toBe('10:00')
    expect(parseTime('٨:٣٠ مساءً')).toBe('20:30')
    expect(parseTime('10:00 صباحًا')).toBe('10:00')
    expect(parseTime('ten')).toBeUndefined()
    expect(parseTime('7')).toBeUndefined()
  })

  it('finds key facts on word boundaries only', () => {
    expect(carries('Booked with Dr. Patel on Thursday at 2:30 pm.', ['2:30'])).toBe(true)
    expect(carries('الموعد يوم الثلاثاء', ['الثلاثاء'])).toBe(true)
    expect(carries('Booked on Thursdays', ['Thursday'])).toBe(false)
  })

  it('counts template titles and greeting, vocative and template FAQ questions', () => {
    const source = 'Agent: Good morning, Bright Smile Dental.\nCaller: Hi.'
    expect(isTemplateTitle('Dental Care: What You Need to Know', source)).toBe(true)
    expect(isTemplateTitle('Appointments: Technician in Focus', source)).toBe(true)
    expect(isTemplateTitle('Agent: Good morning, Bright Smile Dental.', source)).toBe(true)
    expect(isTemplateTitle('Chipped tooth repaired on Thursday with Dr. Patel', source)).toBe(false)
    expect(faqQuestions('1. What is said about Dr. Patel?\nThe answer.\n**Q: When is the visit?**\nThursday.')).toEqual([
      'What is said about Dr. Patel?',
      'When is the visit?',
    ])
    expect(isTemplateQuestion('ماذا قيل عن يا أحمد؟')).toBe(true)
    expect(holdsGreetingOrVocative('ماذا قيل عن يا أحمد؟')).toBe(true)
    expect(holdsGreetingOrVocative('#يا_أحمد')).toBe(true)
    expect(holdsGreetingOrVocative('#صباح_الخير')).toBe(true)
    expect(holdsGreetingOrVocative('Hello Karen, when is the visit?')).toBe(true)
    expect(holdsGreetingOrVocative('When is the appointment with Dr. Patel?')).toBe(false)
    expect(holdsGreetingOrVocative('متى موعد الدكتورة هند؟')).toBe(false)
  })
})
