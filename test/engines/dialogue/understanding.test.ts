import { describe, expect, it } from 'vitest'
import { withoutOpeners } from '../../../src/engines/dialogue/caller-intents'
import { createOfflineDialogueEngine } from '../../../src/engines/dialogue/offline-dialogue-engine'
import type { DialogueAgent } from '../../../src/engines/dialogue/dialogue-engine'
import { planSlots, type Slot } from '../../../src/engines/dialogue/slot-plan'
import { describedMemberNames, extractName, extractSlotValue } from '../../../src/engines/dialogue/value-extraction'
import { extractTime, openingHours } from '../../../src/engines/dialogue/spoken-dates'
import { extractIdentifier } from '../../../src/engines/dialogue/spoken-identifiers'
import type { OutcomeShape } from '../../../src/shared/api/outcome-shape'
import { collect, said } from './template-agents'

/*
 * Issue 23, items 1–3: what the offline engine understands of real callers. Every example here
 * is our own, written for these tests (not the bench corpus's sentences).
 */

// Tuesday 10 March 2026, 09:00 local time.
const NOW = new Date(2026, 2, 10, 9, 0)

const SHAPE: OutcomeShape = {
  type: 'object',
  properties: {
    guestName: { type: 'string', description: 'اسم الضيف' },
    room: { type: 'string', enum: ['single', 'double', 'suite'], description: 'نوع الغرفة: مفردة أو مزدوجة أو جناح' },
    problem: { type: 'string', enum: ['damaged', 'missing_items', 'late', 'wrong_item', 'never_arrived'], description: 'What went wrong' },
    specialty: { type: 'string', enum: ['general', 'dental', 'dermatology', 'pediatrics'], description: 'Which doctor' },
  },
  required: ['guestName', 'room', 'problem', 'specialty'],
}
const slots = new Map(planSlots(SHAPE).map((slot) => [slot.key, slot]))
const slot = (key: string): Slot => slots.get(key)!

describe('enum members by meaning', () => {
  it('takes the names a description gives the members, in order, only when there are as many as members', () => {
    expect([...describedMemberNames('نوع الغرفة: مفردة أو مزدوجة أو جناح', ['single', 'double', 'suite']).entries()]).toEqual([
      ['single', 'مفردة'],
      ['double', 'مزدوجة'],
      ['suite', 'جناح'],
    ])
    expect(describedMemberNames('Seat: inside, the patio or by the bar', ['indoor', 'patio', 'bar']).get('bar')).toBe('by the bar')
    // Two names for three members: no guessing.
    expect(describedMemberNames('نوع الغرفة: مفردة أو جناح', ['single', 'double', 'suite']).size).toBe(0)
  })

  it.each([
    ['room', 'أبغى جناح لو سمحت', 'suite'],
    ['room', 'المزدوجة أحسن', 'double'],
    ['problem', 'the box was totally crushed', 'damaged'],
    ['problem', 'الكرتونة وصلت متكسرة', 'damaged'],
    ['problem', "it still hasn't arrived and it's been a week", 'never_arrived'],
    ['problem', 'لسه ما وصلني شي', 'never_arrived'],
    ['problem', 'طلبت أربع قطع وجاني ثلاث، ناقصين', 'missing_items'],
    ['problem', 'they sent me a blue one, not what I ordered', 'wrong_item'],
    ['specialty', 'my daughter has a fever', 'pediatrics'],
    ['specialty', 'عندي وجع في ضرسي', 'dental'],
    ['specialty', 'حبوب في وجهي، أبي دكتور جلدية', 'dermatology'],
  ])('%s: %s → %s', (field, text, expected) => {
    expect(extractSlotValue(slot(field), text, NOW)).toBe(expected)
  })
})

