import Ajv from 'ajv'
import { describe, expect, it } from 'vitest'
import type { DialogueAgent, DialogueTurn } from '../../../src/engines/dialogue/dialogue-engine'
import { createOfflineDialogueEngine } from '../../../src/engines/dialogue/offline-dialogue-engine'
import { collect, converse, said, templateAgent } from './template-agents'

// Wednesday 11 November 2026, 10:00.
const engine = createOfflineDialogueEngine({ now: () => new Date(2026, 10, 11, 10, 0) })
const ajv = new Ajv({ strict: false })

/** The outcome of a scripted call, checked against the agent's shape by a separate ajv instance. */
async function outcomeOf(agent: DialogueAgent, turns: string[]) {
  const session = engine.startSession(agent, [])
  const answers = await converse(session, turns)
  const transcript: DialogueTurn[] = turns.map((text) => ({ role: 'caller', text }))
  const outcome = await session.outcome(transcript)
  const valid = ajv.validate(agent.outcomeShape!, outcome.result)
  return { answers, outcome, valid, errors: ajv.errors }
}

describe('offline dialogue: restaurant reservation (English)', () => {
  const agent = templateAgent('restaurant-reservation-en.json')

  it('opens with the greeting, sentence by sentence, and no extra question after a greeting that asks one', async () => {
    const session = engine.startSession(agent, [])
    const opening = await collect(session.open())
    expect(opening).toEqual([
      { type: 'say', text: 'Hi there, thanks for calling Olive & Ember, this is Leo.' },
      { type: 'say', text: 'Are you calling to book a table?' },
    ])
  })

  it('fills several fields from one answer, asks the rest in order, takes a correction, repeats, ends smartly', async () => {
    const { answers, outcome, valid, errors } = await outcomeOf(agent, [
      "yes I'd like to book a table",
      "I'm Sara Ali and we are 4 people for next friday",
      'at 8 pm',
      'say that again',
      'oh five oh one two three four five six seven',
      'terrace',
      "I'm allergic to nuts, and one vegetarian",
      'no',
      'no, the time is 7:30 pm',
      'yes',
    ])
    // The greeting's answer gave the request type; one answer gave the name, party size and date.
    expect(said(answers[1]!)).toContain('the name the booking is under')
    expect(said(answers[2]!)).toContain('the reservation time')
    expect(said(answers[3]!)).toContain('the mobile number for the confirmation text')
    expect(said(answers[4]!)).toBe(said(answers[3]!).replace(/^\S+\s/, ''))
    expect(said(answers[5]!)).toContain('requested seating: no preference, indoor, terrace, bar or accessible?')
    // One sentence a person would say, dates and times in words, never "field: value" pairs.
    expect(said(answers[8]!)).toMatch(
      /So that's .*under Sara Ali, .*on Friday the thirteenth of November at eight in the evening, .*terrace seating.*\. Is that right\?$/,
    )
    expect(said(answers[8]!)).not.toMatch(/\w: \w/)
    // "No, the time is 7:30 pm" corrects the time and reads back again.
    expect(said(answers[9]!)).toMatch(/at half past seven in the evening.*Is that right\?/)
    expect(answers[10]).toEqual([
      { type: 'say', text: "Thank you, that's everything I need. Have a great day, goodbye!" },
      { type: 'end-call', reason: 'smart-end' },
    ])
    expect(outcome).toEqual({
      result: {
        requestType: 'new_reservation',
        guestName: 'Sara Ali',
        partySize: 4,
        date: '2026-11-13',
        time: '19:30',
        status: 'request_confirmed',
        phoneNumber: '0501234567',
        seatingPreference: 'terrace',
        dietaryNotes: ["I'm allergic to nuts", 'one vegetarian'],
        specialOccasion: '',
      },
      complete: true,
    })
    expect(valid, JSON.stringify(errors)).toBe(true)
  })

  it('hears "there is none" of what it asked as empty, not as a value: "no allergies", "nobody has any allergies"', async () => {
    const opening = ['I would like to book a table for four next Friday at 7 pm', 'Sara Haddad', '0501234567', 'terrace']
    const noneSaid = ['No allergies', "we don't have any allergies", 'nobody in our party has food allergies', 'no dietary needs thanks']
    for (const none of noneSaid) {
      const { outcome } = await outcomeOf(agent, [...opening, none, 'no special occasion', 'yes'])
      expect(outcome.result, none).toMatchObject({ dietaryNotes: [], specialOccasion: '' })
    }
    // A thing of its own, or a value put right, is kept.
    const kept = await outcomeOf(agent, [...opening, "I'm allergic to shellfish", 'not a birthday, an anniversary', 'yes'])
    expect(kept.outcome.result).toMatchObject({ dietaryNotes: ["I'm allergic to shellfish"], specialOccasion: 'an anniversary' })
  })

  it('keeps a "no" that names a thing as part of the value: "no nuts please" is what the kitchen must leave out', async () => {
    const opening = ['I would like to book a table for four next Friday at 7 pm', 'Sara Haddad', '0501234567', 'terrace']
    const cases: [string, string[]][] = [
      ['no nuts please', ['no nuts']],
      ['No nuts', ['No nuts']],
      ['no dairy and no gluten', ['no dairy', 'no gluten']],
      ['nothing with nuts please', ['nothing with nuts']],
      ['no shellfish for my wife', ['no shellfish for my wife']],
      ['لا مكسرات لو سمحت', ['لا مكسرات']],
      // Still nothing: a no alone, politely, or with the field's own words.
      ['no thanks', []],
      ['nope, none', []],
      ['no, nothing', []],
    ]
    for (const [said, notes] of cases) {
      const { outcome, valid } = await outcomeOf(agent, [...opening, said, 'no special occasion', 'yes'])
      expect(outcome.result, said).toMatchObject({ guestName: 'Sara Haddad', dietaryNotes: notes })
      expect(valid, said).toBe(true)
    }
  })

  it('without smartCallEnd, closes, keeps listening, and says goodbye to "no thanks"', async () => {
    const session = engine.startSession({ ...agent, smartCallEnd: false }, [])
    const answers = await converse(session, [
      'I want to book',
      'Sara',
      'two people',
      'tomorrow',
      'at 7 pm',
      "I don't know",
      'no preference',
      'no',
      'no',
      // Asked once more before the read-back (issue 23): still no answer, and it is not asked again.
      'still no idea',
      'yes',
      'can I bring a cake?',
      'no thanks',
    ])
    expect(said(answers[9]!)).toContain('Before we finish, let me come back to one thing.')
    expect(said(answers[10]!)).toContain("So that's")
    expect(said(answers[11]!)).toContain('Is there anything else I can help you with?')
    expect(answers[11]!.some((event) => event.type === 'end-call')).toBe(false)
    expect(said(answers[12]!)).toContain('a colleague will follow up')
    expect(answers[13]!.at(-1)).toEqual({ type: 'end-call', reason: 'goodbye' })
  })
})

