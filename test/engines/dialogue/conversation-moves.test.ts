import { describe, expect, it } from 'vitest'
import { asksWhoIsThis, statesIntent, wantsRepeat, wantsToWait, withoutInfoQuestions } from '../../../src/engines/dialogue/caller-intents'
import { createOfflineDialogueEngine } from '../../../src/engines/dialogue/offline-dialogue-engine'
import type { DialogueAgent } from '../../../src/engines/dialogue/dialogue-engine'
import { planSlots, type Slot } from '../../../src/engines/dialogue/slot-plan'
import { extractIdentifier } from '../../../src/engines/dialogue/spoken-identifiers'
import { extractDate, extractTime } from '../../../src/engines/dialogue/spoken-dates'
import { takeBack } from '../../../src/engines/dialogue/take-back'
import { memberByHorizon, spokenHorizon } from '../../../src/engines/dialogue/time-horizons'
import { extractEmail, extractName, extractSlotValue } from '../../../src/engines/dialogue/value-extraction'
import type { OutcomeShape } from '../../../src/shared/api/outcome-shape'
import { collect, said } from './template-agents'

/*
 * Issue 23, items 1–3, second round: corrections in every order, values as people say them
 * (late names, spelled names, settled counts, timelines, spoken emails and plates), and the
 * moves that are not answers (wait, who is this, repeat, an intent, a question back). Every
 * sentence here is written for these tests, not taken from the bench corpus.
 */

// Tuesday 10 March 2026, 09:00 local time.
const NOW = new Date(2026, 2, 10, 9, 0)

const SHAPE: OutcomeShape = {
  type: 'object',
  properties: {
    guestName: { type: 'string', description: 'The name the visit is booked under' },
    guests: { type: 'integer', description: 'How many people are coming' },
    visitDate: { type: 'string', description: 'The day of the visit' },
    visitTime: { type: 'string', description: 'The time of the visit' },
    plan: {
      type: 'string',
      enum: ['within_1_month', 'within_3_months', 'within_6_months', 'later'],
      description: 'When they want to start',
    },
    wantsRefund: { type: 'boolean', description: 'Whether the caller wants a refund rather than a replacement' },
    visitsPerMonth: { type: 'integer', description: 'How many times a month they come' },
    email: { type: 'string', description: 'Email address' },
  },
  required: ['guestName', 'guests', 'visitDate', 'visitTime', 'plan', 'wantsRefund', 'visitsPerMonth', 'email'],
}
const slots = new Map(planSlots(SHAPE).map((slot) => [slot.key, slot]))
const slot = (key: string): Slot => slots.get(key)!
const value = (key: string, text: string, strict = false) => extractSlotValue(slot(key), text, NOW, strict)

const agent = (lang: 'ar' | 'en', shape: OutcomeShape = SHAPE): DialogueAgent => ({
  agentName: lang === 'ar' ? 'مركز الندى' : 'Harbour Spa',
  lang,
  greeting: '',
  preamble: 'Open from nine in the morning to nine in the evening.',
  outcome: '',
  outcomeShape: shape,
  smartCallEnd: true,
})
const start = (lang: 'ar' | 'en', shape?: OutcomeShape) =>
  createOfflineDialogueEngine({ now: () => NOW }).startSession(agent(lang, shape), [])