describe('greetings and names', () => {
  it.each([
    ['ألو، مساء الخير، معاك منى', 'معاك منى'],
    ['Hey there, good evening. Table for two?', 'Table for two?'],
    ['السلام عليكم', ''],
    ['Hello!', ''],
    // A yes keeps its word: "yeah" and "اه" open answers.
    ['yeah, that works', 'yeah, that works'],
  ])('withoutOpeners(%s) → %s', (text, expected) => {
    expect(withoutOpeners(text)).toBe(expected)
  })

  it.each([
    ['هلا', undefined],
    ['مرحبتين، أنا سلمى الراشد', 'سلمى الراشد'],
    ['ألو', undefined],
    ['Hi there', undefined],
    ['Hi, is there parking near you?', undefined],
    ['هل عندكم موقف سيارات؟', undefined],
    ['For a cleaning, please.', undefined],
    ['Wonderful. The name is Oskar Lind.', 'Oskar Lind'],
    ['It is for my husband, Omar Haddad.', 'Omar Haddad'],
    ['Next Wednesday at five', undefined],
    ['اسمه فيصل العنزي', 'فيصل العنزي'],
    ['yusuf demir', 'Yusuf Demir'],
  ])('asked for the name, %s → %s', (text, expected) => {
    expect(extractName(text, false)).toBe(expected)
  })

  it('unasked, a name only after a cue, a greeting first or not', () => {
    expect(extractName('هلا والله، أنا بدر الزهراني وعندي مشكلة بالطلب', true)).toBe('بدر الزهراني')
    expect(extractName('Good morning, we need a table, name’s Ines Costa', true)).toBe('Ines Costa')
    expect(extractName('I need a table for six', true)).toBeUndefined()
  })

  it('answers a bare greeting and asks again, storing nothing', async () => {
    const agent: DialogueAgent = {
      agentName: 'Front desk',
      lang: 'ar',
      greeting: 'فندق النخيل، مساء الخير.',
      preamble: '',
      outcome: '',
      outcomeShape: SHAPE,
      smartCallEnd: true,
    }
    const session = createOfflineDialogueEngine({ now: () => NOW }).startSession(agent, [])
    const opening = said(await collect(session.open()))
    const reply = said(await collect(session.respond('ألو، هلا')))
    expect(reply).toContain(opening.split('. ').at(-1)!)
    expect(session.outcomeSoFar!().result).toEqual({})
    await collect(session.respond('أنا سلمى الراشد'))
    expect(session.outcomeSoFar!().result).toEqual({ guestName: 'سلمى الراشد' })
  })
})

describe('identifiers as people say them', () => {
  it.each([
    ['My booking code is ZK-40118.', {}, 'ZK-40118'],
    ['T R seven seven zero one four', { dashAfterLetters: true }, 'TR-77014'],
    ['جي إتش شرطة تسعة صفر واحد اتنين ستة', {}, 'GH-90126'],
    ['F as in Frank, Y as in yellow, dash, three three one five nine', {}, 'FY-33159'],
    // A later code in the same turn replaces an earlier one.
    ['رقمه AB-10001، لا غلطت، AB-10010', {}, 'AB-10010'],
    ['It is CD-55501, I ordered it last week', {}, 'CD-55501'],
    ['double four seven one two', {}, '44712'],
    ['٤٥٢٠٩', {}, '45209'],
    ['I really have no idea', {}, undefined],
  ])('%s → %s', (text, options, expected) => {
    expect(extractIdentifier(text, options)).toBe(expected)
  })

  it('an order-number field keeps letters, and a sentence is never stored as the code', () => {
    const [order] = planSlots({
      type: 'object',
      properties: { orderRef: { type: 'string', description: 'Order number: three letters, a dash, four digits' } },
      required: ['orderRef'],
    })
    expect(extractSlotValue(order!, 'it is QWE-1234', NOW)).toBe('QWE-1234')
    expect(extractSlotValue(order!, 'I will have to look for it in my emails', NOW)).toBeUndefined()
    // Unasked, only a code with letters, or one the caller names as the field.
    expect(extractSlotValue(order!, 'we are 12345 strong', NOW, true)).toBeUndefined()
    expect(extractSlotValue(order!, 'the order is 88123', NOW, true)).toBe('88123')
  })
})