describe('offline dialogue: corrections at the read-back', () => {
  const agent = { ...templateAgent('restaurant-reservation-en.json'), greeting: '' }
  const upToReadBack = ['a new reservation', 'Sara Ali', '4', 'tomorrow', 'at 8 pm', '0501234567', 'indoor', 'no', 'no']

  it('opens with the first question when there is no greeting', async () => {
    const session = engine.startSession(agent, [])
    expect(await collect(session.open())).toEqual([
      { type: 'say', text: 'Could you tell me what you wanted: new reservation, change, cancellation or inquiry only?' },
    ])
  })

  it('re-asks the field the caller names', async () => {
    const session = engine.startSession(agent, [])
    const answers = await converse(session, [...upToReadBack, 'no, the date is wrong', 'the day after tomorrow', 'yes'])
    expect(said(answers[9]!)).toContain("So that's")
    expect(said(answers[10]!)).toBe('Could you tell me the reservation date?')
    expect(said(answers[11]!)).toMatch(/on Friday the thirteenth of November.*Is that right\?$/)
    expect(answers[12]!.at(-1)).toEqual({ type: 'end-call', reason: 'smart-end' })
    expect((await session.outcome([])).result).toMatchObject({ date: '2026-11-13' })
  })

  it('re-asks the last field after a bare "no"', async () => {
    const session = engine.startSession(agent, [])
    const answers = await converse(session, [...upToReadBack, 'no'])
    expect(said(answers[10]!)).toBe('Sorry about that. Could you tell me the birthday, anniversary or other occasion?')
  })

  it('stops speaking when the host aborts', async () => {
    const session = engine.startSession(templateAgent('clinic-appointment-booking-en.json'), [])
    const controller = new AbortController()
    controller.abort()
    expect(await collect(session.open({ signal: controller.signal }))).toEqual([])
  })
})

