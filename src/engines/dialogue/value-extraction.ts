import { distance } from 'fastest-levenshtein'
import { isArabicWord, normaliseArabic } from '../ai-content/arabic-normalisation'
import { doesNotKnow, plainWords, saysNothing, trimFillers, yesOrNo } from './caller-intents'
import { ENUM_WORD_SYNONYMS } from './enum-glossary'
import type { Slot } from './slot-plan'
import { extractDate, extractTime, type OpeningHours } from './spoken-dates'
import { extractIdentifier, isIdentifierField } from './spoken-identifiers'
import { booleanByMeaning, stemOf } from './spoken-booleans'
import { isTimeline, memberByHorizon, withoutRates } from './time-horizons'
import { findNumbers, numberTokens, toWesternDigits, type FoundNumber } from './spoken-numbers'
import { extractName } from './name-extraction'
import { namesAThing } from './slot-mentions'

export { extractName }

/**
 * Typed values from what a caller said, one extractor per kind of field. Each returns undefined
 * when the turn holds no value of its kind. `strict` is for fields the caller was not asked
 * about: only unmistakable values count there (a name after "my name is", a number followed by
 * the thing it counts, an email address), so a side remark never fills the wrong field.
 */

/** What the agent's own words tell the extraction: the hours it keeps. */
export interface ExtractionContext {
  hours?: OpeningHours
}

export type SlotValue = string | number | boolean | string[] | (string | number | boolean | null)[]

const SPOKEN_AT = /\s+(?:at|آت|ات|أت)\s+/gi
const SPOKEN_DOT = /\s+(?:dot|دوت|نقطه|نقطة|دot)\s+/gi
const SPOKEN_SYMBOLS: [RegExp, string][] = [
  [/\s*\b(?:underscore|under score)\b\s*|\s*(?:اندر سكور|اندرسكور|شرطه سفليه|شرطة سفلية)\s*/gi, '_'],
  [/\s*\b(?:dash|hyphen)\b\s*|\s+(?:داش|شرطه|شرطة)\s+/gi, '-'],
]
/** "all one word", "no spaces": said of the name before the @, which is then joined. */
const ONE_WORD =
  /[\s,،]*\b(?:all one word|one word|no spaces?|all together|together)\b[\s,،]*|[\s,،]*(?:كلها كلمه وحده|كلمه وحده|بدون مسافات|لزق)[\s,،]*/gi

/** An email address, written or spelled out ("sara dot ali at example dot com", "jordan underscore reyes at…", "gareth lloyd, all one word, at…"). */
export function extractEmail(text: string): string | undefined {
  let said = text
  for (const [pattern, symbol] of SPOKEN_SYMBOLS) said = said.replace(pattern, symbol)
  // The name before "at" said as two words and joined: "gareth lloyd, all one word, at hotmail…".
  const joined = ONE_WORD.test(said)
  said = said.replace(ONE_WORD, ' ')
  if (joined) said = said.replace(/(\b[\p{L}\d._-]+)\s+([\p{L}\d._-]+)(?=\s+(?:at|آت|ات|أت)\s+)/u, '$1$2')
  const spoken = said.replace(SPOKEN_DOT, '.').replace(SPOKEN_AT, '@')
  const match = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(spoken.replace(/\s*@\s*/g, '@'))
  return match?.[0].toLowerCase().replace(/\.$/, '')
}

const DIGIT_WORDS: Record<string, string> = {
  zero: '0',
  oh: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  صفر: '0',
  واحد: '1',
  اثنين: '2',
  اتنين: '2',
  ثلاثه: '3',
  تلاته: '3',
  اربعه: '4',
  خمسه: '5',
  سته: '6',
  سبعه: '7',
  ثمانيه: '8',
  تمانيه: '8',
  تسعه: '9',
}

/** A phone number of 7 to 15 digits, said as digits or digit by digit ("oh five five ..."), with + kept. */
export function extractPhone(text: string): string | undefined {
  const words = toWesternDigits(text)
    .toLowerCase()
    .split(/[\s,،.-]+/)
    .map((word) => DIGIT_WORDS[normaliseArabic(word)] ?? word)
  let best = ''
  let run = ''
  for (const word of [...words, '']) {
    if (/^\+?[\d()]+$/.test(word)) run += word
    else if (word === 'double' || word === 'triple') continue
    else {
      if (run.replace(/\D/g, '').length > best.replace(/\D/g, '').length) best = run
      run = ''
    }
  }
  const digits = best.replace(/[^\d+]/g, '')
  const count = digits.replace(/\D/g, '').length
  return count >= 7 && count <= 15 ? digits : undefined
}

