import { describe, expect, it } from 'vitest'
import { loadCorpus, type CorpusAgent } from '../../../bench/understanding/corpus'
import { runScenarioInProcess } from '../../../bench/understanding/quick'
import type { DialogueAgent } from '../../../src/engines/dialogue/dialogue-engine'
import { createOfflineDialogueEngine } from '../../../src/engines/dialogue/offline-dialogue-engine'
import { planSlots } from '../../../src/engines/dialogue/slot-plan'
import { dialoguePhrases } from '../../../src/engines/dialogue/slot-questions'
import { arabicNumber, dateInWords, englishNumber, spellLatinForArabic, timeInWords } from '../../../src/engines/dialogue/spoken-words'
import type { OutcomeShape } from '../../../src/shared/api/outcome-shape'
import { converse, said, templateAgent } from './template-agents'

/* How the offline agent speaks (issue 23, item 4): to the caller, in its own language, in words, never like a form. */

// Wednesday 11 November 2026, 10:00.
const now = new Date(2026, 10, 11, 10, 0)
const engine = createOfflineDialogueEngine({ now: () => now })
const corpus = loadCorpus()

const asAgent = (agent: CorpusAgent): DialogueAgent => ({
  agentName: agent.body.agentName,
  lang: agent.body.lang,
  greeting: agent.body.greetingMessage,
  preamble: agent.body.preamble,
  outcome: agent.body.outcome,
  outcomeShape: agent.body.outcomeResponseShape,
  smartCallEnd: true,
})
const TEMPLATES = [
  'event-registration-confirmation-ar.json',
  'hotel-concierge-ar.json',
  'order-delivery-follow-up-ar.json',
  'payment-reminder-ar.json',
  'real-estate-lead-qualification-ar.json',
  'clinic-appointment-booking-en.json',
  'customer-support-triage-en.json',
  'job-candidate-prescreening-en.json',
  'restaurant-reservation-en.json',
  'satisfaction-survey-csat-nps-en.json',
]
/** Every agent the repository holds: the bench corpus and the templates. */
const ALL_AGENTS: DialogueAgent[] = [...[...corpus.agents.values()].map(asAgent), ...TEMPLATES.map((file) => templateAgent(file))]

const LATIN = /[A-Za-z]/
const FORMAT_NOTE = /YYYY|MM-DD|HH:MM|hh:mm|E\.164|ISO ?8601|بصيغة/
/** A description's third person, which a question to the caller never keeps. */
const THIRD_PERSON_EN = /\bthe (?:caller|customer|candidate|applicant|guest)\b|\bthey\b|\btheir\b/i
const THIRD_PERSON_AR = /(?:^|\s)(?:العميل|النزيل|المتصل)(?:\s|[؟?:،]|$)/
/** "customer name: Emily", "الاسم: أحمد": a form's pairs. */
const FIELD_VALUE_PAIR = /[\p{L}\d]: [\p{L}\d]/u