describe('offline dialogue: clinic appointment booking (English)', () => {
  const agent = templateAgent('clinic-appointment-booking-en.json')

  it('re-asks an unintelligible answer once in a row, comes back to it once before the read-back, then moves on; goodbye ends the call with a partial, valid outcome', async () => {
    const { answers, outcome, valid } = await outcomeOf(agent, [
      'I need to change my appointment',
      'my name is Sara Ali',
      'um',
      'uh',
      'tuesday morning, or thursday at 3 pm',
      '14 March 1990',
      'yes',
      'yes',
      'first available',
      'no',
      'hmm',
      'goodbye',
    ])
    expect(said(answers[1]!)).toContain("the patient's full name")
    expect(said(answers[2]!)).toContain('the phone number to confirm the appointment on')
    expect(said(answers[3]!)).toBe("Sorry, I didn't quite catch that. What's the phone number to confirm the appointment on?")
    expect(said(answers[4]!)).toContain("No problem, let's move on.")
    expect(said(answers[4]!)).toContain('You can name several.')
    expect(said(answers[10]!)).toContain('Before we finish, let me come back to one thing.')
    expect(said(answers[10]!)).toContain('the phone number to confirm the appointment on')
    // Not a third time: the read-back follows.
    expect(said(answers[11]!)).not.toContain('the phone number')
    expect(said(answers[11]!)).toContain("So that's a reschedule, for Sara Ali,")
    expect(answers[12]).toEqual([
      { type: 'say', text: 'Thank you for calling. Goodbye!' },
      { type: 'end-call', reason: 'goodbye' },
    ])
    expect(outcome.complete).toBe(false)
    expect(outcome.problems).toEqual(['missing required field callbackPhone'])
    expect(outcome.result).toMatchObject({
      requestType: 'reschedule',
      patientName: 'Sara Ali',
      preferredSlots: ['tuesday morning', 'thursday at 3 pm'],
      status: 'incomplete',
    })
    expect(valid).toBe(false) // a required field is missing: the partial is valid in every other respect
  })

  it('asks boolean fields as yes/no questions in the second person', async () => {
    const session = engine.startSession(agent, [])
    const answers = await converse(session, ['book', 'Sara Ali', '0501234567', 'tomorrow at 9 am', 'no'])
    expect(said(answers[5]!)).toMatch(/^[\w ]+\. Is it true that the patient has never visited the clinic before\?$/)
  })
})

describe('offline dialogue: hotel concierge (Arabic)', () => {
  const agent = templateAgent('hotel-concierge-ar.json')

  it('takes the request from the open greeting, routes it, corrects the room number, and ends smartly', async () => {
    const { answers, outcome, valid, errors } = await outcomeOf(agent, [
      'أبغى مناشف إضافية لو سمحت',
      'غرفة ١٢٠٤',
      'عيد',
      'لا',
      'اسمي نورة',
      'الساعة ثمانية مساء',
      'لا، رقم الغرفة ١٢٠٥',
      'نعم',
    ])
    // The description speaks of "النزيل"; the question speaks to the caller.
    expect(said(answers[1]!)).toBe('شكرًا. ممكن تقول لي رقم غرفتك؟')
    // housekeeping was understood from "مناشف"; the department follows from it, so the next question is the urgency.
    expect(said(answers[2]!)).toContain('هل ينطبق ذلك: في الطوارئ أو الأعطال التي تمنع استخدام الغرفة؟')
    expect(said(answers[3]!)).toBe('هل ينطبق ذلك: في الطوارئ أو الأعطال التي تمنع استخدام الغرفة؟')
    expect(said(answers[4]!)).toContain('اسمك')
    expect(said(answers[6]!)).toMatch(/^.+ للتأكيد، رقم غرفتك 1204، .*هل هذا صحيح؟$/)
    expect(said(answers[7]!)).toContain('رقم غرفتك 1205')
    expect(answers[8]!.at(-1)).toEqual({ type: 'end-call', reason: 'smart-end' })
    expect(outcome).toEqual({
      result: {
        roomNumber: '1205',
        requestCategories: ['housekeeping'],
        requestDetails: 'أبغى مناشف إضافية لو سمحت',
        routedDepartment: 'housekeeping',
        isUrgent: false,
        resolution: 'request_logged',
        guestName: 'نورة',
        requestedTime: '20:00',
        guestSentiment: 'neutral',
      },
      complete: true,
    })
    expect(valid, JSON.stringify(errors)).toBe(true)
  })
})

