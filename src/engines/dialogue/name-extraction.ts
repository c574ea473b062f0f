import { isArabicWord, normaliseArabic } from '../ai-content/arabic-normalisation'
import { plainWords, trimFillers, withoutOpeners } from './caller-intents'
import { findNumbers } from './spoken-numbers'

/**
 * A caller's name from what they said: after a cue ("my name is", "it's under", "اسمي"), or, when
 * the name was asked for, the part of the answer that can be one. `strict` (a name not asked
 * for) takes only the strong cues.
 */

// Longest first: at one place in the turn, "it's under" must win over "it's".
const UNDER_NAME_EN =
  "(?:it's |it is |it'll be |booked |book it |put it |that's |reservation's |booking's |the (?:booking|reservation|table|order) is )?(?:under(?: the name(?: of)?| my name,?)?|in the name of)|for my (?:husband|wife|son|daughter|father|mother|dad|mum|mom|brother|sister|partner|grandson|granddaughter),?"
const NAME_CUES_EN = new RegExp(
  `\\b(?:${UNDER_NAME_EN}|my name is|my name's|(?:his|her|the) name is|name is|name's|name|this is|i am|i'm|im|it's|call me|it is)\\s+(.+)$`,
  'i',
)
const UNDER_NAME_AR =
  '(?:الحجز |الطلب )?(?:باسم|ب[اإ]سم|على اسم|علي اسم|عاسم|ع اسم|تحت اسم)|ل(?:جوزي|زوجي|زوجتي|مرتي|ابوي|ابويا|[أا]بي|[أا]مي|ابني|[اإ]بني|بنتي|ولدي|[اأ]خوي|[اأ]ختي|[اأ]خويا|[اأ]ختي)'
const NAME_CUES_AR = new RegExp(`(?:^|\\s)(?:${UNDER_NAME_AR}|اسمي|[اأ]نا اسمي|اسمه|اسمها|معك|معاك|[اأ]نا|الاسم|اسم)\\s+(.+)$`)
// Unasked, only cues that introduce nothing but a name count ("it's" may introduce anything);
// "أنا …" only where the turn starts with it (after any greeting).
// "It's under Lucy Hamilton", "the booking is in the name of…", "على اسم…": a name given late, while something else is asked.
const STRONG_NAME_CUES_EN = new RegExp(
  `\\b(?:${UNDER_NAME_EN}|my name is|my name's|(?:his|her|the) name is|name's|call me|i am|i'm)\\s+(.+)$`,
  'i',
)
const STRONG_NAME_CUES_AR = new RegExp(`(?:^|\\s)(?:${UNDER_NAME_AR}|اسمي|[اأ]نا اسمي|اسمه|اسمها|الاسم)\\s+(.+)$|^[اأ]نا\\s+(.+)$`)
/** Words a name never starts with: questions, prepositions, pronouns, verbs of wanting ("for a check-up", "هو انتو فاتحين"). */
const NOT_NAME_STARTS = new Set([
  ...[
    'for',
    'at',
    'on',
    'in',
    'to',
    'with',
    'about',
    'do',
    'does',
    'did',
    'are',
    'is',
    'can',
    'could',
    'what',
    'when',
    'where',
    'how',
    'why',
    'which',
    'who',
    'we',
    'my',
    'our',
    'it',
    'there',
    'next',
    'this',
    'tomorrow',
    'today',
  ],
  ...[
    'هو',
    'هي',
    'انتو',
    'انتم',
    'انت',
    'عندكم',
    'في',
    'على',
    'عن',
    'متى',
    'كيف',
    'وين',
    'فين',
    'ليش',
    'ليه',
    'هل',
    'شو',
    'ايش',
    'وش',
    'ممكن',
    'عايز',
    'عايزه',
    'بدي',
    'ابي',
    'ابغي',
    'ابغى',
    'حاب',
    'بتصل',
    'كنت',
    'مش',
    'مو',
    'ما',
    'جاي',
    'تمام',
    'الطلب',
    'بكره',
    'اليوم',
  ],
])
const NAME_STOP_EN = /\s+(?:and|but|i|i'm|i'd|we|from|calling|here|speaking|please|for|who|with|,)\b.*$/i
// Written as said, before normalisation: alef and yaa in their several forms.
const NAME_STOP_AR = /\s+و?(?:[اأ]بغ[يى]|[اأ]ب[يى]|[اأ]ريد|عندي|بدي|[اأ]حتاج|حاب|من)(?:\s.*)?$/
const NOT_NAMES = new Set([
  'yes',
  'no',
  'calling',
  'here',
  'fine',
  'good',
  'sorry',
  'not',
  'just',
  'looking',
  'interested',
  'going',
  'a',
  'the',
  'sure',
  'ok',
  'okay',
  'نعم',
  'لا',
  'هنا',
  'بخير',
  'موجود',
  'اتصل',
  'متصل',
  'ابغي',
  'اريد',
  'عندي',
])

