import { isArabicWord, normaliseArabic } from './arabic-normalisation'
import { isArabicStopWord, isEnglishStopWord } from './stop-words'
import type { Sentence } from './text-analysis'

/**
 * The "call card": what a conversation (or a short text) settles, read once before any part is
 * written. Who speaks (agent or caller), the names, identifiers, amounts, quantities, dates and
 * times it states, and which dates and times were given up: in a conversation a later date or
 * time replaces an earlier one ("Tuesday doesn't work… Thursday at four"), so the earlier one is
 * never reported as the booked one. Data tables and patterns only; no model.
 */

export type Role = 'agent' | 'caller'
export type FactKind = 'date' | 'time' | 'amount' | 'identifier' | 'quantity' | 'name'

export interface Fact {
  kind: FactKind
  /** As written in the sentence (a name without its cue word). */
  text: string
  /** Compared to tell one value from another (a weekday's number, a time as h:mm). */
  key: string
  sentence: number
}

export interface CallCard {
  /** Speaker of each sentence, when the text says who speaks. */
  roles: (Role | undefined)[]
  facts: Fact[]
  /** The name the caller gives for themself. */
  callerName: string | undefined
  /** People named with a title or introduced (the agent, a doctor), the caller's name excluded. */
  people: string[]
  /** Dates and times given up for a later one: facts, by sentence. */
  rejected: Fact[]
  /** The date and time the conversation settles on (the last one of each kind), in its words. */
  settled: Fact[]
  /** The sentence that states the main commitment (a booking, a delivery, a refund), if any. */
  commitment: number | undefined
  /** The caller's first sentence with content: why they called. */
  reason: number | undefined
  /** Sentences with an objection, a refusal or a concern. */
  objections: number[]
  /** Sentences that promise what happens next. */
  nextSteps: number[]
  /** The caller's answer to a choice offered ("a replacement or a refund?" → "A replacement"). */
  decisions: number[]
}

/** An offer of alternatives: "X or Y?", "… ولا …؟", "… أو …؟". */
export const ALTERNATIVES = /\bor\b|(?:^|\s)(?:أو|او|ولا|وإلا|والا)(?=\s)/

const AGENT_LABELS = new Set(
  [
    'agent',
    'operator',
    'representative',
    'rep',
    'assistant',
    'receptionist',
    'advisor',
    'adviser',
    'support',
    'staff',
    'bot',
    'الموظف',
    'الموظفة',
    'الوكيل',
    'الوكيلة',
    'المندوب',
    'المندوبة',
    'خدمة',
    'المساعد',
    'الاستقبال',
  ].map((word) => normaliseArabic(word)),
)
const CALLER_LABELS = new Set(
  ['caller', 'customer', 'client', 'user', 'patient', 'guest', 'المتصل', 'المتصلة', 'العميل', 'العميلة', 'الزبون', 'الزبونة', 'المريض', 'المريضة'].map((word) =>
    normaliseArabic(word),
  ),
)

/** Each sentence's role: from role labels, or, in a text of exactly two speakers, the first to speak answers the call. */
export function speakerRoles(sentences: readonly Sentence[]): (Role | undefined)[] {
  const labels = [...new Set(sentences.map((sentence) => sentence.speaker).filter((label): label is string => label !== undefined))]
  const known = (label: string): Role | undefined => {
    const word = normaliseArabic(label.split(/\s/)[0]!.toLowerCase())
    return AGENT_LABELS.has(word) ? 'agent' : CALLER_LABELS.has(word) ? 'caller' : undefined
  }
  const byLabel = new Map<string, Role>()
  for (const label of labels) {
    const role = known(label)
    if (role) byLabel.set(label, role)
  }
  if (byLabel.size === 0 && labels.length === 2) {
    byLabel.set(labels[0]!, 'agent')
    byLabel.set(labels[1]!, 'caller')
  }
  return sentences.map((sentence) => (sentence.speaker === undefined ? undefined : byLabel.get(sentence.speaker)))
}