describe('take-backs in every order people say them', () => {
  it('splits what is taken back from what replaces it', () => {
    expect(takeBack('Saturday, not Sunday')).toMatchObject({ fresh: 'Saturday', old: 'Sunday', corrects: true })
    expect(takeBack('I said the fifth but I meant the sixth')).toMatchObject({ fresh: 'the sixth', old: 'the fifth' })
    expect(takeBack('three, no wait, five')).toMatchObject({ fresh: 'five', old: 'three' })
    expect(takeBack('no, the day is wrong, make it Monday')).toMatchObject({ fresh: 'Monday', corrects: true })
    expect(takeBack('لا، الوقت غلط، خليه عشرة')).toMatchObject({ fresh: 'عشرة', corrects: true })
    expect(takeBack('مش الأحد، خلّيها الاثنين')).toMatchObject({ fresh: 'الاثنين', old: 'الأحد' })
    expect(takeBack('قلت تلاتة بس قصدي أربعة')).toMatchObject({ fresh: 'أربعة', old: 'تلاتة' })
    // "لا آسف" between two values is a no ("today, no sorry, tomorrow").
    expect(takeBack('اليوم، لا آسف، بكرة')).toMatchObject({ fresh: 'بكرة', old: 'اليوم' })
    // Politeness and a later "no <thing>" take nothing back.
    expect(takeBack('No, thanks.')?.fresh ?? '').toBe('')
    expect(takeBack('A replacement is fine, no refund')).toBeUndefined()
    // "Let's say eight" settles; it corrects no earlier field.
    expect(takeBack("Let's say eight")?.corrects).toBe(false)
  })

  it('corrects at the read-back in Gulf, Egyptian and Levantine forms, and in "Y, not X" order in English', async () => {
    for (const correction of ['لا، الوقت غلط، خليه ستة', 'لأ، الساعة مش خمسة، خليها ستة', 'لا مو خمسة، ستة']) {
      const session = start('ar', {
        type: 'object',
        properties: {
          visitDate: { type: 'string', description: 'يوم الزيارة' },
          visitTime: { type: 'string', description: 'وقت الزيارة' },
        },
        required: ['visitDate', 'visitTime'],
      })
      await collect(session.open())
      await collect(session.respond('الخميس'))
      await collect(session.respond('خمسة المسا'))
      expect(session.outcomeSoFar!().result).toMatchObject({ visitTime: '17:00' })
      await collect(session.respond(correction))
      expect(session.outcomeSoFar!().result, correction).toMatchObject({ visitDate: '2026-03-12', visitTime: '18:00' })
    }
    const english = start('en', {
      type: 'object',
      properties: { visitDate: { type: 'string', description: 'The day' }, visitTime: { type: 'string', description: 'The time' } },
      required: ['visitDate', 'visitTime'],
    })
    await collect(english.open())
    await collect(english.respond('Thursday'))
    await collect(english.respond('ten in the morning'))
    const reply = said(await collect(english.respond('I meant three in the afternoon, not ten.')))
    expect(reply).not.toMatch(/didn't catch/i)
    expect(english.outcomeSoFar!().result).toMatchObject({ visitTime: '15:00' })
  })
})

describe('values as people say them', () => {
  it('a late name, given while another field is asked, in both languages', async () => {
    expect(extractName("Oh sorry, it's under Priya Nair.", true)).toBe('Priya Nair')
    expect(extractName('The booking is in the name of Omar Haddad', true)).toBe('Omar Haddad')
    expect(extractName('خليه على اسم سلمى يوسف', true)).toBe('سلمى يوسف')
    expect(extractName('بدي احجز لأمي فاطمة', true)).toBe('فاطمة')
    const session = start('en')
    await collect(session.open())
    await collect(session.respond('I want to book a visit for my sister'))
    await collect(session.respond('Actually, put it under Priya Nair, sorry. Two of us.'))
    expect(session.outcomeSoFar!().result).toMatchObject({ guestName: 'Priya Nair', guests: 2 })
  })

  it('spelled names: the spelling is set aside, or joined when it is all there is', () => {
    expect(extractName('Dana Moss, that is M O S S.', false)).toBe('Dana Moss')
    expect(extractName('Moss, M-O-S-S', false)).toBe('Moss')
    expect(extractName('K E N J I', false)).toBe('Kenji')
    // Letters with digits are a code, never a name; a name ending in -ed is a name.
    expect(extractName('It is A B one two', false)).toBeUndefined()
    expect(extractName('Saeed Hamed', false)).toBe('Saeed Hamed')
  })

  it('counts as people settle them: the last said, parts added, a scale top dropped, per period', () => {
    expect(value('guests', 'Five? No, six.')).toBe(6)
    expect(value('guests', 'seven or eight')).toBe(8)
    expect(value('guests', 'three adults and two children')).toBe(5)
    expect(value('guests', 'a group of six, four adults and two kids')).toBe(6)
    expect(value('guests', 'one two')).toBe(12)
    expect(value('guests', 'seventy, seventeen')).toBe(17)
    expect(value('visitsPerMonth', 'about three hundred a month')).toBe(300)
    expect(value('visitsPerMonth', 'twice a month')).toBe(2)
    expect(value('visitsPerMonth', 'حوالي ٢٠٠ مرة بالشهر')).toBe(200)
    expect(value('visitsPerMonth', 'مرتين بالشهر')).toBe(2)
  })

  it('timelines by how far ahead, and a rate is never a timeline', () => {
    expect(spokenHorizon('in the next two months')).toBe(60)
    expect(value('plan', 'within the next couple of months')).toBe('within_3_months')
    expect(value('plan', 'ideally before the summer, say five months')).toBe('within_6_months')
    expect(value('plan', 'خلال شهر')).toBe('within_1_month')
    expect(value('plan', 'الشهر الجاي إن شاء الله')).toBe('within_3_months')
    expect(value('plan', 'السنة الجاية')).toBe('later')
    expect(memberByHorizon('this quarter', ['this_month', 'this_quarter', 'this_year'])).toBe('this_quarter')
    expect(memberByHorizon('we pay about a thousand a month', ['this_month', 'this_quarter', 'this_year'])).toBeUndefined()
    expect(value('plan', 'we spend a lot each month', true)).toBeUndefined()
  })

  it('a yes/no that is a choice: the side named, the side turned down, the double negative', () => {
    expect(value('wantsRefund', 'Just replace it, I do not need my money back.')).toBe(false)
    expect(value('wantsRefund', 'A refund please, not another replacement.')).toBe(true)
    expect(value('wantsRefund', 'A refund. Actually no, a replacement.')).toBe(false)
    expect(value('wantsRefund', "Not that I don't want it, yes.")).toBe(true)
    expect(value('wantsRefund', "It's not that I don't want one")).toBe(true)
    expect(value('wantsRefund', 'A refund, what is that?')).toBeUndefined()
    expect(value('wantsRefund', 'أبي استرجاع فلوسي')).toBe(true)
  })

  it('spoken emails, dates and plates', () => {
    expect(extractEmail('lena underscore park at outlook dot com')).toBe('lena_park@outlook.com')
    expect(extractEmail('tom baker, all one word, at mail dot co dot uk')).toBe('tombaker@mail.co.uk')
    expect(extractEmail('hadi dot k ات gmail dot com')).toBe('hadi.k@gmail.com')
    expect(extractDate('the twenty-third of April', NOW)).toBe('2026-04-23')
    expect(extractDate('April the thirtieth', NOW)).toBe('2026-04-30')
    expect(extractIdentifier('G for golf, H, one two, then, X Y Z')).toBe('GH12XYZ')
    expect(extractIdentifier('LM70 KTP')).toBe('LM70KTP')
    expect(extractTime('كان عندي شغل بالليل، بس ممكن الساعة تسعة الصبح؟')).toBe('09:00')
    expect(extractTime('عالساعة تنتين بعد الضهر')).toBe('14:00')
  })
})

describe('moves that are not answers', () => {
  it('knows them in both languages, and only when that is all the turn says', () => {
    expect(wantsRepeat('Could you repeat that, please?')).toBe(true)
    expect(wantsRepeat('ممكن تعيد لو سمحت')).toBe(true)
    expect(wantsRepeat('No, just send it again please')).toBe(false)
    expect(wantsToWait('Hang on, let me check.')).toBe(true)
    expect(wantsToWait('لحظة من فضلك')).toBe(true)
    expect(wantsToWait('Hang on, it is Tom Baker')).toBe(false)
    expect(asksWhoIsThis('Sorry, who is this?')).toBe(true)
    expect(asksWhoIsThis('مين معي؟')).toBe(true)
    expect(statesIntent("Hi, I'd like to book something for my parents' anniversary")).toBe(true)
    expect(statesIntent('بدي احجز موعد لأمي')).toBe(true)
    expect(withoutInfoQuestions('Do you have parking? Friday works.')).toBe('Friday works.')
    expect(withoutInfoQuestions('هو انتو فاتحين يوم الجمعة؟')).toBe('')
    expect(withoutInfoQuestions('Is Friday possible?')).toBe('Is Friday possible?')
  })

  it('wait keeps the question open, who-is-this answers then asks again, an intent is acknowledged, a question is no value', async () => {
    const session = start('en')
    const opening = said(await collect(session.open()))
    expect(opening).toMatch(/name/i)
    const intent = said(await collect(session.respond("I'd like to book a spa day for my parents' anniversary")))
    expect(intent).not.toMatch(/didn't catch/i)
    expect(intent).toMatch(/name/i)
    expect(said(await collect(session.respond('Wait, one moment.')))).toMatch(/take your time/i)
    const who = said(await collect(session.respond('Who am I speaking to?')))
    expect(who).toContain('Harbour Spa')
    expect(who).toMatch(/name/i)
    await collect(session.respond('Dana Moss'))
    // Asked the count, a question about the place fills nothing.
    await collect(session.respond('Do you open on Sundays?'))
    expect(session.outcomeSoFar!().result).not.toHaveProperty('visitDate')
    expect(session.outcomeSoFar!().result).toMatchObject({ guestName: 'Dana Moss' })
    const arabic = start('ar')
    await collect(arabic.open())
    expect(said(await collect(arabic.respond('لحظة')))).toContain('على راحتك')
    expect(said(await collect(arabic.respond('مين معي؟')))).toContain('مركز الندى')
    const bye = await collect(arabic.respond('طيب مع السلامة'))
    expect(bye.some((event) => event.type === 'end-call')).toBe(true)
  })

  it('"I don\'t know" skips once and asks again once before the read-back; a doubt followed by a value takes the value', async () => {
    const shape: OutcomeShape = {
      type: 'object',
      properties: {
        guestName: { type: 'string', description: 'The name' },
        guests: { type: 'integer', description: 'How many people' },
        bill: { type: 'integer', description: 'The monthly bill' },
      },
      required: ['guestName', 'guests', 'bill'],
    }
    const session = start('en', shape)
    await collect(session.open())
    await collect(session.respond('Lena Park'))
    await collect(session.respond("I'm not sure, maybe eight"))
    expect(session.outcomeSoFar!().result).toMatchObject({ guests: 8 })
    const skipped = said(await collect(session.respond("I don't know")))
    expect(skipped).toMatch(/move on|read that back|before we finish/i)
    const again = said(await collect(session.respond('مش عارف')))
    // Never a third time: the read-back comes next.
    expect(again).not.toMatch(/monthly bill/i)
    const arabic = start('ar', shape)
    await collect(arabic.open())
    await collect(arabic.respond('لينا'))
    await collect(arabic.respond('مو متأكد، يمكن خمسة'))
    expect(arabic.outcomeSoFar!().result).toMatchObject({ guests: 5 })
  })
})