/** Everyday English words that are not names ("Great", "Sunday lunch", "I'd like a table"). */
const COMMON_ENGLISH = new Set(
  (
    "i i'd i'll i've i'm im me my we we're us our you your he she it it's they them a an the this that these those and or but so if then " +
    'am is are was were be been have has had do does did will would can could should shall may might must not no yes yeah ok okay ' +
    'hi hello hey thanks thank cheers please sorry great good fine right sure well just actually really maybe also too very ' +
    'like want need book booking table order parcel refund replacement appointment check-up checkup visit clinic call ' +
    'today tomorrow tonight morning afternoon evening night noon lunch dinner breakfast week weekend next last ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december ' +
    'one two three four five six seven eight nine ten people adults kids children name number time date there here what when where who how why which'
  ).split(' '),
)
const isNumberWord = (word: string) => findNumbers(word).length > 0

/** Whether a few words can be a person's name: no digits, no question, no everyday words; capitalised where the turn has capitals at all. */
function plausibleName(words: readonly string[], cased: boolean): boolean {
  if (words.length === 0 || words.length > 4) return false
  const first = plainWords(words[0]!)
  if (NOT_NAMES.has(first) || NOT_NAME_STARTS.has(first)) return false
  if (words.some((word) => /\d/.test(word))) return false
  // Arabic has no capitals: no number, no everyday word, no negated verb ("معندوش", "مفيش").
  if (isArabicWord(words[0]!))
    return !words.some(
      (word) => isNumberWord(word) || NOT_NAME_WORDS_AR.has(normaliseArabic(word)) || /^ما?.{2,}ش$/.test(normaliseArabic(word)),
    )
  // "I'm having trouble", "I'm interested": a state, not a name (while "Ahmed" and "Mohammed" are names).
  if (
    /(?:ing|ed)$/.test(words[0]!) &&
    (cased || /ing$|[^aeiou]ed$|ied$/i.test(words[0]!)) &&
    !/^(?:ahmed|mohammed|muhammad|hamed|saeed|mohamed|sayed|ed|ted|fred|ned)$/i.test(words[0]!)
  )
    return false
  // Letters spelled one by one are how a name is spelled, not the name ("L E E", "K L M").
  const letters = words.filter((word) => /^[A-Za-z]\.?$/.test(word))
  if (letters.length > 1 || (letters.length === 1 && (words.length === 1 || /^[A-Za-z]\.?$/.test(words.at(-1)!)))) return false
  if (words.some((word) => COMMON_ENGLISH.has(word.toLowerCase()) || isNumberWord(word))) return false
  return !cased || words.every((word) => /^[A-Z]/.test(word))
}
/** Arabic words of a booking or an order that a name is never made of. */
const NOT_NAME_WORDS_AR = new Set(
  (
    'تحويل ورقه دكتور الدكتور تحليل اشعه سونار صايم ايوه اه لا مفيش معندوش ماعنديش عندي معي معايا ' +
    'الطلب طلب طاوله ترابيزه موعد حجز بكره بكرا اليوم الساعه الاحد الاثنين الثلاثاء الاربعاء الخميس الجمعه السبت برا جوا جلسه قسم مكسور وصل الاوردر فلوس عايز عايزه بدي ابي ابغي'
  ).split(' '),
)

