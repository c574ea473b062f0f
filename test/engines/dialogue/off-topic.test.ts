import { describe, expect, it } from 'vitest'
import { loadCorpus, type CorpusAgent } from '../../../bench/understanding/corpus'
import type { DialogueAgent } from '../../../src/engines/dialogue/dialogue-engine'
import { answerFromPreamble, asksQuestion, asksWhoThisIs, indexPreamble } from '../../../src/engines/dialogue/off-topic'
import { createOfflineDialogueEngine } from '../../../src/engines/dialogue/offline-dialogue-engine'
import { collect, converse, said, templateAgent } from './template-agents'

/* The caller's own questions (issue 23, item 3): answered from the agent's words or honestly not, never stored, then the question again. */

const engine = createOfflineDialogueEngine({ now: () => new Date(2026, 10, 11, 10, 0) })
const corpus = loadCorpus()
const agentOf = (id: string, preamble?: string): DialogueAgent => {
  const { body }: CorpusAgent = corpus.agents.get(id)!
  return {
    agentName: body.agentName,
    lang: body.lang,
    greeting: body.greetingMessage,
    preamble: preamble ?? body.preamble,
    outcome: body.outcome,
    outcomeShape: body.outcomeResponseShape,
    smartCallEnd: true,
  }
}
/** The agent's answer to one question asked right after the greeting, and what the session stored from it. */
async function askFirst(agent: DialogueAgent, question: string) {
  const session = engine.startSession(agent, [])
  const [opening, answer] = await converse(session, [question])
  return { opening: said(opening!), answer: said(answer!), stored: session.outcomeSoFar!().result, session }
}

