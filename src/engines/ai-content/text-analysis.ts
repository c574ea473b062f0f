import { arabicDisplayWord, arabicLightStem, isArabicWord, normaliseArabic, stripArabicMarks } from './arabic-normalisation'
import { isArabicStopWord, isEnglishStopWord, isEnglishWhenOrHowMany, isGreetingWord } from './stop-words'

/** The languages the offline engine writes in. */
export type Lang = 'en' | 'ar'

/** One word of a sentence. */
export interface Token {
  /** How it is shown on its own: Arabic marks and fused particles removed; English lower-cased unless a name or acronym. */
  display: string
  /** As written in the sentence (Arabic marks removed): how it appears inside a phrase. */
  written: string
  /** Matching key: lower-case singular English, or a normalised light-stemmed Arabic word. */
  key: string
  /** A function word, filler, number or fragment: never a keyword and not counted in similarity. */
  stop: boolean
  /** Something other than spaces (punctuation) separates it from the previous word, so the two are no phrase. */
  breakBefore: boolean
  /** An English word capitalised where capitals are not positional (not first in the sentence). */
  capitalised: boolean
  /**
   * Probably a person's name mentioned only as who speaks or is spoken to: a capitalised word set
   * off by a comma at the start or end of the sentence ("Thanks, Daniel."), or the word after a
   * reporting verb (ويشير المنصوري). Such names say who talks, not what about.
   */
  speakerMention: boolean
}

/**
 * A sentence of the source, verbatim except that runs of white space became one space; a piece
 * cut from an over-long sentence is marked "…" where it was cut.
 */
export interface Sentence {
  index: number
  text: string
  tokens: Token[]
  wordCount: number
  isQuestion: boolean
  /** Which line (speaker turn, paragraph) of the source it came from. */
  turn: number
  /** Says the same as an earlier sentence (same words, any case or punctuation): counted and quoted once. */
  isRepeat: boolean
  /** The speaker label its line began with ("Agent", "المتصل"), when it had one. */
  speaker?: string
}

export interface SplitText {
  sentences: Sentence[]
  /** Lines began with speaker labels ("Host:", "Agent:"), which were removed. */
  hasSpeakerLabels: boolean
}

/** "1.", "- ", "ثانيًا:", "Secondly," before a point of a note: layout, not part of a headline. */
export const LIST_MARKER =
  /^(?:[-*•]\s+|(?:\d{1,2}|[a-z])[.)]\s+|(?:(?:first|second|third|fourth|fifth)(?:ly)?|finally|lastly|(?:أول|اول|ثاني|ثالث|رابع|خامس|سادس|سابع|ثامن|تاسع|عاشر|أخير|اخير)[\u064B-\u0652]*ا?[\u064B-\u0652]*)\s*[:،,]\s*)/iu

const WORD = /[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*/gu
const ENGLISH_ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'inc',
  'ltd',
  'jr',
  'sr',
  'approx',
  'dept',
  'fig',
  'u.s',
  'u.k',
])
const SPEAKER_WORDS = new Set([
  'speaker',
  'host',
  'guest',
  'agent',
  'customer',
  'caller',
  'interviewer',
  'interviewee',
  'moderator',
  'operator',
  'user',
  'assistant',
  'المتحدث',
  'المذيع',
  'المذيعه',
  'الضيف',
  'الضيفه',
  'العميل',
  'الموظف',
  'المتصل',
  'المحاور',
])
const TIMESTAMP = /^\s*[[(]?\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?[\])]?\s*[-–]?\s*/
const SPEAKER_LABEL = /^([^\s:：.!?؟]{1,30}(?:\s[^\s:：.!?؟]{1,30}){0,2})\s*[:：]\s+(?=\S)/u
/** Longest a sentence may run before it is cut: unpunctuated speech-to-text can be one endless "sentence". */
const MAX_SENTENCE_WORDS = 45
/** Where a long sentence is cut: after a comma once a piece has CUT_AFTER_COMMA_WORDS words, else at CUT_HARD_WORDS. */
const CUT_AFTER_COMMA_WORDS = 18
const CUT_HARD_WORDS = 28