// ---- Number words (English; Arabic as written in MSA, Gulf, Egyptian and Levantine speech) ----

const EN_UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
]
const EN_TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']
const EN_NUMBER_WORD = `(?:${[...EN_UNITS, ...EN_TENS, 'hundred', 'thousand', 'million', 'half', 'a', 'and'].join('|')})`
/** "sixty", "one hundred and eighty", "four and a half thousand", "forty-three", "850" (not a year): starts and ends on a number word. */
const EN_NUMBER = `(?:(?!(?:19|20)\\d{2}\\b)\\d[\\d,.]*|(?:${EN_NUMBER_WORD}[\\s-]+)*?(?:${[...EN_UNITS, ...EN_TENS, 'hundred', 'thousand', 'million'].join('|')}))`
const EN_CURRENCY = '(?:dollars?|pounds?|euros?|riyals?|dirhams?|dinars?|pence|cents?|bucks|quid|rupees?|pesos?)'
const CURRENCY_CODES = '(?:SAR|AED|USD|EUR|GBP|EGP|JOD|KWD|QAR|BHD|OMR|LBP|SYP|IQD|MAD|TND)'
const EN_WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
const EN_MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december'
const EN_ORDINAL =
  '(?:\\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-\\w+|thirtieth|thirty-first)'
const EN_HOUR = `(?:\\d{1,2}|${EN_UNITS.slice(1, 13).join('|')})`
const EN_MINUTES = '(?:fifteen|thirty|forty-five|oh \\w+|\\d{2})'
const EN_DAY_PART = "(?:in the (?:morning|afternoon|evening)|at night|a\\.?m\\.?|p\\.?m\\.?|o'clock)"

/** Arabic number words; a leading ب or ل (بمئتين، لستة) is allowed by the patterns. */
const AR_NUMBER_WORDS = `واحد واحدة اثنين اثنان اتنين تنين ثلاث ثلاثة تلات تلاتة أربع أربعة اربع اربعة خمس خمسة ست ستة سبع سبعة ثمان ثماني ثمانية تمان تمانية تمن
  تسع تسعة عشر عشرة عشرين عشرون ثلاثين تلاتين أربعين اربعين خمسين ستين سبعين ثمانين تمانين تسعين مية مئة مائة مئتين مئتان ميتين
  ثلاثمية ثلاثمئة تلاتمية تلتمية أربعمية أربعمئة اربعمية خمسمية خمسمئة ستمية ستمئة سبعمية سبعمئة ثمانمية ثمانمئة تمنمية تمانمية تسعمية تسعمئة
  ألف الف آلاف ألفين الفين مليون نص نصف ربع حداش حداشر احدعشر أحد إحدى اثنعشر اتناشر`
  .split(/\s+/)
  .filter(Boolean)
  .sort((a, b) => b.length - a.length)
const AR_NUMBER_WORD = `(?:${AR_NUMBER_WORDS.join('|')})`
const AR_NUMBER = `(?:[\\d\\u0660-\\u0669][\\d\\u0660-\\u0669,.٫]*|${AR_NUMBER_WORD}(?:\\s+و?${AR_NUMBER_WORD})*)`
const AR_CURRENCY = '(?:ريال|ريالات|جنيه|جنيهات|دينار|دنانير|درهم|دراهم|دولار|دولارات|ليرة|ليرات|يورو|شيكل|فلس)'
const AR_WEEKDAYS: readonly (readonly string[])[] = [
  ['الأحد', 'الاحد'],
  ['الاثنين', 'الإثنين', 'التنين', 'الاتنين'],
  ['الثلاثاء', 'التلات', 'التلاتاء'],
  ['الأربعاء', 'الاربعاء'],
  ['الخميس'],
  ['الجمعة', 'الجمعه'],
  ['السبت'],
]
const AR_MONTHS =
  'يناير|فبراير|مارس|أبريل|ابريل|مايو|يونيو|يوليو|أغسطس|اغسطس|سبتمبر|أكتوبر|اكتوبر|نوفمبر|ديسمبر|كانون الثاني|شباط|آذار|نيسان|أيار|حزيران|تموز|آب|أيلول|تشرين الأول|تشرين الثاني|كانون الأول'