const COUNT_NOUNS =
  /^(people|persons?|guests?|adults?|kids|children|tickets?|seats?|rooms?|bedrooms?|nights?|items?|units?|things?|pieces?|bottles?|boxes?|packs?|bags?|products?|pax|of us|staff|employees|workers|حاجات|اشياء|قطع|قطعه|موظف|موظفين|عامل|عمال|اشخاص|شخص|افراد|نفر|انفار|ضيوف|تذاكر|تذكره|غرف|غرفه|مقاعد|ليالي|ليله)$/

/** A number; when strict, only one followed by a counting noun that fits the field ("3 tickets" for a party size). */
export function extractNumber(text: string, slot: Slot, strict: boolean): number | undefined {
  const found = findNumbers(text)
  if (!strict) return answeredNumber(text, found, slot)
  const fieldWords = plainWords(`${slot.label} ${slot.shape.description ?? ''}`)
  // "A table for four", "طاولة لأربعة": a count after "for" / ل, where the field counts people or things.
  if (/number|count|size|how many|عدد/.test(fieldWords)) {
    const tokens = numberTokens(text)
    for (let i = 0; i < tokens.length; i++) {
      const joined = /^ل/.test(tokens[i]!) && isArabicWord(tokens[i]!) ? findNumbers(tokens[i]!.slice(1))[0] : undefined
      const after = tokens[i] === 'for' ? findNumbers(tokens.slice(i + 1, i + 3).join(' '))[0] : undefined
      const value =
        joined?.value ??
        (after && !/^(am|pm|o'?clock|minutes?|hours?|days?|weeks?|months?|years?)$/.test(after.next) ? after.value : undefined)
      if (value !== undefined && value >= 1 && value <= 50) return value
    }
  }
  // "Bill's about two grand": a number said just after a word of the field's name.
  const labelWords = plainWords(slot.label)
    .split(' ')
    .filter((word) => word.length >= 4)
  const tokens = numberTokens(text)
  const named = found.find((number) =>
    tokens
      .slice(Math.max(0, number.start - 3), number.start)
      .some((token) => labelWords.some((word) => plainWords(token).startsWith(word.slice(0, 4)))),
  )
  if (named) return named.value
  // "Two of us", "تلاتة منا": a count of the callers themselves.
  const ofUs = /(\S+(?:[\s-]\S+)?)\s+of us\b/.exec(plainWords(text))
  const counted = ofUs && /number|count|size|how many|عدد/.test(fieldWords) ? findNumbers(ofUs[1]!).at(-1) : undefined
  if (counted) return counted.value
  const fits = found.find((number) => {
    const noun = plainWords(number.next)
    if (noun.length < 3) return false
    const stem = noun.slice(0, 4)
    return fieldWords.includes(stem) || (COUNT_NOUNS.test(noun) && /number|count|size|how many|عدد/.test(fieldWords))
  })
  return fits?.value
}

const PEOPLE_NOUNS = /^(adults?|kids|children|child|people|persons?|guests?|بالغين|كبار|اطفال|صغار|اشخاص|ضيوف|اولاد|عيال)$/
const TOTAL_CUE = /\b(?:family|party|group|total|all|altogether) of$|^(?:عائله|عيله|مجموعه)$/

/**
 * The number that answers a count question, when the turn says several. A total said as one
 * ("a family of four") wins; parts of a party add up ("two adults and three kids" → 5); a scale's
 * top is dropped ("four out of five" → 4); digits said one by one join ("two five" → 25); else
 * the last number said, since people restate and settle ("thirty? thirty-two", "eight or nine" → 9).
 */
function answeredNumber(text: string, found: FoundNumber[], slot: Slot): number | undefined {
  if (found.length <= 1) return found[0]?.value
  const tokens = numberTokens(text)
  const total = found.find((number) => TOTAL_CUE.test(tokens.slice(Math.max(0, number.start - 3), number.start).join(' ')))
  if (total) return total.value
  // "four out of five", "أربعة من خمسة": the second is the scale.
  const kept = found.filter(
    (number, index) => index === 0 || !/(?:^|\s)(?:out of|من)$/.test(tokens.slice(Math.max(0, number.start - 2), number.start).join(' ')),
  )
  const counts = /number|count|size|how many|عدد/.test(plainWords(`${slot.label} ${slot.shape.description ?? ''}`))
  if (counts && kept.length > 1 && kept.every((number) => PEOPLE_NOUNS.test(plainWords(number.next))))
    return kept.reduce((sum, number) => sum + number.value, 0)
  const digits = kept.every(
    (number, index) => number.value <= 9 && Number.isInteger(number.value) && (index === 0 || number.start === kept[index - 1]!.start + 1),
  )
  if (digits && kept.length === found.length) return Number(kept.map((number) => number.value).join(''))
  return kept.at(-1)?.value
}

/** Words and short phrases a member may be called by: its own words, the glossary's, and the name the field's description gives it. */
function memberPhrases(member: string, described: string | undefined): string[] {
  const words = plainWords(member.replace(/_/g, ' '))
  const phrases = new Set([words])
  for (const name of described?.split('|') ?? []) phrases.add(plainWords(name))
  if (isArabicWord(member)) return [...phrases]
  for (const word of words.split(' ')) for (const synonym of ENUM_WORD_SYNONYMS[word] ?? []) phrases.add(plainWords(synonym))
  return [...phrases].filter((phrase) => phrase.length > 0)
}

/**
 * The names a field's description gives its members, in their order ("القسم: طب عام أو أسنان أو
 * جلدية أو أطفال", "where: inside, the terrace or by the window"): matched to the members by
 * position, and only when the description lists exactly as many as there are.
 */
export function describedMemberNames(description: string | undefined, members: readonly unknown[]): Map<string, string> {
  const names = new Map<string, string>()
  const named = members.filter((member): member is string => typeof member === 'string')
  if (!description || named.length < 2 || named.length !== members.length) return names
  const list = description.includes(':') ? description.slice(description.lastIndexOf(':') + 1) : description
  const items = list
    .replace(/[.؟?]+\s*$/, '')
    .split(/\s*[,،]\s*(?:or\s+|أو\s+|او\s+)?|\s+(?:or|أو|او)\s+/i)
    .map((item) => item.trim())
    .filter(Boolean)
  if (items.length !== named.length) return names
  // "أشعة صوتية (سونار)": the name in brackets is another name for the same member.
  named.forEach((member, index) => names.set(member, items[index]!.replace(/\s*[(（]\s*([^)）]+?)\s*[)）]\s*/g, '|$1').replace(/\|$/, '')))
  return names
}

/** How well the caller's words match a phrase: 0 is exact, higher is worse; Infinity when they do not. */
function phraseDistance(callerWords: string[], phrase: string): number {
  const size = phrase.split(' ').length
  let best = Infinity
  for (let i = 0; i + size <= callerWords.length; i++) {
    const window = callerWords.slice(i, i + size).join(' ')
    if (window === phrase) return 0
    // Typos and recognition slips, scaled to the phrase's length; short words must match exactly.
    const allowed = phrase.length >= 5 ? Math.floor(phrase.length / 5) : 0
    const d = distance(window, phrase)
    if (d <= allowed) best = Math.min(best, d)
    // "cancel" for "cancellation", "book" for "booking": a shared start of at least 4 letters.
    else if (size === 1 && Math.min(window.length, phrase.length) >= 4 && (phrase.startsWith(window) || window.startsWith(phrase)))
      best = Math.min(best, 1.5)
  }
  return best
}

/** Enum members the caller named, best match first. */
export function matchEnumMembers(
  text: string,
  members: readonly (string | number | boolean | null)[],
  strict: boolean,
  described: ReadonlyMap<string, string> = new Map(),
): (string | number | boolean | null)[] {
  const words = plainWords(text).split(' ').map(stemOf)
  const scored: { member: string | number | boolean | null; score: number; index: number }[] = []
  members.forEach((member, index) => {
    if (typeof member !== 'string') return
    const own = plainWords(member.replace(/_/g, ' '))
    // Unasked, only whole words of at least four letters count: the member's own, the description's name for it, or the glossary's.
    const phrases = memberPhrases(member, described.get(member)).filter((phrase) => !strict || phrase.replace(/ /g, '').length >= 4)
    let score = Infinity
    for (const phrase of phrases) {
      const d = phraseDistance(words, phrase.split(' ').map(stemOf).join(' '))
      if (strict && d > 0) continue
      // An exact match on the member's own words beats a synonym shared with another member.
      score = Math.min(score, phrase === own ? d : d + 0.5)
    }
    if (score < Infinity) scored.push({ member, score, index })
  })
  return scored.sort((a, b) => a.score - b.score || a.index - b.index).map((entry) => entry.member)
}

/** One enum member; yes/no answers also pick the members that mean yes or no, and "I don't know" an "unknown"-like one. */
export function extractEnum(said: string, slot: Slot, strict: boolean): string | number | boolean | null | undefined {
  // Timelines by how far ahead ("within three months" → this_quarter); "a month" is how often, not when.
  const timeline = isTimeline(slot.members)
  const byHorizon = timeline ? memberByHorizon(said, slot.members) : undefined
  if (byHorizon !== undefined) return byHorizon
  const text = timeline ? withoutRates(said) : said
  const [best] = matchEnumMembers(text, slot.members, strict, describedMemberNames(slot.shape.description, slot.members))
  if (best !== undefined) return best
  if (strict) return undefined
  // Numbers and booleans in an enum are matched by value.
  const number = findNumbers(text)[0]?.value
  if (number !== undefined && slot.members.includes(number)) return number
  if (doesNotKnow(text))
    return slot.members.find((member) => typeof member === 'string' && /unclear|unknown|undecided|not_sure|other/.test(member))
  return undefined
}

/** A list answer split into items: "towels, water and a pillow" → three items. */
export function splitList(text: string): string[] {
  return (
    trimFillers(text)
      .split(/\s*(?:,|،|;|\band also\b|\band\b|\bor\b|\bplus\b|\s+و(?=ال)|\s+أو\s+|\s+او\s+)\s*/i)
      // "، والشقة" : the conjunction is dropped before the article only, since و also starts words (وجبة).
      .map((item) => trimFillers(item.replace(/^و(?=ال)/, '').replace(/^(?:or|and)\s+/i, '')))
      // "No nuts please": the politeness closes the turn, it is not part of the entry.
      .map((item) => item.replace(/\s+(?:please|thanks|thank you|لو سمحت|من فضلك)$/i, ''))
      .filter((item) => item.length > 0)
  )
}

/**
 * The value of a field in the caller's turn, typed for the field, or undefined. Date and time
 * fields whose description does not insist on a format accept the caller's words when no date
 * or time can be read ("sometime next week" for a callback time).
 */
export function extractSlotValue(
  slot: Slot,
  text: string,
  now: Date,
  strict = false,
  context: ExtractionContext = {},
): SlotValue | undefined {
  const words = trimFillers(text)
  if (words.length === 0) return undefined
  const strictFormat = /yyyy-mm-dd|hh:mm/i.test(slot.shape.description ?? '')
  // A plain "no" / "nothing" is an empty answer where the shape allows one; "no nuts" in a list or text is a value.
  const keepsItsNo = (slot.kind === 'list' || slot.kind === 'text') && namesAThing(slot, text)
  if (!strict && slot.emptyAllowed && slot.kind !== 'boolean' && slot.kind !== 'enum' && saysNothing(text) && !keepsItsNo)
    return slot.shape.type === 'array' ? [] : ''
  switch (slot.kind) {
    case 'name':
      return extractName(text, strict)
    case 'email':
      return extractEmail(text) ?? (strict ? undefined : freeText(words, text))
    case 'phone':
      return extractPhone(text)
    case 'date':
      return extractDate(text, now) ?? (strict || strictFormat ? undefined : timeWords(words, text))
    case 'time':
      return extractTime(text, { hours: context.hours, asked: !strict }) ?? (strict || strictFormat ? undefined : timeWords(words, text))
    case 'datetime': {
      const date = extractDate(text, now)
      const time = extractTime(text, { hours: context.hours })
      if (date && time) return `${date} ${time}`
      return date ?? time ?? (strict ? undefined : timeWords(words, text))
    }
    case 'integer':
    case 'number': {
      const value = extractNumber(text, slot, strict)
      if (value === undefined) return undefined
      return slot.kind === 'integer' ? Math.round(value) : value
    }
    case 'boolean':
      return booleanByMeaning(slot, text, strict)
    case 'enum': {
      const member = extractEnum(text, slot, strict)
      if (member !== undefined) return member as SlotValue
      // A yes/no question offered as an enum ("yes", "no", "unclear"), or a yes that confirms ("confirmed").
      const answer = strict ? undefined : yesOrNo(text)
      if (answer === undefined) return undefined
      const pattern = answer === 'yes' ? /^(yes|confirmed?|accepted|agreed?|interested)$/ : /^(no|declined|refused|not_interested)$/
      return slot.members.find((member) => typeof member === 'string' && pattern.test(member)) as SlotValue | undefined
    }
    case 'enum-list': {
      const members = matchEnumMembers(text, slot.members, strict, describedMemberNames(slot.shape.description, slot.members))
      return members.length > 0 ? members : undefined
    }
    case 'list': {
      if (strict) return undefined
      // "Yes" to "any allergies?" says there are some, not which: asked again.
      if (yesOrNo(text) !== undefined && plainWords(text).split(' ').length <= 2 && !(yesOrNo(text) === 'no' && keepsItsNo))
        return undefined
      const items = slot.shape.items?.type === 'string' ? splitList(text) : findNumbers(text).map((n) => n.value)
      return items.length > 0 ? items : undefined
    }
    case 'text': {
      // "Order number", "booking reference": letters, digits and separators, as said or spelled.
      if (isIdentifierField(slot.label, slot.shape.description)) {
        const identifier = extractIdentifier(text, {
          dashAfterLetters: /\bdash\b|\bhyphen\b|شرطة|شرطه/i.test(slot.shape.description ?? ''),
        })
        // Unasked, only a code with letters in it, or one the caller names as the field ("order 48213").
        if (strict) return identifier && (/[A-Z]/.test(identifier) || mentionsField(slot, text)) ? identifier : undefined
        if (identifier !== undefined) return identifier
        // A sentence is not a code, nor are words without a digit ("Tom Fisher"): asked again rather than stored.
        return plainWords(words).split(' ').length <= 2 && /\d/.test(toWesternDigits(words)) ? freeText(words, text) : undefined
      }
      if (strict) return undefined
      // "Room number" and the like: the digits when there are some.
      if (/\bnumber\b|رقم/.test(`${slot.label} ${slot.shape.description ?? ''}`)) {
        const digits = /\d[\d\s-]*\d|\d/.exec(toWesternDigits(text))?.[0] ?? findNumbers(text)[0]?.value
        if (digits !== undefined) return String(digits).replace(/[\s-]/g, '')
      }
      return freeText(words, text)
    }
  }
}

/** Free text is kept as said, minus fillers; a lone yes/no is no value for a text field. */
function freeText(words: string, said: string): string | undefined {
  // A question is never a value ("do you have parking?" asked for the date).
  if (/[?؟]\s*$/.test(said.trim())) return undefined
  const plain = plainWords(words)
  if (plain.length === 0 || (yesOrNo(plain) !== undefined && plain.split(' ').length <= 2)) return undefined
  return words
}

/**
 * Words that speak of when ("sometime next week", "بعد العصر", "whenever suits"): the caller's own
 * words kept for a date or time field that could not be read as one. A hesitation ("اسمه... إيه...
 * دي أول مرة") speaks of no time and is no value.
 */
const SPEAKS_OF_TIME =
  /\b(?:weeks?|weekends?|months?|years?|mornings?|afternoons?|evenings?|nights?|noon|midday|lunch(?:time)?|today|tomorrow|tonight|soon|later|asap|any ?time|whenever|early|late|o'?clock|hours?|days?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)\b|(?:^|\s)(?:[وبل]?(?:ال)?)(?:أسبوع|اسبوع|أسابيع|شهر|سنة|صبح|صباح|ظهر|ضهر|عصر|مغرب|عشا|مسا|مساء|ليل|يوم|بكرة|بكرا|بكره|ويكند|نهاية|آخر|بداية|ساعة|وقت|قريب)(?=\s|$|[،,.!])/iu

function timeWords(words: string, said: string): string | undefined {
  const kept = freeText(words, said)
  return kept !== undefined && SPEAKS_OF_TIME.test(kept) ? kept : undefined
}

/** Whether the turn names the field by a word of its label ("order", "رقم الطلب"). */
function mentionsField(slot: Slot, text: string): boolean {
  const said = new Set(plainWords(text).split(' ').map(stemOf))
  return plainWords(slot.label)
    .split(' ')
    .some((word) => word.length >= 3 && said.has(stemOf(word)))
}
