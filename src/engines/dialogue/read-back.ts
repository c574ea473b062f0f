import { arabicSecondPerson, englishSecondPerson, type Gender } from './second-person'
import { arabicCountOf, arabicNumber, dateInWords, englishNumber, spellLatinForArabic, timeInWords } from './spoken-words'
import { arabicLabel, arabicMember, coreDescription, englishMember } from './field-words'
import type { Slot } from './slot-plan'

/**
 * The read-back: what the agent has, said back as one sentence a person would say, built from
 * the kinds of the fields rather than as "field: value" pairs: "So that's for Emily Zhang, two
 * people coming, on Sunday the twenty-ninth of November at one in the afternoon, indoor seating,
 * with a high chair for a child. Is that right?". Dates, times and counts are words. An agent
 * with many fields reads back in two sentences. An Arabic agent never says an English word: a
 * member with no Arabic name is left out, Latin letters in a value are spelled in Arabic.
 */

export interface ReadBackItem {
  slot: Slot
  value: unknown
}

/** From this many fields on, the read-back is two sentences. */
const TWO_SENTENCES_FROM = 8
/** English field names an enum member reads well in front of: "indoor seating", "dental department". */
const NOUN_LABELS = /(?:^|\s)(?:seating|department|section|room|plan|class|table|area|channel|method|size|service|level|package|tier)$/

const DATE_KINDS = new Set(['date', 'datetime'])
/** A date field that is simply the call's date ("date", "appointment day", "تاريخ الحجز"): read back without its name. */
const PLAIN_DATE =
  /^(?:(?:the )?(?:appointment|booking|reservation|visit|preferred|requested) )?(?:date|day)$|^(?:تاريخ|يوم|موعد) (?:الحجز|الموعد|الزيارة)$|^(?:التاريخ|اليوم)$/i
const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text)

/** A boolean field's statement, "you need a high chair", or undefined when its description says none. */
function englishStatement(slot: Slot): string | undefined {
  const description = coreDescription(slot.shape.description ?? '')
  const match = /^(?:whether|true if|if)\s+(.+)$/i.exec(description)
  return match ? englishSecondPerson(match[1]!) : undefined
}