describe('questions', () => {
  it('speak to the caller in the second person, in the agent’s language only, without format notes, for every agent in the repository', () => {
    for (const agent of ALL_AGENTS) {
      for (const gender of [undefined, 'female'] as const) {
        const phrases = dialoguePhrases(agent.lang, gender)
        for (const slot of planSlots(agent.outcomeShape).filter((slot) => !slot.inferred)) {
          const lines = [
            phrases.question(slot),
            phrases.simpleQuestion(slot),
            ...[0, 1, 2].flatMap((n) => [phrases.reask(slot, n), phrases.askAgain(slot, n)]),
          ]
          for (const line of lines) {
            const where = `${agent.agentName} / ${slot.key}: ${line}`
            expect(line, where).not.toMatch(FORMAT_NOTE)
            expect(line, where).toMatch(/[?؟]/)
            if (agent.lang === 'ar') {
              expect(line, where).not.toMatch(LATIN)
              expect(line, where).not.toMatch(THIRD_PERSON_AR)
            } else expect(line, where).not.toMatch(THIRD_PERSON_EN)
          }
        }
      }
    }
  })

  it('change their words from one re-ask to the next, and differ from the first question', () => {
    for (const agent of ALL_AGENTS) {
      const phrases = dialoguePhrases(agent.lang, undefined)
      for (const slot of planSlots(agent.outcomeShape).filter((slot) => !slot.inferred)) {
        const first = phrases.question(slot)
        expect(phrases.reask(slot, 0), slot.key).not.toBe(first)
        expect(phrases.reask(slot, 1), slot.key).not.toBe(phrases.reask(slot, 0))
        expect(phrases.askAgain(slot, 1), slot.key).not.toBe(phrases.askAgain(slot, 0))
        // Deterministic: the same turn gives the same words.
        expect(phrases.reask(slot, 7)).toBe(phrases.reask(slot, 7))
      }
    }
  })

  it('ask an undescribed count by what it counts (“How many guests?”), a quantity as a thing, and a plural as one', () => {
    const shape: OutcomeShape = {
      type: 'object',
      properties: {
        guests: { type: 'integer' },
        adultTickets: { type: 'integer' },
        numberOfNights: { type: 'integer' },
        status: { type: 'integer' },
        notes: { type: 'string' },
      },
      required: ['guests', 'adultTickets', 'numberOfNights', 'status', 'notes'],
    }
    const phrases = dialoguePhrases('en', undefined)
    const questions = planSlots(shape).map((slot) => phrases.question(slot))
    expect(questions).toEqual([
      'How many guests?',
      'How many adult tickets?',
      'What is the number of nights?',
      'What is the status?',
      'What are the notes?',
    ])
    const [guests] = planSlots(shape)
    expect(phrases.reask(guests!, 0)).toBe("Sorry, I didn't quite catch that. How many guests?")
  })

  it('ask an English-described field of an Arabic agent in Arabic, from the glossary or a neutral phrase', () => {
    const shape: OutcomeShape = {
      type: 'object',
      properties: {
        orderNumber: { type: 'string', description: 'Order number, two letters, a dash, five digits (e.g. BN-58231)' },
        visitTime: { type: 'string', description: 'Time of the visit, HH:MM' },
        zorblax: { type: 'string', description: 'The zorblax quotient' },
      },
      required: ['orderNumber', 'visitTime', 'zorblax'],
    }
    const phrases = dialoguePhrases('ar', undefined)
    const [order, time, unknown] = planSlots(shape)
    expect(phrases.question(order!)).toBe('ممكن تقول لي رقم الطلب؟')
    expect(phrases.question(time!)).toBe('ممكن تقول لي الوقت؟')
    expect(phrases.question(unknown!)).not.toMatch(LATIN)
  })

  it('offer an enum’s choices in the agent’s language when the caller hesitates or answers outside them, and store nothing', async () => {
    const english = engine.startSession(asAgent(corpus.agents.get('en-restaurant')!), [])
    const turns = await converse(english, ['Emily Zhang', 'two of us', 'Sunday', '1 pm', "hmm, I'm not sure"])
    expect(said(turns[5]!)).toMatch(/Where would you like to sit: indoor, terrace or window\?$/)
    expect(english.outcomeSoFar!().result).not.toHaveProperty('seating')
    const arabic = engine.startSession(asAgent(corpus.agents.get('ar-restaurant')!), [])
    const arabicTurns = await converse(arabic, ['أحمد علي', 'أربعة', 'الجمعة', 'الساعة ثمانية مساء', 'مش عارف والله'])
    expect(said(arabicTurns[5]!)).toContain('داخلي أو خارجي أو قسم العائلات؟')
    expect(said(arabicTurns[5]!)).not.toMatch(LATIN)
    expect(arabic.outcomeSoFar!().result).not.toHaveProperty('seating')
    // An answer outside the choices: the choices again, in other words than the first re-ask.
    const outside = engine.startSession(asAgent(corpus.agents.get('en-delivery')!), [])
    const outsideTurns = await converse(outside, ['Hannah Brooks', 'BN-58231', 'the weather was lovely'])
    expect(said(outsideTurns[3]!)).toContain('damaged, missing items, late, wrong item or never arrived?')
  })
})