describe('times in words, read inside the opening hours', () => {
  it('finds the hours an agent keeps in its own words', () => {
    expect(openingHours('Our bakery is open from seven in the morning to two in the afternoon.')).toEqual({ opens: 7, closes: 14 })
    expect(openingHours('نستقبلكم من الساعة الخامسة مساءً حتى منتصف الليل.')).toEqual({ opens: 17, closes: 24 })
    expect(openingHours('Deliveries take three to five days.')).toBeUndefined()
  })

  it.each([
    ['ستة ونص المسا', {}, '18:30'],
    ['عشرة وربع الصبح', {}, '10:15'],
    ['حداشر الضهر', { asked: true }, '11:00'],
    ['eleven fifteen', { asked: true }, '11:15'],
    ['seven in the evening', {}, '19:00'],
    // Said bare: inside the hours when only one reading is.
    ['سبعة', { asked: true, hours: { opens: 17, closes: 24 } }, '19:00'],
    ['at nine', { hours: { opens: 7, closes: 14 } }, '09:00'],
    ['at nine', { hours: { opens: 17, closes: 23 } }, '21:00'],
  ])('%s → %s', (text, context, expected) => {
    expect(extractTime(text, context)).toBe(expected)
  })

  it('a bare number is not a time unless a time was asked', () => {
    expect(extractTime('تسعة')).toBeUndefined()
  })
})

describe('yes and no by meaning, and dates in the past', () => {
  const booleans = new Map(
    planSlots({
      type: 'object',
      properties: {
        firstStay: { type: 'boolean', description: 'Whether this is the guest’s first stay with us' },
        wantsInvoice: { type: 'boolean', description: 'Whether the caller wants a printed invoice' },
        needsParking: { type: 'boolean', description: 'Whether they need a parking space' },
      },
      required: ['firstStay', 'wantsInvoice', 'needsParking'],
    }).map((slot) => [slot.key, slot]),
  )
  it.each([
    ['firstStay', "Yes, we've stayed with you before", false],
    ['firstStay', 'أول مرة أجي عندكم', true],
    ['firstStay', 'لا، جيت قبل سنتين', false],
    ['wantsInvoice', 'بدي فاتورة مطبوعة لو سمحت', true],
    ['wantsInvoice', "I don't want any paper, thanks", false],
    ['needsParking', 'Sure', true],
    ['needsParking', 'the weather is nice', undefined],
  ])('%s: %s → %s', (field, text, expected) => {
    expect(extractSlotValue(booleans.get(field)!, text, NOW)).toBe(expected)
  })

  it('unasked, a boolean only when the turn names the field and wants it', () => {
    expect(extractSlotValue(booleans.get('needsParking')!, "we'll need parking for two cars", NOW, true)).toBe(true)
    expect(extractSlotValue(booleans.get('needsParking')!, 'the parking looked full', NOW, true)).toBeUndefined()
  })

  it.each([
    ['yesterday afternoon', '2026-03-09'],
    ['امبارح بالليل', '2026-03-09'],
    ['أول أمس', '2026-03-08'],
    ['قبل يومين', '2026-03-08'],
    ['three days ago', '2026-03-07'],
  ])('%s → %s', (text, expected) => {
    const [date] = planSlots({
      type: 'object',
      properties: { visitDate: { type: 'string', description: 'When they came' } },
      required: ['visitDate'],
    })
    expect(extractSlotValue(date!, text, NOW)).toBe(expected)
  })
})

describe('corrections without naming the field', () => {
  const shape: OutcomeShape = {
    type: 'object',
    properties: {
      guests: { type: 'integer', description: 'How many guests' },
      visitDate: { type: 'string', description: 'The day of the visit' },
      visitTime: { type: 'string', description: 'The time of the visit' },
      ticket: { type: 'string', description: 'Ticket number' },
    },
    required: ['guests', 'visitDate', 'visitTime', 'ticket'],
  }
  const agent = (lang: 'ar' | 'en'): DialogueAgent => ({
    agentName: 'Museum',
    lang,
    greeting: '',
    preamble: 'Open from ten in the morning to six in the evening.',
    outcome: '',
    outcomeShape: shape,
    smartCallEnd: true,
  })

  it('takes a value back at the read-back, in English and Arabic, and reads back again', async () => {
    const english = createOfflineDialogueEngine({ now: () => NOW }).startSession(agent('en'), [])
    await collect(english.open())
    for (const turn of ['four', 'on Thursday', 'at 2 pm', 'TK-5521']) await collect(english.respond(turn))
    const reply = said(await collect(english.respond('Not Thursday, Saturday.')))
    expect(reply).toContain("So that's")
    expect(english.outcomeSoFar!().result).toMatchObject({ visitDate: '2026-03-14', guests: 4, visitTime: '14:00' })

    const arabic = createOfflineDialogueEngine({ now: () => NOW }).startSession(agent('ar'), [])
    await collect(arabic.open())
    for (const turn of ['خمسة', 'الأحد', 'الساعة ثلاثة العصر', 'TK-5521']) await collect(arabic.respond(turn))
    await collect(arabic.respond('لا مش الأحد، خليها الاثنين'))
    expect(arabic.outcomeSoFar!().result).toMatchObject({ visitDate: '2026-03-16', guests: 5, visitTime: '15:00' })
  })

  it('takes a value back while another field is asked, and a code corrected in the same turn keeps the last', async () => {
    const session = createOfflineDialogueEngine({ now: () => NOW }).startSession(agent('en'), [])
    await collect(session.open())
    await collect(session.respond('six of us'))
    await collect(session.respond('Friday'))
    // Asked the time, the caller goes back to the day.
    const reply = said(await collect(session.respond('actually no, not Friday, Sunday')))
    expect(reply).toMatch(/time/i)
    expect(session.outcomeSoFar!().result).toMatchObject({ guests: 6, visitDate: '2026-03-15' })
    await collect(session.respond('half past eleven'))
    await collect(session.respond('MP-40012, no wait, MP-40021'))
    expect(session.outcomeSoFar!().result).toMatchObject({ visitTime: '11:30', ticket: 'MP-40021' })
  })
})