describe('offline dialogue: event registration confirmation (Arabic)', () => {
  const agent = templateAgent('event-registration-confirmation-ar.json')

  it('offers enum members in Arabic and fills the outcome from Arabic answers', async () => {
    const { answers, outcome, valid, errors } = await outcomeOf(agent, [
      'نعم',
      'ايوه',
      'حضوري',
      'كرسي متحرك',
      'ممكن تعيد',
      'واتساب',
      'لا',
      'عبدالله القحطاني',
      'ما في',
      'لا',
      'نعم',
    ])
    expect(said(answers[1]!)).toBe('شكرًا. ممكن تقول لي موقفك من الحضور؟')
    expect(said(answers[3]!)).toContain('الترتيبات الخاصة التي طلبتها')
    expect(said(answers[4]!)).toContain('واتساب أو البريد الإلكتروني أو الاثنين أو لا شيء؟')
    expect(said(answers[5]!)).toBe(
      'ممكن تقول لي الوسيلة المفضلة لاستلام رمز الدخول أو الرابط والتذكير: واتساب أو البريد الإلكتروني أو الاثنين أو لا شيء؟',
    )
    expect(outcome.result).toMatchObject({
      attendeeReached: true,
      attendanceStatus: 'confirmed',
      attendanceMode: 'in_person',
      specialRequirements: ['كرسي متحرك'],
      reminderChannel: 'whatsapp',
      wantsRecording: false,
      badgeName: 'عبدالله القحطاني',
    })
    expect(outcome.complete).toBe(true)
    expect(valid, JSON.stringify(errors)).toBe(true)
  })

  it('ends politely when the caller has no time for the call', async () => {
    const session = engine.startSession(agent, [])
    const answers = await converse(session, ['لا'])
    expect(answers[1]!.at(-1)).toEqual({ type: 'end-call', reason: 'goodbye' })
  })
})

describe('offline dialogue: real-estate lead qualification (Arabic), a nested object', () => {
  it('asks the nested fields and writes them back nested', async () => {
    const agent = templateAgent('real-estate-lead-qualification-ar.json')
    const turns = [
      'أكيد',
      'للسكن',
      'كاش',
      'خلال ثلاثة أشهر',
      'قريب من المدارس وفيه حديقة',
      'أبغى أحجز معاينة',
      'شقة',
      'ثلاث غرف',
      'مليون ريال',
      'الأحد الساعة ٥ العصر',
      'نعم',
    ]
    const { answers, outcome, valid, errors } = await outcomeOf(agent, turns)
    expect(said(answers[7]!)).toContain('عدد غرف النوم المطلوب')
    expect(said(answers[8]!)).toContain('ممكن تقول لي الميزانية التقريبية، مع العملة؟')
    // Nine fields: read back in two sentences, the date and the hour in words.
    expect(said(answers[10]!)).toContain('. وأيضًا نوع الوحدة شقة، ')
    expect(said(answers[10]!)).toContain(
      'وموعد المعاينة أو المكالمة المتفق عليه يوم الأحد الخامس عشر من نوفمبر الساعة الخامسة عصرًا. هل هذا صحيح؟',
    )
    expect(outcome).toEqual({
      result: {
        leadReached: true,
        purpose: 'residence',
        financingMethod: 'cash',
        purchaseTimeline: 'within_3_months',
        mustHaveRequirements: ['قريب من المدارس وفيه حديقة'],
        leadScore: 'warm',
        nextStep: 'viewing_booked',
        unitPreferences: { unitType: 'شقة', bedrooms: 3 },
        budget: 'مليون ريال',
        appointmentDateTime: '2026-11-15 17:00',
      },
      complete: true,
    })
    expect(valid, JSON.stringify(errors)).toBe(true)
  })
})