/**
 * Splits a text into sentences and words. Speaker labels that start lines ("Host:", "Agent 2:")
 * and timestamps are removed first: they are layout, not content. A label counts when it starts
 * two or more lines, is a known role word, or is name-like in a text laid out by speaker; so a
 * one-off "Note: …" in running text stays.
 */
export function splitText(text: string): SplitText {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.replace(TIMESTAMP, ''))
    .filter((line) => /[\p{L}\p{N}]/u.test(line))
  const labelCounts = new Map<string, number>()
  for (const line of lines) {
    const label = SPEAKER_LABEL.exec(line)?.[1]
    if (label) labelCounts.set(label, (labelCounts.get(label) ?? 0) + 1)
  }
  // Once some label recurs, the text is laid out by speaker, and a name-like label used once is one too.
  const labelledLayout = [...labelCounts.values()].some((count) => count >= 2)
  const isSpeakerLabel = (label: string) =>
    (labelCounts.get(label) ?? 0) >= 2 ||
    SPEAKER_WORDS.has(normaliseArabic(label.split(/\s/)[0]!.toLowerCase())) ||
    (labelledLayout && label.split(/\s/).every((word) => /^(?:\p{Lu}|\p{Script=Arabic}|\d)/u.test(word)))
  let hasSpeakerLabels = false
  const sentences: Sentence[] = []
  const seen = new Set<string>()
  lines.forEach((line, turn) => {
    const label = SPEAKER_LABEL.exec(line)
    let content = line
    let speaker: string | undefined
    if (label && isSpeakerLabel(label[1]!)) {
      content = line.slice(label[0].length)
      speaker = label[1]!
      hasSpeakerLabels = true
    }
    for (const piece of splitLineIntoSentences(content)) {
      for (const chunk of cutLongSentence(piece)) {
        const tokens = tokenise(chunk)
        if (tokens.length === 0) continue
        const wording = tokens.map((token) => token.key).join(' ')
        const isRepeat = seen.has(wording)
        seen.add(wording)
        sentences.push({
          index: sentences.length,
          text: chunk,
          tokens,
          wordCount: tokens.length,
          isQuestion: /[?؟]["'”’»)\]]*$/.test(chunk),
          turn,
          isRepeat,
          ...(speaker === undefined ? {} : { speaker }),
        })
      }
    }
  })
  return { sentences, hasSpeakerLabels }
}