describe('callers who speak in their own order', () => {
  const shape: OutcomeShape = {
    type: 'object',
    properties: {
      guestName: { type: 'string', description: 'The name for the booking' },
      guestCount: { type: 'integer', description: 'How many people' },
      bookingDate: { type: 'string', description: 'The day' },
      bookingTime: { type: 'string', description: 'The time' },
      area: { type: 'string', enum: ['inside', 'garden', 'rooftop'], description: 'المكان: داخل أو الحديقة أو السطح' },
      firstTime: { type: 'boolean', description: 'Whether it is their first time here' },
    },
    required: ['guestName', 'guestCount', 'bookingDate', 'bookingTime', 'area', 'firstTime'],
  }
  const start = (lang: 'ar' | 'en') => {
    const session = createOfflineDialogueEngine({ now: () => NOW }).startSession(
      {
        agentName: 'Cafe',
        lang,
        greeting: '',
        preamble: 'We open from five in the evening to midnight.',
        outcome: '',
        outcomeShape: shape,
        smartCallEnd: true,
      },
      [],
    )
    return session
  }

  it('fills every field a turn holds, whatever was asked (Arabic)', async () => {
    const session = start('ar')
    await collect(session.open())
    await collect(session.respond('مساء الخير، بدي طاولة لستة يوم السبت على السطح'))
    expect(session.outcomeSoFar!().result).toMatchObject({ guestCount: 6, bookingDate: '2026-03-14', area: 'rooftop' })
    await collect(session.respond('الساعة تسعة، وهاي أول مرة نيجي'))
    expect(session.outcomeSoFar!().result).toMatchObject({ bookingTime: '21:00', firstTime: true })
  })

  it('fills every field a turn holds, whatever was asked (English)', async () => {
    const session = start('en')
    await collect(session.open())
    await collect(session.respond("Hi, a table for three in the garden please, it's my first time"))
    expect(session.outcomeSoFar!().result).toMatchObject({ guestCount: 3, area: 'garden', firstTime: true })
    // Asked the day, the caller gives the time with it.
    await collect(session.respond('Lena Fischer'))
    await collect(session.respond('Friday, half past seven'))
    expect(session.outcomeSoFar!().result).toMatchObject({ guestName: 'Lena Fischer', bookingDate: '2026-03-13', bookingTime: '19:30' })
  })

  it('takes the value after a take-back in the answer to the question asked ("two, no, four")', async () => {
    const session = start('en')
    await collect(session.open())
    await collect(session.respond('Noor Saleh'))
    await collect(session.respond('two, no, four of us'))
    expect(session.outcomeSoFar!().result).toMatchObject({ guestCount: 4 })
  })
})

