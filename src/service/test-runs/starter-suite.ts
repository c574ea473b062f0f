import type { OutcomeShape } from '../../shared/api/outcome-shape'
import type { Matcher, Scenario, TestSuite } from '../../shared/api/test-suites'
import { ARABIC_MEMBER_LABELS, ENUM_WORD_SYNONYMS } from '../../engines/dialogue/enum-glossary'
import { humanise, planSlots, slotId, type Slot } from '../../engines/dialogue/slot-plan'

/*
 * A starter suite for an agent (docs/api.md, "Test suites and runs"): five adaptive callers
 * built from the agent's outcome shape and language, the cases every agent meets on its first
 * day: the happy path, two fields in one turn, a correction, an off-topic question first, and
 * "I don't know". Each caller answers with what a person would say for the field's kind, and
 * each expectation is as loose as the answer allows (a name's first word, a present summary),
 * so the suite checks understanding, not wording. It is a start: the operator edits it.
 */

type Lang = 'ar' | 'en'

interface Sample {
  /** What the caller says when asked. */
  say: string
  /** What the outcome must then hold. */
  expect: Matcher
  /** A first answer the caller takes back in the correction scenario, when the kind has one. */
  wrong?: string
}

/** Members that say "nothing in particular": a poor first answer, since the caller means something. */
const VAGUE_MEMBER = /^(none|other|unknown|unclear|no_preference|not_applicable|not_answered|incomplete)$/

function memberWords(member: string, lang: Lang): string {
  if (lang === 'ar') {
    const label = ARABIC_MEMBER_LABELS[member]
    if (label) return label
    const arabic = member
      .split('_')
      .map((word) => ENUM_WORD_SYNONYMS[word]?.find((synonym) => /\p{Script=Arabic}/u.test(synonym)))
      .find((synonym) => synonym !== undefined)
    if (arabic) return arabic
  }
  return humanise(member)
}

function pickMember(slot: Slot): string | undefined {
  const members = slot.members.filter((member): member is string => typeof member === 'string')
  return members.find((member) => !VAGUE_MEMBER.test(member)) ?? members[0]
}

const ARABIC_NUMBER_WORDS: Record<number, string> = { 2: 'اثنين', 3: 'ثلاثة', 4: 'أربعة', 5: 'خمسة', 6: 'ستة', 8: 'ثمانية', 9: 'تسعة' }
const ENGLISH_NUMBER_WORDS: Record<number, string> = { 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 8: 'eight', 9: 'nine' }

/** A whole number inside the range the field's description gives ("from 1 to 5", "0-10", "من 1 إلى 5"), preferring 4. */
function sampleInteger(shape: OutcomeShape): number {
  const range = /(\d+)\s*(?:to|-|–|إلى|الى)\s*(\d+)/.exec(shape.description ?? '')
  if (!range) return 4
  const [low, high] = [Number(range[1]), Number(range[2])].sort((a, b) => a - b) as [number, number]
  return Math.min(Math.max(4, low), high)
}

function numberWords(value: number, lang: Lang): string {
  return (lang === 'ar' ? ARABIC_NUMBER_WORDS : ENGLISH_NUMBER_WORDS)[value] ?? String(value)
}

/** Free text a caller would give for a field, chosen by what the field is about. */
function sampleText(slot: Slot, lang: Lang): string {
  const about = `${slot.label} ${slot.shape.description ?? ''}`.toLowerCase()
  const en: [RegExp, string][] = [
    [/address|عنوان/, '12 Palm Street, next to the pharmacy'],
    [/budget|ميزاني/, 'about two million riyals'],
    [/occasion|مناسب/, "It's my wife's birthday"],
    [/reason|visit|سبب/, 'a sore throat that has lasted a week'],
    [/summary|issue|problem|مشكل/, 'my internet keeps dropping every evening'],
    [/salary|pay|راتب/, 'around sixty thousand a year'],
    [/department|doctor|service/, 'Dr. Khan in cardiology'],
    [/room|غرف/, '214'],
  ]
  const ar: [RegExp, string][] = [
    [/address|عنوان/, 'شارع النخيل رقم ١٢ بجانب الصيدلية'],
    [/budget|ميزاني/, 'حوالي مليونين ريال'],
    [/unit type|نوع الوحدة/, 'شقة'],
    [/reason|سبب/, 'الفاتورة فيها مبلغ ما استخدمته'],
    [/method|طريقة/, 'تحويل بنكي'],
    [/room|غرف/, '٢١٤'],
    [/detail|تفاصيل|وصف/, 'أحتاج منشفتين إضافيتين'],
  ]
  const table = lang === 'ar' ? ar : en
  return table.find(([pattern]) => pattern.test(about))?.[1] ?? (lang === 'ar' ? 'كل شيء تمام' : 'everything was fine, thank you')
}