/** Sentence ends: terminal punctuation (Latin or Arabic) with closing quotes, followed by space or the end. */
function splitLineIntoSentences(line: string): string[] {
  const pieces: string[] = []
  const boundary = /([.!?؟…]+)(["'”’»)\]]*)(?=\s|$)/g
  let start = 0
  for (const match of line.matchAll(boundary)) {
    const end = match.index + match[0].length
    if (/^[.…]+$/.test(match[1]!)) {
      // A dot after an abbreviation or an initial, or one followed by a lower-case word, ends no sentence.
      const before = /(\S+)$/.exec(line.slice(start, match.index))?.[1] ?? ''
      const next = /\S/.exec(line.slice(end))?.[0] ?? ''
      if (ENGLISH_ABBREVIATIONS.has(before.toLowerCase()) || /^\p{Lu}$/u.test(before) || /[a-z]/.test(next)) continue
    }
    pieces.push(line.slice(start, end))
    start = end
  }
  pieces.push(line.slice(start))
  return pieces.map((piece) => piece.replace(/\s+/g, ' ').trim()).filter((piece) => /[\p{L}\p{N}]/u.test(piece))
}

/**
 * Cuts an over-long sentence into pieces of readable length, after a comma when there is one.
 * Pieces are marked with an ellipsis where they were cut, so a reader sees a fragment as one.
 */
function cutLongSentence(sentence: string): string[] {
  const words = sentence.split(' ')
  if (words.length <= MAX_SENTENCE_WORDS) return [sentence]
  const chunks: string[][] = []
  let current: string[] = []
  for (const word of words) {
    current.push(word)
    if ((current.length >= CUT_AFTER_COMMA_WORDS && /[,،;؛:]$/.test(word)) || current.length >= CUT_HARD_WORDS) {
      chunks.push(current)
      current = []
    }
  }
  if (current.length > 0) {
    // A short tail reads better joined to the piece before it.
    if (current.length < 8 && chunks.length > 0) chunks[chunks.length - 1]!.push(...current)
    else chunks.push(current)
  }
  return chunks.map((chunk, i) => {
    const text = chunk.join(' ').replace(/[,،;؛:]$/, '')
    return `${i > 0 ? '…' : ''}${text}${i < chunks.length - 1 ? '…' : ''}`
  })
}

/** The words of one sentence, with keys for matching and flags for keyword extraction. */
export function tokenise(sentence: string): Token[] {
  const tokens: Token[] = []
  let previousEnd = 0
  for (const match of sentence.matchAll(WORD)) {
    const raw = match[0]
    const breakBefore = tokens.length === 0 || /\S/.test(sentence.slice(previousEnd, match.index))
    previousEnd = match.index + raw.length
    tokens.push(isArabicWord(raw) ? arabicToken(raw, breakBefore) : latinToken(raw, breakBefore, tokens.length === 0))
  }
  markSpeakerMentions(sentence, tokens)
  markVocatives(tokens)
  return tokens
}

/** Titles that may stand between a vocative or greeting and the name (يا أستاذ طارق, hi Dr Patel). */
const ADDRESS_TITLES = new Set(['استاذ', 'استاذه', 'دكتور', 'دكتوره', 'اخ', 'اخت', 'ست', 'مدام', 'sir', 'mr', 'mrs', 'ms', 'dr', 'miss'])

/**
 * The person addressed ("يا أحمد", "Hi Karen", "thanks, Sam") is who is spoken to, not what is
 * spoken about: the name after a vocative يا or an English greeting becomes a stop word, never
 * a keyword, hashtag or FAQ topic.
 */
function markVocatives(tokens: Token[]): void {
  for (let i = 0; i < tokens.length - 1; i++) {
    const word = tokens[i]!.written
    const vocative =
      normaliseArabic(word) === 'يا' || (!isArabicWord(word) && /^(?:hi|hello|hey|thanks|dear|bye|goodbye|sorry)$/i.test(word))
    if (!vocative) continue
    let next = i + 1
    if (ADDRESS_TITLES.has(normaliseArabic(tokens[next]!.written.toLowerCase())) && next + 1 < tokens.length) tokens[next++]!.stop = true
    const name = tokens[next]!
    if (isArabicWord(name.written) || /^\p{Lu}/u.test(name.written)) {
      name.stop = true
      name.speakerMention = true
    }
  }
}

/** Arabic reporting verbs (normalised, without a leading و or ف): the word after one is usually the speaker. */
const ARABIC_REPORTING_VERBS = new Set(
  [
    'يقول',
    'تقول',
    'قال',
    'قالت',
    'يضيف',
    'تضيف',
    'أضاف',
    'أضافت',
    'يشير',
    'تشير',
    'أشار',
    'أشارت',
    'يختم',
    'تختم',
    'يوضح',
    'توضح',
    'أوضح',
    'يؤكد',
    'تؤكد',
    'أكد',
    'أكدت',
    'يرى',
    'ترى',
    'صرح',
    'ذكر',
    'ذكرت',
  ].map(normaliseArabic),
)

/** Words after which a speaker gives their own name: "this is Karen", "معك سعود", "اسمي هند". */
const SELF_INTRODUCTION_CUES = new Set(['معك', 'معاك', 'معكم', 'اسمي', 'انا', 'is', 'name', "i'm", "it's"].map(normaliseArabic))

function markSpeakerMentions(sentence: string, tokens: Token[]): void {
  if (tokens.length < 2) return
  for (let i = 1; i < tokens.length; i++) {
    const cue = normaliseArabic(tokens[i - 1]!.written.toLowerCase())
    const name = tokens[i]!
    // Only a name: Arabic, or capitalised English ("this is Karen", not "this is great").
    if (SELF_INTRODUCTION_CUES.has(cue) && (isArabicWord(name.written) ? !name.stop : /^\p{Lu}/u.test(name.written)))
      name.speakerMention = true
  }
  if (/^\p{Lu}\p{Ll}+,/u.test(sentence)) tokens[0]!.speakerMention = true
  if (/,\s*\p{Lu}\p{Ll}+[.!?]*$/u.test(sentence)) tokens.at(-1)!.speakerMention = true
  for (let i = 1; i < tokens.length; i++) {
    const written = tokens[i - 1]!.written
    if (!isArabicWord(written)) continue
    const previous = normaliseArabic(written).replace(/^[وف](?=\p{L}{3})/u, '')
    if (ARABIC_REPORTING_VERBS.has(previous)) tokens[i]!.speakerMention = true
  }
}

function arabicToken(raw: string, breakBefore: boolean): Token {
  const normalised = normaliseArabic(raw)
  const key = arabicLightStem(normalised)
  return {
    display: arabicDisplayWord(raw),
    written: stripArabicMarks(raw),
    key,
    stop: isArabicStopWord(normalised) || key.length < 2,
    breakBefore,
    capitalised: false,
    speakerMention: false,
  }
}

function latinToken(raw: string, breakBefore: boolean, first: boolean): Token {
  const lower = raw.toLowerCase().replace(/’/g, "'")
  const base = lower.replace(/'s$/, '')
  const acronym = /^\p{Lu}{2,}s?$/u.test(raw)
  const numeric = /^[\p{N}.,'-]+$/u.test(raw)
  const key = acronym ? base.replace(/s$/, '') : singularEnglish(base)
  // Contractions (don't, we're, I'll) are function words; so are one- and two-letter words, except acronyms like AI.
  const stop =
    numeric ||
    base.includes("'") ||
    isEnglishStopWord(base) ||
    isEnglishStopWord(key) ||
    isGreetingWord(base) ||
    isEnglishWhenOrHowMany(base) ||
    (base.length < 3 && !acronym)
  const capitalised = !first && /^\p{Lu}/u.test(raw)
  const display = acronym || capitalised ? raw.replace(/['’]s$/, '') : base
  return { display, written: display, key, stop, breakBefore, capitalised, speakerMention: false }
}

/** Plural to singular for matching (pumps → pump, policies → policy, boxes → box); not a full stemmer. */
export function singularEnglish(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.length > 4 && /(?:sses|xes|zes|ches|shes)$/.test(word)) return word.slice(0, -2)
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is|ous)$/.test(word)) return word.slice(0, -1)
  return word
}

/** Openers of speech that carry nothing; words that can also start real content ("Well insulated…", "Now the…") only with a comma. */
const ENGLISH_LEADING_FILLERS =
  /^(?:(?:(?:so|yeah|yes|okay|ok|oh|um|uh|erm|and|but|alright|basically|honestly|you know|i mean)\b[,.]?|(?:well|right|look|now|anyway|like)\b,)\s+)+/i
const ENGLISH_INNER_FILLERS = /\s+\b(?:um|uh|erm)\b,?(?=\s)/gi
const ARABIC_LEADING_FILLERS = /^(?:(?:يعني|طيب|حسنا|حسنًا|إذن|اذن|بصراحة|في الحقيقة)[،,]?\s+)+/
/**
 * A conjunction و or ف that ties a sentence to the one before, where removing it is safe: before
 * the article (فالمزارع → المزارع) or before a particle (ففي → في). Before other words it may be
 * a root letter (وزارة، فكرة), so it stays.
 */
const ARABIC_LEADING_CONJUNCTION = /^[وف](?=ال\p{L}{2,}|(?:في|من|إن|أن|لكن|مع|على|إذا|بعد|قبل|عند)\s)/u

/**
 * A sentence made presentable on its own (a bullet, a tweet): spoken fillers at its start
 * ("So, yeah, …", a linking و/ف) and hesitations (um, uh) removed, Arabic marks kept, first letter capitalised.
 * Content words are never changed, so the result still quotes the source.
 */
export function tidySentence(text: string): string {
  let tidy = text.replace(ENGLISH_INNER_FILLERS, '')
  const withoutLeading = tidy
    .replace(ENGLISH_LEADING_FILLERS, '')
    .replace(ARABIC_LEADING_FILLERS, '')
    .replace(ARABIC_LEADING_CONJUNCTION, '')
  // Keep the fillers if removing them leaves almost nothing ("So what?").
  if (withoutLeading.split(' ').length >= 3) tidy = withoutLeading
  return tidy.charAt(0).toUpperCase() + tidy.slice(1)
}