/** Two or more capital letters said one by one, with what introduces them ("that's L E E", "S, I, O, B…", "L-E-E"). */
const SPELLED_RUN = /(?:\b(?:that's|that is|spelled|spelt|spelling)\s+)?\b[A-Z]\b(?:[\s,.-]+[A-Z]\b)+\.?/g

/** A person's name: after a cue ("my name is", "I'm", "اسمي") anywhere in the turn, or, asked for it, the part of the answer that looks like a name. */
export function extractName(said: string, strict: boolean): string | undefined {
  // "Grace Lee, that's L E E", "Lee, L-E-E": the spelling is set aside, and used only when it is all there is.
  const spelled: string[] = []
  const text = said.replace(SPELLED_RUN, (run) => {
    spelled.push(run.replace(/[^A-Za-z]/g, ''))
    return ', '
  })
  // Questions are never names ("are you open on Friday?"): only the turn's statements are read.
  const statements = withoutOpeners(text.replace(/[’‘]/g, "'"))
    .split(/(?<=[.!?؟])\s+/)
    .filter((sentence) => !/[?؟]\s*$/.test(sentence))
  const joined = withoutOpeners(statements.join(' ')).replace(/[.!]+$/g, '')
  const clean = trimFillers(joined)
  const arabic = isArabicWord(clean)
  // Capitals tell names apart only where the caller's turn has both cases at all.
  const cased = !arabic && /[A-Z]/.test(said) && /[a-z]/.test(said)
  const cues = strict ? (arabic ? STRONG_NAME_CUES_AR : STRONG_NAME_CUES_EN) : arabic ? NAME_CUES_AR : NAME_CUES_EN
  const tidy = (name: string) =>
    trimFillers(withoutOpeners(name.split(/[,،.]/)[0]!))
      .replace(arabic ? NAME_STOP_AR : NAME_STOP_EN, '')
      .trim()
      .split(/\s+/)
      .filter((word) => word.length > 0)
  // A cue in any part of the turn: "…, name's James Carter"; the last one said wins.
  const cueSegments = joined.split(/\s*[,،;]\s*/)
  let words: string[] | undefined
  for (let i = cueSegments.length - 1; i >= 0 && !words && clean !== ''; i--) {
    const cued = cues.exec(cueSegments.slice(i).join(', '))
    const candidate = cued ? tidy(cued[1] ?? cued[2] ?? '') : undefined
    if (candidate && plausibleName(candidate, cased)) words = candidate
  }
  const segments = clean.split(/\s*[,،;]\s*/)
  if (!words && !strict && clean !== '') {
    // Asked for the name: the part of the answer that can be one ("for me, Peter Novak"); the fullest when several can.
    const parts = arabic ? [segments[0]!] : segments.slice().reverse()
    const candidates = parts.map(tidy).filter((candidate) => plausibleName(candidate, cased))
    words = candidates.reduce<string[] | undefined>(
      (best, candidate) => (!best || candidate.length > best.length ? candidate : best),
      undefined,
    )
  }
  if (!words && !strict && spelled.length > 0 && !/\d|\b(?:one|two|three|four|five|six|seven|eight|nine|zero)\b/i.test(said)) {
    const spelledWords = spelled
      .filter((word) => /[aeiouy]/i.test(word))
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    if (spelledWords.length > 0 && spelledWords.length <= 3) words = spelledWords
  }
  if (!words) return undefined
  // Spoken-to-text gives lower case in English: capitalise names for the read-back and the outcome.
  return words.map((word) => (isArabicWord(word) ? word : word.charAt(0).toUpperCase() + word.slice(1))).join(' ')
}