function sampleList(slot: Slot, lang: Lang): string {
  const about = `${slot.label} ${slot.shape.description ?? ''}`.toLowerCase()
  if (lang === 'ar') return /ملاحظ|note/.test(about) ? 'اتصل قبل الوصول' : 'موقف سيارات وحديقة'
  if (/allerg|diet/.test(about)) return 'peanuts and shellfish'
  if (/time|slot|availab/.test(about)) return 'Monday morning or Tuesday afternoon'
  return 'customer service and timeliness'
}

/** What a caller says for `slot`, and what the outcome should then hold. Undefined: no sensible sample. */
function sampleFor(slot: Slot, lang: Lang): Sample | undefined {
  const ar = lang === 'ar'
  switch (slot.kind) {
    case 'name':
      return ar
        ? { say: 'اسمي سارة أحمد', expect: { pattern: 'سارة' }, wrong: 'اسمي ليلى أحمد' }
        : { say: "It's Sarah Johnson", expect: { pattern: 'Sarah' }, wrong: "It's Laura Johnson" }
    case 'email':
      return { say: 'sarah.johnson@example.com', expect: 'sarah.johnson@example.com' }
    case 'phone':
      return ar
        ? { say: 'رقمي 0501234567', expect: { pattern: '1234567' } }
        : { say: 'My number is 07700 900123', expect: { pattern: '900 ?123' } }
    case 'date':
      if (/birth|ميلاد/.test(`${slot.label} ${slot.shape.description ?? ''}`.toLowerCase()))
        return { say: ar ? '4 مارس 1985' : 'the 4th of March 1985', expect: '1985-03-04' }
      return ar
        ? { say: 'بكرة', expect: { date: 'tomorrow' }, wrong: 'اليوم' }
        : { say: 'tomorrow', expect: { date: 'tomorrow' }, wrong: 'today' }
    case 'time':
      return ar
        ? { say: 'الساعة 7:30 مساءً', expect: { time: '19:30' }, wrong: 'الساعة 6 مساءً' }
        : { say: 'half past seven in the evening', expect: { time: '19:30' }, wrong: 'six in the evening' }
    case 'datetime':
      return ar ? { say: 'بكرة الساعة 7 مساءً', expect: { present: true } } : { say: 'tomorrow at 7 pm', expect: { present: true } }
    case 'integer': {
      const value = sampleInteger(slot.shape)
      const wrongValue = value === 4 ? 3 : value + 1
      return { say: numberWords(value, lang), expect: value, wrong: numberWords(wrongValue, lang) }
    }
    case 'number':
      return { say: '500', expect: 500 }
    case 'boolean':
      return ar ? { say: 'نعم', expect: true } : { say: 'yes', expect: true }
    case 'enum':
    case 'enum-list': {
      const member = pickMember(slot)
      if (member === undefined) return undefined
      return { say: memberWords(member, lang), expect: slot.kind === 'enum' ? member : [member] }
    }
    case 'list':
      return { say: sampleList(slot, lang), expect: { present: true } }
    case 'text':
      return { say: sampleText(slot, lang), expect: { present: true } }
  }
}

