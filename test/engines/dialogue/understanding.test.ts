import { describe, expect, it } from 'vitest'
import { withoutOpeners } from '../../../src/engines/dialogue/caller-intents'
import { createOfflineDialogueEngine } from '../../../src/engines/dialogue/offline-dialogue-engine'
import type { DialogueAgent } from '../../../src/engines/dialogue/dialogue-engine'
import { planSlots, type Slot } from '../../../src/engines/dialogue/slot-plan'
import { describedMemberNames, extractName, extractSlotValue } from '../../../src/engines/dialogue/value-extraction'
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