const AR_DAY_PART = '(?:الصبح|صباحا|صباحًا|الصباح|الظهر|العصر|المغرب|المسا|مساء|مساءً|بالليل|الليل|ص|م)'
const AR_FRACTION = '(?:و?نص|ونصف|وربع|إلا ربع|الا ربع|إلا ربع|وتلت|وثلث)'
/** Arabic word boundaries: JavaScript's \b knows only Latin letters. */
const AR_START = '(?<![\\p{L}\\p{N}])'
const AR_END = '(?![\\p{L}\\p{N}])'

interface Pattern {
  kind: FactKind
  regex: RegExp
  /** The value compared; by default the matched text normalised. */
  key?: (match: RegExpExecArray) => string
  /** The group holding the value when the match includes a cue word. */
  group?: number
}

const plainKey = (text: string) =>
  normaliseArabic(text.toLowerCase())
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

function englishNumberValue(text: string): number | undefined {
  const lower = text.toLowerCase().trim()
  if (/^\d{1,2}$/.test(lower)) return Number(lower)
  const unit = EN_UNITS.indexOf(lower)
  return unit >= 0 ? unit : undefined
}

/** A time as `h:mm` on a 12-hour dial: "half past two", "2:30 pm" and "two thirty" are one time. */
function englishTimeKey(text: string): string {
  const lower = text.toLowerCase().replace(/^at\s+/, '')
  const half = /^(half|quarter) (past|to) (\w+)/.exec(lower)
  if (half) {
    const hour = englishNumberValue(half[3]!) ?? 0
    if (half[1] === 'half') return `${hour % 12}:30`
    return half[2] === 'past' ? `${hour % 12}:15` : `${(hour + 11) % 12}:45`
  }
  const clock = /^(\w+)(?::(\d{2})|\s+(fifteen|thirty|forty-five))?/.exec(lower)
  const hour = englishNumberValue(clock?.[1] ?? '') ?? -1
  const minutes = clock?.[2] ?? { fifteen: '15', thirty: '30', 'forty-five': '45' }[clock?.[3] ?? ''] ?? '00'
  return hour < 0 ? plainKey(text) : `${hour % 12}:${minutes}`
}

const AR_HOURS: Record<string, number> = Object.fromEntries(
  (
    [
      [1, 'واحد واحدة'],
      [2, 'اثنين اتنين تنين'],
      [3, 'ثلاث ثلاثة تلات تلاتة'],
      [4, 'أربع أربعة اربع اربعة'],
      [5, 'خمس خمسة'],
      [6, 'ست ستة'],
      [7, 'سبع سبعة'],
      [8, 'ثمان ثماني ثمانية تمان تمانية'],
      [9, 'تسع تسعة'],
      [10, 'عشر عشرة'],
      [11, 'حداش حداشر احدعشر'],
      [12, 'اثنعشر اتناشر'],
    ] as const
  ).flatMap(([hour, words]) => words.split(' ').map((word) => [normaliseArabic(word), hour])),
)

function arabicTimeKey(match: RegExpExecArray): string {
  const hourText = match[1]!.replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
  const hour = /^\d+/.test(hourText) ? Number(/^\d+/.exec(hourText)![0]) : AR_HOURS[normaliseArabic(hourText.split(/\s/)[0]!)]
  if (hour === undefined) return plainKey(match[0])
  const minutes = /:(\d{2})/.exec(hourText)?.[1] ?? (/نص/.test(match[2] ?? '') ? '30' : /ربع/.test(match[2] ?? '') ? (/ا?لا/.test(match[2]!) ? '45' : '15') : '00')
  return `${(/ا?لا ربع/.test(match[2] ?? '') ? hour + 11 : hour) % 12}:${minutes}`
}

const arabicWeekdayKey = (text: string) => String(AR_WEEKDAYS.findIndex((forms) => forms.some((form) => normaliseArabic(text).includes(normaliseArabic(form)))))