const WORDING = {
  en: {
    happy: 'Happy path: answers every question',
    two: 'Two answers in one turn',
    correction: 'Corrects an answer',
    offTopic: 'Asks something off-topic first',
    unknown: '"I don\'t know" to an optional question',
    joinTwo: (a: string, b: string) => `${a}, and ${b}`,
    correct: (wrong: string, right: string) => `${wrong}, sorry, no, ${right}`,
    offTopicLine: 'Before we start, do you have parking nearby?',
    dontKnow: "I don't know",
  },
  ar: {
    happy: 'المسار السعيد: يجيب عن كل سؤال',
    two: 'إجابتان في جملة واحدة',
    correction: 'يصحح إجابته',
    offTopic: 'يسأل سؤالًا خارج الموضوع أولًا',
    unknown: '"ما أعرف" لسؤال اختياري',
    joinTwo: (a: string, b: string) => `${a}، و${b}`,
    correct: (wrong: string, right: string) => `${wrong}، لا آسف، ${right}`,
    offTopicLine: 'قبل ما نبدأ، هل عندكم موقف سيارات؟',
    dontKnow: 'ما أعرف',
  },
} as const

/** The fields a caller is asked (not those the engine fills itself), each with its sample. */
function askedSamples(shape: OutcomeShape | null, lang: Lang): { slot: Slot; sample: Sample }[] {
  return planSlots(shape).flatMap((slot) => {
    if (slot.inferred) return []
    const sample = sampleFor(slot, lang)
    return sample ? [{ slot, sample }] : []
  })
}

/** The starter suite for an agent with this outcome shape and language. */
export function starterSuite(agent: { id: string; lang: Lang; outcomeResponseShape: OutcomeShape | null }): TestSuite {
  const lang = agent.lang
  const words = WORDING[lang]
  const asked = askedSamples(agent.outcomeResponseShape, lang)
  if (asked.length === 0) {
    // No shape to fill: the call itself is what can be tested.
    const line = lang === 'ar' ? 'مرحبا، شكرًا، مع السلامة' : 'Hi, thanks, that was all, goodbye'
    return {
      agentId: agent.id,
      scenarios: [{ name: words.happy, language: lang, caller: { say: [line] }, expect: { maxTurns: 5 } }],
    }
  }
  const answers = Object.fromEntries(asked.map(({ slot, sample }) => [slotId(slot), sample.say]))
  const expectAll = Object.fromEntries(asked.map(({ slot, sample }) => [slotId(slot), sample.expect]))
  const scenarios: Scenario[] = [{ name: words.happy, language: lang, caller: { answers }, expect: { outcome: expectAll } }]

  const [first, second] = asked.filter(({ slot }) => slot.kind !== 'text' && slot.kind !== 'list')
  if (first && second)
    scenarios.push({
      name: words.two,
      language: lang,
      caller: { answers, opening: words.joinTwo(first.sample.say, second.sample.say) },
      expect: { outcome: { [slotId(first.slot)]: first.sample.expect, [slotId(second.slot)]: second.sample.expect } },
    })

  const correctable = asked.find(({ sample }) => sample.wrong !== undefined)
  if (correctable) {
    const id = slotId(correctable.slot)
    const { say, wrong, expect } = correctable.sample
    scenarios.push({
      name: words.correction,
      language: lang,
      caller: { answers: { ...answers, [id]: words.correct(wrong ?? say, say) } },
      expect: { outcome: { [id]: expect } },
    })
  }

  const required = Object.fromEntries(asked.filter(({ slot }) => slot.required).map(({ slot, sample }) => [slotId(slot), sample.expect]))
  scenarios.push({
    name: words.offTopic,
    language: lang,
    caller: { answers, opening: words.offTopicLine },
    expect: { outcome: Object.keys(required).length ? required : expectAll },
  })

  const optional = asked.find(({ slot }) => !slot.required && slot.kind !== 'boolean')
  if (optional) {
    const id = slotId(optional.slot)
    scenarios.push({
      name: words.unknown,
      language: lang,
      caller: { answers: { ...answers, [id]: words.dontKnow } },
      expect: { outcome: { ...required, [id]: { absent: true } } },
    })
  }
  return { agentId: agent.id, scenarios }
}