describe('offline dialogue: order delivery follow-up (Arabic), forms of address', () => {
  const agent = templateAgent('order-delivery-follow-up-ar.json')

  it('addresses a woman in the feminine, a man and an unknown caller in the masculine', async () => {
    const asked = async (gender?: 'male' | 'female') => {
      const session = engine.startSession(agent, [])
      if (gender) session.setCallerTraits({ gender })
      const answers = await converse(session, ['نعم', 'ايوه', 'امم'])
      return said(answers[2]!) + ' ' + said(answers[3]!)
    }
    const female = await asked('female')
    expect(female).toContain('ممكن تقولي لي ملاحظاتكِ لمندوب التوصيل؟')
    expect(female).toContain('عفوًا، لم أفهم جيدًا. ما ملاحظاتكِ لمندوب التوصيل؟')
    const male = await asked('male')
    expect(male).toContain('ممكن تقول لي ملاحظاتك لمندوب التوصيل؟')
    expect(male).toContain('عفوًا، لم أفهم جيدًا. ما ملاحظاتك لمندوب التوصيل؟')
    expect(await asked()).toBe(male)
  })

  it('says goodbye in Arabic to "مع السلامة" and thanks the caller in the right gender', async () => {
    const session = engine.startSession(agent, [])
    session.setCallerTraits({ gender: 'female' })
    const answers = await converse(session, ['نعم', 'مع السلامة'])
    expect(answers[2]).toEqual([
      { type: 'say', text: 'شكرًا لكِ على وقتك. مع السلامة.' },
      { type: 'end-call', reason: 'goodbye' },
    ])
    expect(await collect(session.respond('الو'))).toEqual([])
  })

  it('rebuilds the outcome from the transcript alone', async () => {
    const turns = ['نعم', 'نعم', 'اتصل قبل الوصول، والشقة رقم ٥', 'ما في مشاكل', 'لا', 'لا', 'لا', 'لا', 'نعم']
    const { outcome } = await outcomeOf(agent, turns)
    const fresh = engine.startSession(agent, [])
    const replayed = await fresh.outcome(turns.map((text) => ({ role: 'caller', text })))
    expect(replayed).toEqual(outcome)
    expect(outcome.result).toMatchObject({
      customerReached: true,
      addressConfirmed: true,
      driverNotes: ['اتصل قبل الوصول', 'الشقة رقم ٥'],
      reportedIssues: [],
      escalationNeeded: false,
      deliveryStatus: 'confirmed',
    })
    expect(outcome.complete).toBe(true)
  })
})

describe('offline dialogue without an outcome shape', () => {
  it('greets, acknowledges, and handles goodbye', async () => {
    const agent = { ...templateAgent('restaurant-reservation-en.json'), outcomeShape: null, greeting: 'Hello, this is Leo.' }
    const session = engine.startSession(agent, [])
    const answers = await converse(session, ['I just wanted to say the dinner was lovely', 'really great', 'bye'])
    expect(answers[0]).toEqual([{ type: 'say', text: 'Hello, this is Leo.' }])
    expect(said(answers[1]!)).toBe('I see.')
    expect(said(answers[2]!)).toBe('Understood.')
    expect(answers[3]!.at(-1)).toEqual({ type: 'end-call', reason: 'goodbye' })
    expect(await session.outcome([])).toEqual({ result: null, complete: true })
  })

  it('treats an empty object shape the same way', async () => {
    const agent = { ...templateAgent('hotel-concierge-ar.json'), outcomeShape: { type: 'object' as const, properties: {} } }
    const session = engine.startSession(agent, [])
    const answers = await converse(session, ['مرحبا'])
    expect(said(answers[1]!)).toBe('فهمت.')
    expect(await session.outcome([])).toEqual({ result: {}, complete: true })
  })
})

describe('reprompt', () => {
  it('asks the current question again, shorter', async () => {
    const session = engine.startSession(templateAgent('restaurant-reservation-en.json'), [])
    await converse(session, ['I want to book a table'])
    expect(said(await collect(session.reprompt!()))).toBe("What's the name the booking is under?")
  })
})