describe('the read-back', () => {
  it('is one sentence in words, with booleans as phrases and no "field: value" pairs, in English and Arabic', async () => {
    const english = engine.startSession(asAgent(corpus.agents.get('en-restaurant')!), [])
    const turns = await converse(english, ['Emily Zhang', 'two', 'Sunday the 29th of November', '1 pm', 'indoor', 'yes please'])
    expect(said(turns[6]!)).toContain(
      "So that's under Emily Zhang, two people coming, on Sunday the twenty-ninth of November at one in the afternoon, indoor seating and with a high chair for a child. Is that right?",
    )
    const arabic = engine.startSession(asAgent(corpus.agents.get('ar-delivery')!), [])
    const arabicTurns = await converse(arabic, ['ماجد الحربي', 'MX-77102', 'ما وصلني أبدًا', 'لا، ما أبي فلوس'])
    const readBack = said(arabicTurns[4]!)
    expect(readBack).toContain('للتأكيد، باسم ماجد الحربي، ورقم الطلب إم إكس - سبعة سبعة واحد صفر اثنين، ')
    expect(readBack).toContain('ولا تريد استرجاع المبلغ')
    expect(readBack).not.toMatch(LATIN)
  })

  it('reads every corpus call back as one sentence without pairs, and an Arabic agent never says a Latin letter', async () => {
    for (const scenario of corpus.scenarios) {
      const agent = corpus.agents.get(scenario.agent)!
      const result = await runScenarioInProcess(agent, scenario, now)
      const agentTurns = result.transcript.filter((turn) => turn.role === 'agent').slice(1)
      for (const turn of agentTurns) {
        if (agent.body.lang === 'ar') expect(turn.text, scenario.id).not.toMatch(LATIN)
        expect(turn.text, scenario.id).not.toMatch(FORMAT_NOTE)
        const readBack = /(?:So that's|للتأكيد،) (.*?)\. (?:Is that right\?|هل هذا صحيح؟)$/.exec(turn.text)
        if (!readBack) continue
        expect(readBack[1], scenario.id).not.toMatch(FIELD_VALUE_PAIR)
        // One sentence: no stop inside it (only agents of eight fields or more take two).
        expect(readBack[1], `${scenario.id}: ${turn.text}`).not.toMatch(/[.!?؟] /)
        expect(readBack[1], scenario.id).not.toMatch(/\b(?:yes|no|true|false)\b|(?:^|\s)(?:نعم|لا)(?:،|$)/)
      }
    }
  }, 60_000)

  it('takes two sentences for an agent of twenty fields, and a dialogue turn stays under 20 ms', async () => {
    const properties: Record<string, OutcomeShape> = {}
    for (let i = 1; i <= 20; i++) properties[`answer${i}`] = { type: 'integer', description: `How many widgets of batch ${i} you need` }
    const agent: DialogueAgent = {
      ...asAgent(corpus.agents.get('en-lead')!),
      outcomeShape: { type: 'object', properties, required: Object.keys(properties) },
    }
    const session = engine.startSession(agent, [])
    const answers = Array.from({ length: 20 }, (_, i) => String(i + 1))
    const started = performance.now()
    const turns = await converse(session, answers)
    const perTurn = (performance.now() - started) / answers.length
    const readBack = said(turns[20]!)
    expect(readBack).toMatch(
      /^[\w ]+\. So that's one widget of batch 1 you need, .*\. Then .* and twenty widgets of batch 20 you need\. Is that right\?$/,
    )
    expect(readBack.match(/\. /g)).toHaveLength(3)
    expect(readBack).toContain('twenty widgets')
    expect(perTurn).toBeLessThan(20)
  })
})

describe('numbers, dates and times in words', () => {
  it('says them in English and in plain spoken Standard Arabic', () => {
    expect(englishNumber(2)).toBe('two')
    expect(englishNumber(1250)).toBe('one thousand two hundred and fifty')
    expect(englishNumber(76)).toBe('seventy-six')
    expect(arabicNumber(25)).toBe('خمسة وعشرين')
    expect(arabicNumber(2500)).toBe('ألفين وخمسمئة')
    expect(arabicNumber(3000)).toBe('ثلاثة آلاف')
    expect(dateInWords('2026-11-29', 'en', 2026)).toBe('Sunday the twenty-ninth of November')
    expect(dateInWords('2027-01-01', 'en', 2026)).toBe('Friday the first of January, twenty twenty-seven')
    expect(dateInWords('2026-11-29', 'ar', 2026)).toBe('الأحد التاسع والعشرين من نوفمبر')
    expect(dateInWords('2026-12-11', 'ar', 2026)).toBe('الجمعة الحادي عشر من ديسمبر')
    expect(timeInWords('13:00', 'en')).toBe('one in the afternoon')
    expect(timeInWords('19:30', 'en')).toBe('half past seven in the evening')
    expect(timeInWords('08:45', 'en')).toBe('quarter to nine in the morning')
    expect(timeInWords('12:00', 'en')).toBe('noon')
    expect(timeInWords('13:00', 'ar')).toBe('الساعة الواحدة ظهرًا')
    expect(timeInWords('19:30', 'ar')).toBe('الساعة السابعة والنصف مساءً')
    expect(timeInWords('10:05', 'ar')).toBe('الساعة العاشرة وخمس دقائق صباحًا')
    expect(spellLatinForArabic('رقم الطلب BN-58231')).toBe('رقم الطلب بي إن - خمسة ثمانية اثنين ثلاثة واحد')
    expect(spellLatinForArabic('بدون حروف 123')).toBe('بدون حروف 123')
  })
})