/** "you need a high chair" → "with(out) a high chair"; "you make the decision" → "you (don't) make the decision". */
function englishBoolean(slot: Slot, value: boolean): string {
  const statement = englishStatement(slot)
  if (!statement) return `${value ? 'with' : 'without'} ${slot.label}`
  const wanting = /^you (?:need|want|would like|have|require|'d like)\s+((?:a|an|some|the)\s+.+)$/i.exec(statement)
  if (wanting) return `${value ? 'with' : 'without'} ${wanting[1]}`
  if (value) return statement
  const auxiliary = /^(.+?\b(?:are|is|was|were|can|will|would|should|have been|has been))\s+(.+)$/i.exec(statement)
  if (auxiliary && auxiliary[1]!.split(' ').length <= 3) return `${auxiliary[1]} not ${auxiliary[2]}`
  const verb = /^(you|they|we)\s+(.+)$/i.exec(statement)
  return verb ? `${verb[1]} don't ${verb[2]}` : `not ${statement}`
}

function englishCount(slot: Slot, n: number): string {
  const words = englishNumber(n)
  const description = englishSecondPerson(lowerFirst(coreDescription(slot.shape.description ?? '')))
  const howMany = /^how many (\w+)\s+(.*)$/i.exec(description)
  if (howMany) {
    const noun = n === 1 ? howMany[1]!.replace(/^people$/i, 'person').replace(/s$/, '') : howMany[1]!
    const rest = howMany[2]!.replace(/^(?:are|is|will be)\s+/i, '')
    // "people who work at the company", but "widgets of batch one" and "people coming".
    const joined = rest !== howMany[2] || /^(?:of|for|in|at|on|per|to|from|with|you)\b/.test(rest)
    return joined ? `${words} ${noun} ${rest}` : `${words} ${noun} who ${rest}`
  }
  const scale = /^(.+?)\s+(?:from|between)\s+(\w+)\s+(?:to|and)\s+(\w+)$/i.exec(description)
  if (scale) return `${scale[1]} at ${words} out of ${scale[3]}`
  const unit = /^(.+?)\s+in\s+(\w+)$/i.exec(description)
  if (unit) return `${unit[1]} of ${words} ${unit[2]}`
  const times = /^how (?:often|many times)\s+(.+)$/i.exec(description)
  if (times) return `${times[1]} ${n === 1 ? 'once' : n === 2 ? 'twice' : `${words} times`}`
  return `a ${slot.label} of ${words}`
}

/** One field's part of the English read-back. */
function englishClause(slot: Slot, value: unknown, firstDate: boolean, year: number): string {
  if (typeof value === 'boolean') return englishBoolean(slot, value)
  const label = slot.label
  switch (slot.kind) {
    case 'name':
      return `${/under|booked|booking|reservation/i.test(slot.shape.description ?? '') ? 'under' : 'for'} ${String(value)}`
    case 'integer':
    case 'number':
      return typeof value === 'number' ? englishCount(slot, value) : `a ${label} of ${String(value)}`
    case 'date':
    case 'datetime': {
      const [date, time] = String(value).split(/[ T]/)
      const when = `on ${dateInWords(date!, 'en', year)}${time ? ` at ${timeInWords(time, 'en')}` : ''}`
      const subject = label.replace(/\b(?:date|day|time|preferred|requested)\b/g, '').trim()
      if ((firstDate && PLAIN_DATE.test(label)) || subject === '') return when
      // "date of birth" keeps its name whole; "delivery date" becomes "delivery on …".
      return /^of\b/.test(subject) ? `${label} ${when.replace(/^on /, '')}` : `${subject} ${when}`
    }
    case 'time':
      return `at ${timeInWords(String(value), 'en')}`
    case 'enum': {
      const member = englishMember(value)
      // "indoor seating", "dental department"; a member of several words says itself ("new reservation", "never arrived").
      if (member.includes(' ')) return member
      // "request type: reschedule" is "a reschedule".
      if (/(?:^|\s)(?:type|kind|category)$/.test(label)) return `a ${member}`
      const noun = label.replace(/\s+(?:preference|choice|option)$/, '')
      return NOUN_LABELS.test(noun) ? `${member} ${noun}` : `the ${label} being ${member}`
    }
    case 'enum-list':
    case 'list': {
      const items = (Array.isArray(value) ? value : [value]).map((item) => (slot.kind === 'enum-list' ? englishMember(item) : String(item)))
      return items.length === 0 ? `no ${label}` : `${label} ${joinEnglish(items)}`
    }
    default:
      return `${label} ${String(value)}`
  }
}

function joinEnglish(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** The Arabic name of a field for a read-back, in the second person: "اسمك الكامل", "مكان الجلوس". */
function arabicFieldName(slot: Slot, gender: Gender): string {
  const description = coreDescription(slot.shape.description ?? '')
  if (!/[\u0600-\u06FF]/.test(description)) return arabicLabel(slot)
  const head = description.split(/[:،,]| مثل | كما /)[0]!.replace(/^هل\s+/, '')
  const words = head.split(' ').slice(0, 6)
  // Never cut after a joining word: "رمز الدخول أو" loses its "أو".
  while (words.length > 1 && /^(?:أو|او|و|في|من|على|عن|إلى|الى|مع|ب|ل)$/.test(words.at(-1)!)) words.pop()
  return arabicSecondPerson(words.join(' '), gender)
}

function arabicCount(slot: Slot, n: number, gender: Gender): string {
  const description = arabicSecondPerson(coreDescription(slot.shape.description ?? ''), gender)
  const times = /^كم (?:مرة|مره)\s+(.+)$/.exec(description)
  if (times) return `${times[1]} ${arabicCountOf(n, 'مرة', 'مرات')}`
  const scale = /^(.+?)\s+من\s+(\S+)\s+(?:إلى|الى|ل)\s*(\S+)$/.exec(description)
  if (scale && /[\u0600-\u06FF]/.test(scale[1]!)) return `${scale[1]} ${arabicNumber(n)} من ${scale[3]}`
  return `${arabicFieldName(slot, gender)} ${arabicNumber(n)}`
}

/** A boolean field's statement in Arabic, with its negation: "تريد استرجاع المبلغ" / "لا تريد استرجاع المبلغ". */
function arabicBoolean(slot: Slot, value: boolean, gender: Gender): string | undefined {
  const description = coreDescription(slot.shape.description ?? '')
  if (!/[\u0600-\u06FF]/.test(description)) return undefined
  const statement = arabicSecondPerson(description.replace(/^(?:هل|صحيح إن|صحيح أن|صحيح)\s+/, ''), gender)
  if (value) return statement
  if (/^(?:هذه|هذا)\s/.test(statement))
    return statement.replace(/^(هذه|هذا)\s/, (_match, pronoun: string) => `${pronoun} ${pronoun === 'هذه' ? 'ليست' : 'ليس'} `)
  if (/^ت\S+/.test(statement)) return `لا ${statement}`
  return `ليس صحيحًا أن ${statement}`
}

/** One field's part of the Arabic read-back, or undefined when it cannot be said in Arabic. */
function arabicClause(slot: Slot, value: unknown, firstDate: boolean, gender: Gender, year: number): string | undefined {
  if (typeof value === 'boolean') return arabicBoolean(slot, value, gender)
  switch (slot.kind) {
    case 'name':
      return `باسم ${spellLatinForArabic(String(value))}`
    case 'integer':
    case 'number':
      return typeof value === 'number' ? arabicCount(slot, value, gender) : `${arabicFieldName(slot, gender)} ${String(value)}`
    case 'date':
    case 'datetime': {
      const [date, time] = String(value).split(/[ T]/)
      const when = `يوم ${dateInWords(date!, 'ar', year)}${time ? ` ${timeInWords(time, 'ar')}` : ''}`
      const name = arabicFieldName(slot, gender)
      return firstDate && (PLAIN_DATE.test(name) || !/[\u0600-\u06FF]/.test(coreDescription(slot.shape.description ?? '')))
        ? when
        : `${name} ${when}`
    }
    case 'time':
      return timeInWords(String(value), 'ar')
    case 'enum': {
      const member = arabicMember(value, slot)
      return member === undefined ? undefined : `${arabicFieldName(slot, gender)} ${member}`
    }
    case 'enum-list':
    case 'list': {
      const items = (Array.isArray(value) ? value : [value]).map((item) =>
        slot.kind === 'enum-list' ? arabicMember(item, slot) : spellLatinForArabic(String(item)),
      )
      if (items.some((item) => item === undefined)) return undefined
      return items.length === 0 ? undefined : `${arabicFieldName(slot, gender)} ${items.join(' و')}`
    }
    default:
      return `${arabicFieldName(slot, gender)} ${spellLatinForArabic(String(value))}`
  }
}

/** Clauses in order, a time joined to the date before it ("on Sunday … at one"). */
function clausesOf(items: readonly ReadBackItem[], clause: (item: ReadBackItem, firstDate: boolean) => string | undefined): string[] {
  const clauses: string[] = []
  let seenDate = false
  let previous: Slot | undefined
  for (const item of items) {
    const firstDate = DATE_KINDS.has(item.slot.kind) && !seenDate
    if (DATE_KINDS.has(item.slot.kind)) seenDate = true
    const said = clause(item, firstDate)
    if (said === undefined || said.trim() === '') continue
    if (item.slot.kind === 'time' && previous?.kind === 'date' && clauses.length > 0) clauses[clauses.length - 1] += ` ${said}`
    else clauses.push(said)
    previous = item.slot
  }
  return clauses
}

/** The English read-back of the fields filled, as one sentence (two from eight fields on), ending "Is that right?". */
export function englishReadBack(items: readonly ReadBackItem[], now: Date): string {
  const clauses = clausesOf(items, (item, firstDate) => englishClause(item.slot, item.value, firstDate, now.getFullYear()))
  if (clauses.length < TWO_SENTENCES_FROM) return `So that's ${joinEnglish(clauses)}. Is that right?`
  const half = Math.ceil(clauses.length / 2)
  return `So that's ${joinEnglish(clauses.slice(0, half))}. Then ${joinEnglish(clauses.slice(half))}. Is that right?`
}

/** The Arabic read-back, in the same one sentence: "للتأكيد، باسم …، وعدد الأشخاص أربعة، يوم الجمعة … هل هذا صحيح؟". */
export function arabicReadBack(items: readonly ReadBackItem[], now: Date, gender: Gender): string {
  const clauses = clausesOf(items, (item, firstDate) => arabicClause(item.slot, item.value, firstDate, gender, now.getFullYear()))
  // "و" joins each part to the one before, except a day or an hour that follows what it belongs to.
  const join = (parts: readonly string[]) =>
    parts.map((part, index) => (index === 0 || /^(?:يوم|الساعة)\s/.test(part) ? part : `و${part}`)).join('، ')
  if (clauses.length < TWO_SENTENCES_FROM) return `للتأكيد، ${join(clauses)}. هل هذا صحيح؟`
  const half = Math.ceil(clauses.length / 2)
  return `للتأكيد، ${join(clauses.slice(0, half))}. وأيضًا ${join(clauses.slice(half))}. هل هذا صحيح؟`
}