// A bare hour after "at" ("at four", "at ten on Monday") is a time only where a time can end: "at one point" is not one.
const PATTERNS: readonly Pattern[] = [
  // Identifiers: letters and digits together (BN-58231, KX19 LMP), or a long number after a reference word.
  { kind: 'identifier', regex: /\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]{4})[A-Z0-9]{2,}(?:[-/][A-Z0-9]+)*(?:\s[A-Z]{2,4}\b(?![a-z]))?/g },
  {
    kind: 'identifier',
    regex: /(?:number|account|order|reference|ref|ticket|case|رقم|حساب|طلب)\s*(?:is\s+|:\s*)?#?([\d\u0660-\u0669][\d\u0660-\u0669 -]{3,}[\d\u0660-\u0669])/giu,
    group: 1,
  },
  // An email address is how to reach someone: a reference like any other.
  { kind: 'identifier', regex: /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g },
  // Amounts: a number and a currency word, a symbol before it, or an ISO code either side ("SAR 200", "200 AED").
  { kind: 'amount', regex: new RegExp(`\\b${CURRENCY_CODES}\\s?\\d[\\d,.]*|\\b\\d[\\d,.]*\\s?${CURRENCY_CODES}\\b`, 'g') },
  { kind: 'amount', regex: new RegExp(`[$£€]\\s?\\d[\\d,.]*(?:\\s?(?:k|thousand|million))?|\\b${EN_NUMBER}\\s+(?:thousand\\s+|million\\s+)?${EN_CURRENCY}\\b`, 'gi') },
  { kind: 'amount', regex: new RegExp(`${AR_START}[بل]?${AR_NUMBER}\\s+(?:ألف\\s+|الف\\s+)?${AR_CURRENCY}${AR_END}`, 'gu') },
  // Dates.
  {
    kind: 'date',
    // "since Monday", "last Friday" date the past, not a slot.
    regex: new RegExp(`(?<!\\b(?:since|last|from last)\\s)\\b(?:${EN_WEEKDAYS.join('|')})(?:\\s+the\\s+${EN_ORDINAL})?\\b`, 'gi'),
    key: (match) => String(EN_WEEKDAYS.indexOf(match[0].split(/\s/)[0]!.toLowerCase())),
  },
  {
    kind: 'date',
    regex: new RegExp(
      `\\b(?:the\\s+)?${EN_ORDINAL}\\s+of\\s+(?:${EN_MONTHS})\\b|\\b(?:${EN_MONTHS})\\s+\\d{1,2}(?:st|nd|rd|th)?\\b|\\b(?:tomorrow|the day after tomorrow)\\b`,
      'gi',
    ),
  },
  {
    kind: 'date',
    regex: new RegExp(`${AR_START}(?<!(?:منذ|من|من يوم)\\s)(?:يوم\\s+)?[وبل]?(?:${AR_WEEKDAYS.flat().join('|')})(?:\\s+(?:الجاي|الجاية|الجاي|القادم|الماضي))?${AR_END}`, 'gu'),
    key: (match) => arabicWeekdayKey(match[0]),
  },
  {
    kind: 'date',
    regex: new RegExp(
      `${AR_START}(?:ال\\p{L}+\\s+(?:عشر\\s+)?|[\\d\\u0660-\\u0669]{1,2}\\s+)(?:من\\s+)?(?:${AR_MONTHS})${AR_END}|${AR_START}(?:بكرة|بكره|بكرا|غدا|غدًا|بعد بكرة)${AR_END}`,
      'gu',
    ),
  },
  // Times.
  {
    kind: 'time',
    regex: new RegExp(
      `\\b(?:half|quarter)\\s+(?:past|to)\\s+${EN_HOUR}(?:\\s+${EN_DAY_PART})?|\\b\\d{1,2}:\\d{2}(?:\\s?(?:a\\.?m\\.?|p\\.?m\\.?))?|\\b\\d{1,2}\\s?(?:a\\.?m\\.?|p\\.?m\\.?)|\\b(?<=at\\s)${EN_HOUR}(?:\\s+${EN_MINUTES})?(?:\\s+${EN_DAY_PART})?\\b(?=\\s*(?:[.,;!?]|$)|\\s+(?:on|with|for|then|and|is|works|tomorrow|today|sharp)\\b)|\\b${EN_HOUR}(?:\\s+${EN_MINUTES})?\\s+${EN_DAY_PART}|\\b${EN_HOUR}\\s+(?:fifteen|thirty|forty-five)\\b`,
      'gi',
    ),
    key: (match) => englishTimeKey(match[0]),
  },
  {
    kind: 'time',
    regex: new RegExp(
      `${AR_START}(?:ال|ب)?ساعة\\s+([\\d\\u0660-\\u0669]{1,2}(?::[\\d\\u0660-\\u0669]{2})?|${AR_NUMBER_WORD}(?:\\s+عشر)?)(?:\\s+(${AR_FRACTION}))?(?:\\s+${AR_DAY_PART})?${AR_END}`,
      'gu',
    ),
    key: arabicTimeKey,
  },
  // Quantities: a number and what it counts ("twelve cooling centres", "تلات غرف").
  {
    kind: 'quantity',
    regex: new RegExp(
      `\\b(?:room|floor|gate|flat|unit|aisle)\\s+\\d+\\b|\\b${EN_NUMBER}(?:\\s+(?!(?:${EN_CURRENCY}|${EN_DAY_PART}|o'clock|and|or|of|to|at|in|the|a)\\b)[a-z][a-z-]+){1,2}`,
      'gi',
    ),
  },
  { kind: 'quantity', regex: new RegExp(`${AR_START}[بل]?${AR_NUMBER}(?:\\s+(?!(?:${AR_CURRENCY}|${AR_DAY_PART}|من|في|على)(?![\\p{L}\\p{M}])|و)[\\p{L}\\p{M}]{2,}){1,2}`, 'gu') },
]