describe('numbers that name their field, and a no that is not a take-back', () => {
  const shape: OutcomeShape = {
    type: 'object',
    properties: {
      teamSize: { type: 'integer', description: 'How many people work there' },
      monthlyRent: { type: 'integer', description: 'The monthly rent in dollars' },
      wantsCall: { type: 'boolean', description: 'Whether they want a call back' },
    },
    required: ['teamSize', 'monthlyRent', 'wantsCall'],
  }
  const start = () => {
    const session = createOfflineDialogueEngine({ now: () => NOW }).startSession(
      { agentName: 'Offices', lang: 'en', greeting: '', preamble: '', outcome: '', outcomeShape: shape, smartCallEnd: true },
      [],
    )
    return session
  }

  it('asked one number, a turn that names another field gives it that one, and the question stays', async () => {
    const session = start()
    await collect(session.open())
    const reply = said(await collect(session.respond('well the rent is killing us, about nineteen hundred')))
    expect(session.outcomeSoFar!().result).toEqual({ monthlyRent: 1900 })
    expect(reply).toMatch(/how many people work there/i)
    await collect(session.respond('we are nine staff'))
    expect(session.outcomeSoFar!().result).toEqual({ monthlyRent: 1900, teamSize: 9 })
  })

  it('"no, but I want to know why" to a yes/no question is a no', async () => {
    const session = start()
    await collect(session.open())
    await collect(session.respond('nine people'))
    await collect(session.respond('1900'))
    await collect(session.respond('لا، بس أبي أعرف ليش'))
    expect(session.outcomeSoFar!().result).toMatchObject({ wantsCall: false })
  })
})

describe('speaking like a person', () => {
  const shape: OutcomeShape = {
    type: 'object',
    properties: {
      orderNumber: { type: 'string', description: 'Order number: three letters, a dash, four digits' },
      trackingCode: { type: 'string', description: 'The tracking code, two letters then six digits' },
    },
    required: ['orderNumber', 'trackingCode'],
  }
  it('an Arabic agent never says the English words of a field described in English; no format notes in English', async () => {
    const arabic = createOfflineDialogueEngine({ now: () => NOW }).startSession(
      { agentName: 'x', lang: 'ar', greeting: '', preamble: '', outcome: '', outcomeShape: shape, smartCallEnd: true },
      [],
    )
    const question = said(await collect(arabic.open()))
    expect(question).toContain('رقم الطلب')
    expect(question).not.toMatch(/[A-Za-z]/)
    const second = said(await collect(arabic.respond('ABC-1234')))
    expect(second).toContain('رمز التتبع')
    expect(second).not.toMatch(/[A-Za-z]/)
    expect(arabic.outcomeSoFar!().result).toEqual({ orderNumber: 'ABC-1234' })
    const english = createOfflineDialogueEngine({ now: () => NOW }).startSession(
      { agentName: 'x', lang: 'en', greeting: '', preamble: '', outcome: '', outcomeShape: shape, smartCallEnd: true },
      [],
    )
    const asked = said(await collect(english.open()))
    expect(asked).toContain('order number')
    expect(asked).not.toMatch(/letters|digits|dash/)
  })
})

describe('off-topic questions', () => {
  it('are never stored as a value of a free-form field', () => {
    const [when, why] = planSlots({
      type: 'object',
      properties: {
        callbackDate: { type: 'string', description: 'When to call back' },
        reason: { type: 'string', description: 'Why they called' },
      },
      required: ['callbackDate', 'reason'],
    })
    expect(extractSlotValue(when!, 'do you open on Sundays?', NOW)).toBeUndefined()
    expect(extractSlotValue(when!, 'sometime next week', NOW)).toBe('sometime next week')
    expect(extractSlotValue(why!, 'هل عندكم موقف؟', NOW)).toBeUndefined()
  })

  it("keep a caller's words for a date only when they speak of a time, never a hesitation", () => {
    const [when] = planSlots({
      type: 'object',
      properties: { callbackDate: { type: 'string', description: 'When to call back' } },
      required: ['callbackDate'],
    })
    expect(extractSlotValue(when!, 'whenever suits you really', NOW)).toBe('whenever suits you really')
    expect(extractSlotValue(when!, 'بعد العصر إن شاء الله', NOW)).toBe('بعد العصر إن شاء الله')
    expect(extractSlotValue(when!, 'آخر الأسبوع', NOW)).toBe('آخر الأسبوع')
    expect(extractSlotValue(when!, 'اسمه... إيه... دي أول مرة ييجي عندكم', NOW)).toBeUndefined()
    expect(extractSlotValue(when!, 'um, let me think, my wife handles that', NOW)).toBeUndefined()
  })
})
