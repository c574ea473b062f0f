import { describe, expect, it } from 'vitest'
import { planSlots, type Slot } from '../../../src/engines/dialogue/slot-plan'
import { extractSlotValue } from '../../../src/engines/dialogue/value-extraction'
import type { OutcomeShape } from '../../../src/shared/api/outcome-shape'

// Wednesday 11 November 2026, 10:00 local time.
const NOW = new Date(2026, 10, 11, 10, 0)

const SHAPE: OutcomeShape = {
  type: 'object',
  properties: {
    fullName: { type: 'string' },
    partySize: { type: 'integer', description: 'Number of guests.' },
    amount: { type: 'number', description: 'Amount to pay.' },
    stillInterested: { type: 'boolean', description: 'True if the caller is still interested.' },
    seating: { type: 'string', enum: ['indoor', 'terrace', 'bar', 'no_preference'] },
    channel: { type: 'string', enum: ['whatsapp', 'email', 'both', 'none'] },
    mode: { type: 'string', enum: ['in_person', 'online'] },
    requestType: { type: 'string', enum: ['new_booking', 'reschedule', 'cancellation'] },
    city: { type: 'string', enum: ['الرياض', 'جدة', 'الدمام'] },
    date: { type: 'string', description: 'Reservation date as YYYY-MM-DD.' },
    time: { type: 'string', description: 'Reservation time as 24-hour HH:MM.' },
    contactEmail: { type: 'string' },
    phoneNumber: { type: 'string' },
    notes: { type: 'array', items: { type: 'string' } },
  },
  required: [
    'fullName',
    'partySize',
    'amount',
    'stillInterested',
    'seating',
    'channel',
    'mode',
    'requestType',
    'city',
    'date',
    'time',
    'contactEmail',
    'phoneNumber',
    'notes',
  ],
}
const slots = new Map(planSlots(SHAPE).map((slot) => [slot.key, slot]))
const slot = (key: string): Slot => slots.get(key)!

type Row = [field: string, said: string, expected: unknown]

const ENGLISH: Row[] = [
  ['fullName', 'my name is sara ali', 'Sara Ali'],
  ['fullName', "I'm John Smith, calling about my booking", 'John Smith'],
  ['fullName', 'Priya Shah', 'Priya Shah'],
  ['fullName', 'um, this is David', 'David'],
  ['fullName', 'it is Maria Lopez.', 'Maria Lopez'],
  ['partySize', 'four people', 4],
  ['partySize', 'we are 6', 6],
  ['partySize', 'twenty five', 25],
  ['partySize', 'a hundred and ten', 110],
  ['partySize', 'just two of us', 2],
  ['amount', '1,250.50', 1250.5],
  ['amount', 'three hundred', 300],
  ['partySize', 'no idea', undefined],
  ['stillInterested', 'yes', true],
  ['stillInterested', 'yeah, definitely', true],
  ['stillInterested', 'sure', true],
  ['stillInterested', "that's correct", true],
  ['stillInterested', 'no', false],
  ['stillInterested', 'nope, not anymore', false],
  ['stillInterested', 'I know', undefined],
  ['seating', 'on the terrace please', 'terrace'],
  ['seating', 'inside', 'indoor'],
  ['seating', 'terrase', 'terrace'],
  ['seating', "I don't mind, no preference", 'no_preference'],
  ['channel', 'whatsapp is fine', 'whatsapp'],
  ['channel', 'send it by e-mail', 'email'],
  ['channel', 'both please', 'both'],
  ['mode', "I'll join online", 'online'],
  ['mode', 'in person', 'in_person'],
  ['requestType', 'I want to cancel', 'cancellation'],
  ['requestType', "I'd like to book an appointment", 'new_booking'],
  ['requestType', 'I need to change my appointment', 'reschedule'],
  ['date', 'today', '2026-11-11'],
  ['date', 'tomorrow please', '2026-11-12'],
  ['date', 'next Monday', '2026-11-16'],
  ['date', 'on Friday', '2026-11-13'],
  ['date', 'on the 5th', '2026-12-05'],
  ['date', '5/12', '2026-12-05'],
  ['date', 'December the 24th', '2026-12-24'],
  ['date', '25/12/2026', '2026-12-25'],
  ['date', 'sometime soon', undefined],
  ['time', 'at 3 pm', '15:00'],
  ['time', '7:30 pm', '19:30'],
  ['time', 'at eight in the evening', '20:00'],
  ['time', 'half past seven pm', '19:30'],
  ['time', 'noon', '12:00'],
  ['time', '19:45', '19:45'],
  ['contactEmail', 'sara.ali@example.com', 'sara.ali@example.com'],
  ['contactEmail', 'sara dot ali at example dot com', 'sara.ali@example.com'],
  ['phoneNumber', 'my number is 0501234567', '0501234567'],
  ['phoneNumber', '+44 20 7946 0958', '+442079460958'],
  ['phoneNumber', 'oh five oh one two three four five six seven', '0501234567'],
  ['phoneNumber', 'I am not sure', undefined],
  ['notes', 'towels, water and a pillow', ['towels', 'water', 'a pillow']],
  ['notes', 'no', []],
]