/** English cue + name: "this is Karen", "it's Daniel Moss", "my name is …", "engineer named Priya"; titles: "Dr. Patel". */
const EN_SELF_INTRODUCTION = /\b(?:this is|it's|it is|my name is|my name's|i'm|i am|name is|named|call me)\s+((?:[A-Z][a-z]+)(?:\s+[A-Z][a-z]+)?)/g
const EN_TITLED = /\b((?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?\s+[A-Z][a-z]+)/g
const AR_SELF_INTRODUCTION = new RegExp(`${AR_START}(?:معك|معاك|معكم|أنا|انا|اسمي|إسمي|باسم|بإسم)\\s+(\\p{L}{2,}(?:\\s+\\p{L}{2,})?)(?=\\s*(?:[،,.!؟?]|$))`, 'gu')
const AR_TITLED = new RegExp(`${AR_START}((?:الدكتور|الدكتورة|دكتور|دكتورة|الأستاذ|الأستاذة|أستاذ|أستاذة|المهندس|المهندسة|مهندس|مهندسة)\\s+\\p{L}{2,})`, 'gu')
const NAME_QUESTION = /\bname\b|اسم|إسم|باسم مين|باسم من/i
const NOT_A_NAME = new Set([
  'مين',
  'ايش',
  'إيش',
  'شو',
  'ماذا',
  'من',
  'hi',
  'hello',
  'hey',
  'thanks',
  'speaking',
  'here',
  'calling',
  'sorry',
  'fine',
  'good',
  'great',
  'ok',
  'okay',
  'yes',
  'no',
  'not',
  'the',
])

const OBJECTION = new RegExp(
  `\\b(?:concern(?:ed)?|worried|too (?:expensive|much|high|late|early)|can't|cannot|can not|doesn't work|don't want|not interested|problem is|afraid|unhappy|expensive)\\b|(?<![\\p{L}])[وف]?(?:ما يناسب|مش مناسب|ما يناسبني|مش فاضي|مش فاضية|ما أقدر|ما اقدر|مش هقدر|غالي|عالي|مو مناسب|ما بقدر|مش عاجب|للأسف)(?![\\p{L}])`,
  'iu',
)
const NEXT_STEP = new RegExp(
  `\\b(?:will|we'll|i'll|you'll|it'll|going to|booked|confirmed|scheduled|arranged|reserved|see you|send|sent|text you|email you|call you back)\\b|(?<![\\p{L}])[وف]?(?:تم|اتحجز|سوف|سنقوم|رح|راح|بنرسل|هنبعت|هتكون|بيرجع|ترجع|توصلك|بيوصلك|بنبعت|نبعتلك|حجزت|فتحت|بستنا|منستنا|نستناك)(?![\\p{L}])`,
  'iu',
)
const COMMITMENT = new RegExp(
  `\\b(?:booked|confirmed|scheduled|arranged|reserved|set up|see you|is free|will be delivered|will come|will arrive)\\b|(?<![\\p{L}])[وف]?(?:تم الحجز|تم|اتحجز|حجزت|حجزنا|مأكد|مؤكد|توصلك|بيوصلك|بستنا|نستناك|منستناك|فتحت)(?![\\p{L}])`,
  'iu',
)

/**
 * The call card of analysed sentences. `conversation` turns on later-replaces-earlier: in an
 * article, two dates ("from Thursday to Sunday") are both facts.
 */
export function readCallCard(sentences: readonly Sentence[], conversation: boolean): CallCard {
  const roles = speakerRoles(sentences)
  const facts: Fact[] = []
  for (const sentence of sentences) {
    const taken: [number, number][] = []
    for (const pattern of PATTERNS) {
      for (const match of sentence.text.matchAll(pattern.regex)) {
        const text = pattern.kind === 'quantity' ? countedWords(match[0]) : (pattern.group ? match[pattern.group] : match[0])!.trim().replace(/[.,،]+$/, '')
        if (!text) continue
        const start = match.index
        const end = start + match[0].length
        // A span already read as a more specific kind (an amount) is not a quantity too.
        if (taken.some(([from, to]) => start < to && end > from)) continue
        taken.push([start, end])
        facts.push({ kind: pattern.kind, text, key: pattern.key ? pattern.key(match) : plainKey(text), sentence: sentence.index })
      }
    }
  }
  const names = readNames(sentences, roles)
  facts.push(...names.facts)

  const { settled, rejected } = conversation
    ? laterReplacesEarlier(sentences, facts)
    : { settled: facts.filter((fact) => fact.kind === 'date' || fact.kind === 'time'), rejected: [] }
  const schedule = new Set(settled.map((fact) => fact.sentence))
  const commitmentCandidates = sentences.filter((sentence) => schedule.has(sentence.index) && COMMITMENT.test(sentence.text)).map((sentence) => sentence.index)
  const rejectedSentences = new Set(rejected.map((fact) => fact.sentence))
  const commitment = commitmentCandidates.filter((index) => !rejectedSentences.has(index)).at(-1) ?? [...schedule].filter((index) => !rejectedSentences.has(index)).at(-1)
  const reason = sentences.find((sentence) => roles[sentence.index] === 'caller' && !sentence.isQuestion && sentence.tokens.filter((token) => !token.stop).length >= 3)?.index
  return {
    roles,
    facts,
    callerName: names.caller,
    people: names.people,
    rejected,
    settled,
    commitment,
    reason,
    objections: sentences.filter((sentence) => (roles[sentence.index] ?? 'caller') === 'caller' && OBJECTION.test(sentence.text)).map((sentence) => sentence.index),
    decisions: choicesMade(sentences, roles),
    nextSteps: sentences.filter((sentence) => roles[sentence.index] !== 'caller' && NEXT_STEP.test(sentence.text) && !sentence.isQuestion).map((sentence) => sentence.index),
  }
}

/** A turn that turns an offer down: "doesn't work", "can't", "taken", "لا، …", "مش فاضية", "مفيش مكان". */
const REFUSAL =
  /\b(?:doesn't work|does not work|don't work|won't work|can't|cannot|can not|no good|not possible|taken|booked up|full|instead|rather|unavailable|not free|not available)\b|(?:^|[\s،,])(?:لا|لأ|مو|مب|مش|ما يناسب|ما ينفع|مينفعش|مفيش|ما في|مافي|ما فيه|ما بقدر|ما أقدر|ما اقدر|مش فاضي|مش فاضية|محجوز|بدل|بدال)(?=[\s،,.!?؟]|$)/i
/** A caller switching to another option ("make it Thursday", "خلها الأكسنت", "instead"): the sentence names the option given up. */
export const SWITCH = /\b(?:make it|instead|rather|switch to|change it to)\b|(?:^|[\s،,])(?:خلها|خليها|خليه|خله|خلّيها|بدل|بدال|خليني)(?=\s)/i

/** The first sentence of each caller turn that answers an agent's question offering alternatives. */
function choicesMade(sentences: readonly Sentence[], roles: readonly (Role | undefined)[]): number[] {
  const decisions: number[] = []
  let previousTurn: Sentence[] = []
  let currentTurn: Sentence[] = []
  for (const sentence of sentences) {
    if (currentTurn.length > 0 && sentence.turn !== currentTurn[0]!.turn) {
      previousTurn = currentTurn
      currentTurn = []
    }
    currentTurn.push(sentence)
    const opensCallerTurn = currentTurn.length === 1 && roles[sentence.index] === 'caller' && !sentence.isQuestion
    if (opensCallerTurn && previousTurn.some((asked) => roles[asked.index] === 'agent' && asked.isQuestion && ALTERNATIVES.test(asked.text))) decisions.push(sentence.index)
  }
  return decisions
}

/**
 * Dates and times in a conversation: a value is given up when a later, different value of the
 * same kind follows and the value was turned down, in its own sentence or in the reply turn
 * ("Tuesday doesn't work"), or the reply turn proposed another one ("Could we make it Thursday?").
 * Two dates that answer different things ("down since Saturday", "fixed by Tuesday") both stand.
 */
function laterReplacesEarlier(sentences: readonly Sentence[], facts: readonly Fact[]): { settled: Fact[]; rejected: Fact[] } {
  const settled: Fact[] = []
  const rejected: Fact[] = []
  for (const kind of ['date', 'time'] as const) {
    const ofKind = facts.filter((fact) => fact.kind === kind)
    for (const fact of ofKind) {
      const later = ofKind.filter((other) => other.sentence > fact.sentence || (other.sentence === fact.sentence && other !== fact && ofKind.indexOf(other) > ofKind.indexOf(fact)))
      const superseded = later.some((other) => other.key !== fact.key) && !later.some((other) => other.key === fact.key && other.sentence > replyTurnEnd(sentences, fact.sentence))
      const reply = replyTurn(sentences, fact.sentence)
      const turnedDown =
        REFUSAL.test(sentences[fact.sentence]!.text) ||
        reply.some((index) => REFUSAL.test(sentences[index]!.text) || SWITCH.test(sentences[index]!.text)) ||
        ofKind.some((other) => reply.includes(other.sentence) && other.key !== fact.key)
      ;(superseded && turnedDown ? rejected : settled).push(fact)
    }
    // Once turned down, every earlier mention of that value is the old one too ("She's booked for Wednesday at four").
    const last = ofKind.at(-1)?.key
    const given = new Set(rejected.filter((fact) => fact.kind === kind).map((fact) => fact.key))
    for (const fact of [...settled]) {
      if (fact.kind === kind && given.has(fact.key) && fact.key !== last) {
        settled.splice(settled.indexOf(fact), 1)
        rejected.push(fact)
      }
    }
  }
  return { settled, rejected }
}

/** The sentences of the next speaker turn after `index`'s turn. */
function replyTurn(sentences: readonly Sentence[], index: number): number[] {
  const turn = sentences[index]!.turn
  const next = sentences.find((sentence) => sentence.turn > turn)?.turn
  return next === undefined ? [] : sentences.filter((sentence) => sentence.turn === next).map((sentence) => sentence.index)
}

function replyTurnEnd(sentences: readonly Sentence[], index: number): number {
  return replyTurn(sentences, index).at(-1) ?? index
}

function readNames(sentences: readonly Sentence[], roles: readonly (Role | undefined)[]): { facts: Fact[]; caller: string | undefined; people: string[] } {
  const facts: Fact[] = []
  let caller: string | undefined
  const people: string[] = []
  const add = (text: string, sentence: number, asCaller: boolean) => {
    // "أنا اسمي منى": the second cue is not part of the name.
    const name = text.trim().replace(/^(?:اسمي|إسمي|my name is)\s+/iu, '')
    if (!name || name.split(/\s+/).some((word) => NOT_A_NAME.has(word.toLowerCase()))) return
    facts.push({ kind: 'name', text: name, key: plainKey(name), sentence })
    if (asCaller) caller ??= name
    else if (!people.includes(name)) people.push(name)
  }
  for (const sentence of sentences) {
    const role = roles[sentence.index]
    for (const match of sentence.text.matchAll(EN_SELF_INTRODUCTION)) add(match[1]!, sentence.index, role === 'caller')
    for (const match of sentence.text.matchAll(AR_SELF_INTRODUCTION)) add(match[1]!, sentence.index, role === 'caller')
    for (const match of sentence.text.matchAll(EN_TITLED)) add(match[1]!, sentence.index, false)
    // A title before a word with the article names a department ("دكتورة الجلدية"), not a person.
    for (const match of sentence.text.matchAll(AR_TITLED)) if (!/\sال/.test(match[1]!)) add(match[1]!, sentence.index, false)
    // A short reply to "your name?" is a name.
    const previous = sentences[sentence.index - 1]
    const firstClause = sentence.text.split(/[,،]/)[0]!
    if (role === 'caller' && previous && previous.turn !== sentence.turn && NAME_QUESTION.test(previous.text) && firstClause.split(/\s+/).length <= 3 && !sentence.isQuestion) {
      const reply = firstClause.replace(/[.!]+$/, '').replace(/^(?:it's|my name is|اسمي|باسم)\s+/i, '')
      if (!/\d/.test(reply) && !/^(?:yes|no|ok|okay|نعم|لا|اي|إيه|ايوه)\b/i.test(reply)) add(reply, sentence.index, true)
    }
  }
  return { facts, caller, people }
}

/**
 * A quantity as the number and the content words it counts: trailing function words dropped
 * ("one building with" → "one building"); a bare number only when it is long enough to be a
 * value ("850", "تمنمية وخمسين"), not "one" or "two".
 */
function countedWords(match: string): string {
  const words = match
    .trim()
    .replace(/^and\s+/i, '')
    .replace(/[.,،]+$/, '')
    .split(/\s+/)
  while (words.length > 1 && isFunctionWord(words.at(-1)!)) words.pop()
  const text = words.join(' ')
  // A year ("in 2021, …") dates something; it counts nothing. Nor does "one" ("one of the trials", "إحدى التجارب").
  const justOne = ONE.has(normaliseArabic(words[0]!.toLowerCase())) && !/^(?:hundred|thousand|million|and|half|مئة|مية|مائة|ألف|الف)/i.test(words[1] ?? '')
  if (/^(?:19|20)\d{2}$/.test(words[0]!) || justOne) return ''
  if (words.length === 1 || words.slice(1).every(isFunctionWord)) return /\d{2}|و\S/.test(text) ? text : ''
  return text
}

const ONE = new Set(['one', 'a', 'واحد', 'واحدة', 'إحدى', 'احدى', 'أحد', 'احد'].map(normaliseArabic))

const isFunctionWord = (word: string) => {
  const lower = word.toLowerCase().replace(/[.,،]+$/, '')
  return /[^\p{L}\p{M}]/u.test(lower) || (isArabicWord(lower) ? isArabicStopWord(normaliseArabic(lower)) : isEnglishStopWord(lower))
}