describe('off-topic questions', () => {
  it('are answered from the preamble in English, then the question comes again in other words', async () => {
    const restaurant = agentOf('en-restaurant')
    const vegetarian = await askFirst(restaurant, 'Sorry, before that, do you have vegetarian food?')
    expect(vegetarian.answer).toMatch(
      /^We have vegetarian and gluten-free dishes, .*\. (?:So|Coming back to my question|Now)[,:] what's the name the table is booked under\?$/,
    )
    expect(vegetarian.stored).toEqual({})
    const hours = await askFirst(restaurant, 'what are your opening hours')
    expect(hours.answer).toMatch(/^We open from noon to eleven at night, every day but Monday\./)
    const parking = await askFirst(restaurant, 'Is there somewhere to park?')
    expect(parking.answer).toContain('free parking behind the restaurant')
    // A lead-in ("before we start", "first") still makes it a question, not an answer to store.
    const leadIn = await askFirst(restaurant, 'Before we start, do you have parking nearby?')
    expect(leadIn.answer).toContain('free parking behind the restaurant')
    expect(leadIn.stored).toEqual({})
    const clinic = await askFirst(agentOf('en-clinic'), 'When are you open?')
    expect(clinic.answer).toMatch(/^The clinic is open Sunday to Thursday/)
  })

  it('are answered from the preamble in Arabic, clitics and verb prefixes stripped, and never stored as the name', async () => {
    const parking = await askFirst(agentOf('ar-restaurant'), 'عندكم مواقف؟')
    expect(parking.answer).toMatch(/^عندنا قسم عائلات وجلسات خارجية وأطباق نباتية، والمواقف مجانية\. .*الاسم الذي يُسجَّل عليه الحجز؟$/)
    expect(parking.stored).toEqual({})
    const leadIn = await askFirst(agentOf('ar-restaurant'), 'قبل ما نبدأ، هل عندكم موقف سيارات؟')
    expect(leadIn.answer).toContain('والمواقف مجانية')
    expect(leadIn.stored).toEqual({})
    // Also as the answer to a greeting that asks "How can I help?": a question, not a request to file.
    const concierge = await askFirst(templateAgent('hotel-concierge-ar.json'), 'قبل ما نبدأ، هل عندكم موقف سيارات؟')
    expect(concierge.stored).toEqual({})
    const vegetarian = await askFirst(agentOf('ar-restaurant'), 'عندكم أكل نباتي')
    expect(vegetarian.answer).toContain('وأطباق نباتية')
    const hours = await askFirst(agentOf('ar-clinic'), 'متى تفتحون؟')
    expect(hours.answer).toMatch(/^العيادة تفتح من الأحد إلى الخميس/)
    // An Arabic agent spells the Latin of its preamble: "BN-58231" is never said in English letters.
    const format = await askFirst(agentOf('ar-delivery'), 'كيف شكل رقم الطلب؟')
    expect(format.answer).toContain('بي إن - خمسة ثمانية اثنين ثلاثة واحد')
    expect(format.answer).not.toMatch(/[A-Za-z]/)
  })

  it('are acknowledged honestly when the preamble holds no answer, or is empty', async () => {
    const nothing = await askFirst(agentOf('en-restaurant'), 'Do you sell bicycles?')
    expect(nothing.answer).toMatch(/^I'm not sure about that, I'm afraid; the team can tell you\. .*name the table is booked under\?$/)
    const empty = await askFirst(agentOf('en-restaurant', ''), 'Do you have vegetarian food?')
    expect(empty.answer).toMatch(/^I'm not sure about that/)
    const arabic = await askFirst(agentOf('ar-restaurant', ''), 'عندكم مواقف؟')
    expect(arabic.answer).toMatch(/^لست متأكدًا من ذلك للأسف/)
    expect(arabic.stored).toEqual({})
    // A preamble of instructions only: nothing in it is said to the caller.
    const rules = await askFirst(
      agentOf('en-restaurant', 'Never promise a table. Always be polite. Ask for the name first.'),
      'Can you promise me a quiet evening?',
    )
    expect(rules.answer).toMatch(/^I'm not sure about that/)
  })

  it('find the answer in a 50 KB preamble within a turn’s budget, and say nothing from one that holds nothing relevant', async () => {
    const filler = Array.from(
      { length: 700 },
      (_, i) => `Our team member number ${i} works in the warehouse and enjoys football on weekends.`,
    ).join(' ')
    expect(filler.length).toBeGreaterThan(50_000)
    const buried = `${filler} Guests can leave their car in the free underground parking on Harbour Street. ${filler}`
    const agent = agentOf('en-restaurant', buried)
    const session = engine.startSession(agent, [])
    await collect(session.open())
    const started = performance.now()
    const answer = await collect(session.respond('do you have parking?'))
    const first = performance.now() - started
    expect(said(answer)).toMatch(/^Guests can leave their car in the free underground parking on Harbour Street\./)
    const again = performance.now()
    const second = await collect(session.respond('and is there vegetarian food?'))
    expect(performance.now() - again).toBeLessThan(20)
    expect(said(second)).toMatch(/^I'm not sure about that/)
    // Indexing the preamble is paid once, at the first question; even that stays well under a second.
    expect(first).toBeLessThan(1000)
    const irrelevant = await askFirst(agentOf('en-restaurant', filler), 'Do you have vegetarian food?')
    expect(irrelevant.answer).toMatch(/^I'm not sure about that/)
  })

  it('at the read-back are answered, then the read-back is said again', async () => {
    const session = engine.startSession(agentOf('en-restaurant'), [])
    const turns = await converse(session, ['Emily Zhang', 'two', 'Sunday', '1 pm', 'indoor', 'no', 'wait, do you have high chairs?', 'yes'])
    expect(said(turns[6]!)).toContain("So that's")
    expect(said(turns[7]!)).toMatch(/^We have vegetarian and gluten-free dishes, high chairs for children, .*So that's .*Is that right\?$/)
    expect(turns[8]!.at(-1)).toEqual({ type: 'end-call', reason: 'smart-end' })
  })

  it('tell a question from an answer', () => {
    for (const question of ['do you have parking', 'What time do you close?', 'عندكم مواقف', 'هل تفتحون يوم الجمعة', 'وين مكانكم؟'])
      expect(asksQuestion(question), question).toBe(true)
    for (const answer of ['Emily Zhang', 'two people', 'الساعة ثمانية', 'delivery was late'])
      expect(asksQuestion(answer), answer).toBe(false)
    const index = indexPreamble('You take bookings for Olive Grove. Never swear.', 'en')
    expect(index.introduction).toBe('We take bookings for Olive Grove.')
    expect(index.sentences.map((sentence) => sentence.said)).toEqual(['We take bookings for Olive Grove.'])
    expect(answerFromPreamble('what?', index)).toBeUndefined()
  })
})

describe('who is this, and say that again', () => {
  it('answers with the agent’s name and what it does, in either language, then asks again', async () => {
    expect(asksWhoThisIs('sorry, who am I speaking to?')).toBe(true)
    expect(asksWhoThisIs('مين معي؟')).toBe(true)
    expect(asksWhoThisIs('Emily Zhang')).toBe(false)
    const english = await askFirst(agentOf('en-restaurant'), 'Who is this?')
    expect(english.answer).toMatch(
      /^This is Olive Grove bookings\. We take table bookings for Olive Grove, an Italian restaurant on Harbour Street\. .*name the table is booked under\?$/,
    )
    const arabic = await askFirst(agentOf('ar-restaurant'), 'مين معي؟')
    expect(arabic.answer).toMatch(/^معك حجوزات مطعم الزيتونة\. نستقبل حجوزات الطاولات في مطعم الزيتونة في شارع التحلية\. .*؟$/)
    expect(arabic.stored).toEqual({})
  })

  it('repeats the last thing said, not only the last question', async () => {
    const session = engine.startSession(agentOf('en-restaurant'), [])
    const turns = await converse(session, ['do you have vegetarian food?', 'sorry, say that again'])
    expect(said(turns[2]!)).toBe(said(turns[1]!))
    expect(said(turns[2]!)).toContain('vegetarian')
  })
})