const ARABIC: Row[] = [
  ['fullName', 'اسمي سارة', 'سارة'],
  ['fullName', 'اسمي سارة العلي', 'سارة العلي'],
  ['fullName', 'معك أحمد الزهراني', 'أحمد الزهراني'],
  ['fullName', 'نورة', 'نورة'],
  ['fullName', 'انا اسمي خالد وابغى احجز', 'خالد'],
  ['partySize', 'خمسة وعشرين', 25],
  ['partySize', '٢٥', 25],
  ['partySize', 'أربعة أشخاص', 4],
  ['partySize', 'تلاتة', 3],
  ['partySize', 'خمسة عشر', 15],
  ['amount', 'ألف ومئتين وخمسين ريال', 1250],
  ['amount', 'مية وخمسين', 150],
  ['amount', '٣٤٩ ريال', 349],
  ['stillInterested', 'نعم', true],
  ['stillInterested', 'أيوه', true],
  ['stillInterested', 'ايوا اكيد', true],
  ['stillInterested', 'أكيد', true],
  ['stillInterested', 'صح', true],
  ['stillInterested', 'لا', false],
  ['stillInterested', 'لأ', false],
  ['stillInterested', 'لا شكرا', false],
  ['seating', 'جوه لو سمحت', 'indoor'],
  ['seating', 'برا على التراس', 'terrace'],
  ['channel', 'واتساب', 'whatsapp'],
  ['channel', 'على الإيميل', 'email'],
  ['channel', 'الاثنين', 'both'],
  ['mode', 'حضوريا إن شاء الله', 'in_person'],
  ['mode', 'عن بعد', 'online'],
  ['requestType', 'أبغى ألغي الموعد', 'cancellation'],
  ['requestType', 'حجز جديد', 'new_booking'],
  ['city', 'جده', 'جدة'],
  ['city', 'في الرياض', 'الرياض'],
  ['city', 'الدمام', 'الدمام'],
  ['date', 'بكرة', '2026-11-12'],
  ['date', 'غداً', '2026-11-12'],
  ['date', 'اليوم', '2026-11-11'],
  ['date', 'بعد بكرة', '2026-11-13'],
  ['date', 'الاثنين القادم', '2026-11-16'],
  ['date', 'يوم الخميس', '2026-11-12'],
  ['date', 'يوم ٥', '2026-12-05'],
  ['date', '٢٤ ديسمبر', '2026-12-24'],
  ['time', 'الساعة ثلاثة', '15:00'],
  ['time', 'الساعة ٨ مساءً', '20:00'],
  ['time', 'الساعة سبعة ونص بالليل', '19:30'],
  ['time', 'الثالثة والنصف عصرًا', '15:30'],
  ['time', 'الساعة عشرة الصبح', '10:00'],
  ['contactEmail', 'الإيميل sara@example.com', 'sara@example.com'],
  ['phoneNumber', 'رقمي ٠٥٠١٢٣٤٥٦٧', '0501234567'],
  ['phoneNumber', '٠٥٥ ١٢٣ ٤٥٦٧', '0551234567'],
  ['notes', 'اتصل قبل الوصول، والشقة رقم ٥', ['اتصل قبل الوصول', 'الشقة رقم ٥']],
  ['notes', 'ما في', []],
]

describe('value extraction, English', () => {
  it.each(ENGLISH)('%s ← %j', (field, said, expected) => {
    expect(extractSlotValue(slot(field), said, NOW)).toEqual(expected)
  })
})

describe('value extraction, Arabic', () => {
  it.each(ARABIC)('%s ← %j', (field, said, expected) => {
    expect(extractSlotValue(slot(field), said, NOW)).toEqual(expected)
  })
})

describe('unasked fields (strict)', () => {
  it('takes only unmistakable values', () => {
    expect(extractSlotValue(slot('fullName'), "I'm Sara and I need 3 tickets", NOW, true)).toBe('Sara')
    expect(extractSlotValue(slot('partySize'), 'we are 4 people', NOW, true)).toBe(4)
    expect(extractSlotValue(slot('partySize'), 'at 4', NOW, true)).toBeUndefined()
    expect(extractSlotValue(slot('fullName'), "it's billing", NOW, true)).toBeUndefined()
    expect(extractSlotValue(slot('fullName'), "I'm having trouble", NOW, true)).toBeUndefined()
    expect(extractSlotValue(slot('stillInterested'), 'yes', NOW, true)).toBeUndefined()
    expect(extractSlotValue(slot('fullName'), 'اسمي سارة وعندي ٣ اشخاص', NOW, true)).toBe('سارة')
  })
})
