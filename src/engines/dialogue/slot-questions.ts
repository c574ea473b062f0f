import { arabicLabel, arabicMember, coreDescription, englishMember } from './field-words'
import { arabicReadBack, englishReadBack, type ReadBackItem } from './read-back'
import { arabicSecondPerson, englishSecondPerson, type Gender } from './second-person'
import type { Slot } from './slot-plan'
import { spellLatinForArabic } from './spoken-words'
import { describedMemberNames } from './value-extraction'

/**
 * Everything the offline engine says, in English and Arabic: questions built from a field's
 * description (or its name) and said to the caller in the second person, re-asks in other words,
 * read-backs, and the fixed lines around them. Arabic is one register throughout: plain spoken
 * Standard Arabic (no case endings, "ممكن" as the polite opener, no dialect words). It addresses
 * the caller as a man or a woman when their gender is known; when it is not, the masculine form
 * is used, as the conventional generic address in spoken and written Arabic.
 */

export type { Gender } from './second-person'

/** Enums with at most this many members are offered in the question. */
const MAX_OFFERED = 6

const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text)
const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
/** One of a few wordings, chosen by a number the dialogue keeps (its turn count): stable for a call, varied across re-asks. */
const pick = <T>(options: readonly T[], attempt: number): T => options[Math.abs(attempt) % options.length]!

const QUESTION_WORDS = /^(what|how|when|where|which|who|whether|why|the|a|an|your|any|one|if)\b/i
const WH = /^(what|how many|how much|how long|how often|how|when|where|which|who|why)\b/i

export interface DialoguePhrases {
  /** The first time a field is asked. */
  question(slot: Slot): string
  /** The question again after an answer that could not be understood; `attempt` picks the wording. Enums offer their members. */
  reask(slot: Slot, attempt: number): string
  /** The question again after the caller's own question was answered, in other words. */
  askAgain(slot: Slot, attempt: number): string
  /** The question again, shorter, after a silence. */
  simpleQuestion(slot: Slot): string
  readonly didNotCatch: string
  /** The answer to a caller's bare greeting ("Hi", "ألو"), before the question again. */
  readonly hello: string
  /** Said before asking again, once, a field the caller could not answer earlier. */
  readonly beforeWeFinish: string
  readonly moveOn: string
  readonly acknowledgements: readonly string[]
  /** The read-back of what the agent has, as one sentence (two for long agents) ending in a yes/no question. */
  readBack(items: readonly ReadBackItem[], now: Date): string
  readonly confirmAgain: string
  readonly whatToChange: string
  closing(complete: boolean, keepListening: boolean): string
  readonly anythingElseReply: string
  readonly goodbye: string
  readonly chatAcknowledgements: readonly string[]
  /** Said when the agent's own words hold no answer to the caller's question. */
  readonly notSure: string
  /** The answer to "who is this?": the agent's name, and what it does when its preamble says so. */
  whoIAm(name: string, about: string | undefined): string
}

function joinEnglish(items: readonly string[], conjunction: string): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`
}

/** A label whose last word is a plural ("notes", "dietary needs"), not one ending in -ss or -us ("address", "status"). */
const PLURAL_LABEL = /(?:[^sui]s|\bpeople|\bchildren)$/i
/** A label that names a quantity ("number of guests", "total"), not the things counted ("guests", "adult tickets"). */
const QUANTITY_WORD = /\b(?:number|count|amount|total|quantity)\b/i
/** "number of nights" → "number": the word the verb agrees with. */
const headNoun = (label: string) => label.replace(/\s+(?:of|for|per)\s.*$/i, '')

/** What an English question asks about, said to the caller: "your full name", "how many people are coming", "whether you need a high chair". */
function englishSubject(slot: Slot): string {
  const description = coreDescription(slot.shape.description ?? '')
  if (!description) {
    if (slot.kind === 'name' && /^(?:customer|caller|contact|guest|client|full)?\s*name$/.test(slot.label)) return 'your name'
    // An integer named for what it counts ("guests") is asked "How many guests?", never "What is the guests?".
    if (slot.kind === 'integer' && !QUANTITY_WORD.test(slot.label) && PLURAL_LABEL.test(slot.label)) return `how many ${slot.label}`
    return englishSecondPerson(`the ${slot.label}`)
  }
  const subject = lowerFirst(description)
  return englishSecondPerson(QUESTION_WORDS.test(subject) || /^(?:true if|if) /i.test(subject) ? subject : `the ${subject}`)
}

/** "you need a high chair" → "Do you need a high chair?"; undefined when the statement cannot be turned round simply. */
function englishYesNo(statement: string): string | undefined {
  const auxiliary = /^(you|this|it|that|there) (are|is|were|was|will|can|would|should)\b(.*)$/i.exec(statement)
  if (auxiliary) return `${upperFirst(auxiliary[2]!)} ${auxiliary[1]}${auxiliary[3]}?`
  const verb = /^you (\w+)(.*)$/i.exec(statement)
  // Not a past tense ("you asked …"): that question is asked as "Is it true that …".
  const past = verb && ((/(?:ed|en)$/.test(verb[1]!) && !/eed$/.test(verb[1]!)) || /^(?:had|did|got|made|went|were|was)$/.test(verb[1]!))
  if (verb && !past) return `Do you ${verb[1]}${verb[2]}?`
  return undefined
}

/** A field's subject as a direct question: "where you would like to sit" → "Where would you like to sit?", "your full name" → "What's your full name?". */
function englishDirect(slot: Slot): string {
  const subject = englishSubject(slot)
  const whether = /^(?:whether|true if|if) (.+)$/i.exec(subject)
  if (whether) return englishYesNo(whether[1]!) ?? `Is it true that ${whether[1]}?`
  if (!WH.test(subject)) return `What's ${subject}?`
  const auxiliary = subject.replace(/^(.+?) you (would|will|can|are|were|should|could|have) (.+)$/i, '$1 $2 you $3')
  const inverted =
    auxiliary !== subject
      ? auxiliary
      : subject.replace(/^((?:what|when|where|which|why|how)\b.*?) you (\w+) (.+)$/i, (match, head: string, verb: string, rest: string) =>
          /^(?:would|will|can|are|were|should|could|have|do|did)$/.test(verb) ? match : `${head} do you ${verb} ${rest}`,
        )
  return `${upperFirst(inverted)}?`
}

function englishPhrases(): DialoguePhrases {
  const choices = (slot: Slot) => {
    const members = slot.members.filter((member) => member !== null).map(englishMember)
    return members.length > 0 && members.length <= MAX_OFFERED ? joinEnglish(members, 'or') : ''
  }
  const offer = (slot: Slot) => (choices(slot) ? `: ${choices(slot)}` : '')
  const withChoices = (question: string, slot: Slot) => (choices(slot) ? `${question.replace(/\?$/, '')}: ${choices(slot)}?` : question)
  const phrases: DialoguePhrases = {
    question(slot) {
      const description = coreDescription(slot.shape.description ?? '')
      const subject = englishSubject(slot)
      if (slot.kind === 'boolean') {
        const statement = /^(?:whether|true if) (.+)$/i.exec(subject)?.[1]
        const direct = statement ? englishYesNo(statement) : undefined
        if (direct) return direct
        if (statement && /^true if /i.test(description)) return `Is it true that ${statement}?`
      }
      if (!description && slot.kind === 'name') return `May I have ${subject}?`
      if (!description && WH.test(subject)) return `${upperFirst(subject)}${offer(slot)}?`
      if (!description) return `What ${PLURAL_LABEL.test(headNoun(slot.label)) ? 'are' : 'is'} ${subject}${offer(slot)}?`
      const many = slot.kind === 'list' ? ' You can name several.' : ''
      return `Could you tell me ${subject}${offer(slot)}?${many}`
    },
    reask(slot, attempt) {
      const direct = englishDirect(slot)
      if (slot.kind === 'boolean')
        return pick([`Sorry, I didn't quite catch that. ${direct}`, `Just a yes or no is fine: ${lowerFirst(direct)}`], attempt)
      if (choices(slot))
        return pick(
          [`Sorry, I didn't quite catch that. ${withChoices(direct, slot)}`, `Let me put it another way. ${withChoices(direct, slot)}`],
          attempt,
        )
      return pick(
        [
          `Sorry, I didn't quite catch that. ${direct}`,
          `Sorry, could you tell me ${englishSubject(slot)} once more?`,
          `Let me ask that another way. ${direct}`,
        ],
        attempt,
      )
    },
    askAgain(slot, attempt) {
      const direct = withChoices(englishDirect(slot), slot)
      return pick([`So, ${lowerFirst(direct)}`, `Coming back to my question: ${lowerFirst(direct)}`, `Now, ${lowerFirst(direct)}`], attempt)
    },
    simpleQuestion(slot) {
      return withChoices(englishDirect(slot), slot)
    },
    didNotCatch: "Sorry, I didn't catch that.",
    hello: 'Hello!',
    beforeWeFinish: 'Before we finish, let me come back to one thing.',
    moveOn: "No problem, let's move on.",
    acknowledgements: ['Thank you.', 'Got it.', 'Great.', 'Thanks.'],
    readBack: (items, now) => englishReadBack(items, now),
    confirmAgain: 'Thank you. Is everything correct now?',
    whatToChange: 'Sorry about that. What should I change?',
    closing: (complete, keepListening) =>
      `${complete ? "Thank you, that's everything I need." : "Thank you. A colleague will follow up on anything that's missing."}${keepListening ? ' Is there anything else I can help you with?' : ' Have a great day, goodbye!'}`,
    anythingElseReply: "I've noted that, and a colleague will follow up. Is there anything else?",
    goodbye: 'Thank you for calling. Goodbye!',
    chatAcknowledgements: ['I see.', 'Understood.', 'Thank you, please go on.', 'Got it.'],
    notSure: "I'm not sure about that, I'm afraid; the team can tell you.",
    whoIAm: (name, about) => `This is ${name}.${about ? ` ${about}` : ''}`,
  }
  return phrases
}

function joinArabic(items: readonly string[], conjunction: 'و' | 'أو'): string {
  if (items.length <= 1) return items[0] ?? ''
  return conjunction === 'و' ? [items[0], ...items.slice(1).map((item) => `و${item}`)].join(' ') : items.join(' أو ')
}

const ARABIC_QUESTION_WORDS = /^(?:كم|هل|ما|ماذا|متى|أين|اين|أي|اي|كيف|لماذا|من)(?:\s|$)/

function arabicPhrases(gender: Gender): DialoguePhrases {
  const female = gender === 'female'
  // Masculine / feminine forms of address; the masculine is also the default for unknown gender.
  const say = female ? 'ممكن تقولي لي' : 'ممكن تقول لي'
  const please = female ? 'تفضلي' : 'تفضل'
  const you = female ? 'لكِ' : 'لك'
  const repeatVerb = female ? 'تعيدي' : 'تعيد'
  const need = female ? 'تحتاجين' : 'تحتاج'
  const suits = female ? 'يناسبكِ' : 'يناسبك'
  /** The members as choices ("طب عام أو أسنان"), or '' when they cannot all be said in Arabic. */
  const choices = (slot: Slot) => {
    const labels = slot.members.map((member) => arabicMember(member, slot))
    return labels.length > 0 && labels.length <= MAX_OFFERED && labels.every((label) => label !== undefined) ? joinArabic(labels, 'أو') : ''
  }
  // A description that already names the members is not followed by them again.
  const offer = (slot: Slot) =>
    describedMemberNames(slot.shape.description, slot.members).size > 0 || !choices(slot) ? '' : `: ${choices(slot)}`
  /** What the question asks about, to the caller: "اسمك الكامل", "هل تريد استرجاع المبلغ", "رقم الطلب". */
  const subject = (slot: Slot) => {
    const description = coreDescription(slot.shape.description ?? '')
    if (!/[\u0600-\u06FF]/.test(description)) return arabicLabel(slot)
    return arabicSecondPerson(description.replace(/^صحيح إن /, 'هل '), gender)
  }
  /** The subject as a direct question, without its mark: "ما اسمك الكامل", "هل تريد استرجاع المبلغ". */
  const direct = (slot: Slot) => {
    const asked = subject(slot).split(/:/)[0]!.trim()
    if (/^صحيح /.test(asked)) return `هل ينطبق ذلك: ${asked.replace(/^صحيح /, '')}`
    return ARABIC_QUESTION_WORDS.test(asked) ? asked : `ما ${asked}`
  }
  const withChoices = (question: string, slot: Slot) => (choices(slot) ? `${question}: ${choices(slot)}` : question)
  const phrases: DialoguePhrases = {
    question(slot) {
      const asked = subject(slot)
      if (slot.kind === 'boolean' && /^هل /.test(asked)) return `${asked}؟`
      if (slot.kind === 'boolean' && /^صحيح /.test(asked)) return `${direct(slot)}؟`
      const many = slot.kind === 'list' ? ' يمكنك ذكر أكثر من واحد.' : ''
      if (ARABIC_QUESTION_WORDS.test(asked) && !/^(?:ما|من)\s/.test(asked)) return `${asked}${offer(slot)}؟${many}`
      return `${say} ${asked}${offer(slot)}؟${many}`
    },
    reask(slot, attempt) {
      if (slot.kind === 'boolean') return pick([`عفوًا، لم أفهم جيدًا. ${direct(slot)}؟`, `يكفي نعم أو لا: ${direct(slot)}؟`], attempt)
      if (choices(slot))
        return pick(
          [
            `عفوًا، لم أفهم جيدًا. ${withChoices(direct(slot), slot)}؟`,
            `أي واحد ${suits} في ${subject(slot).split(':')[0]!.trim()}: ${choices(slot)}؟`,
          ],
          attempt,
        )
      return pick(
        [
          `عفوًا، لم أفهم جيدًا. ${direct(slot)}؟`,
          `معذرة، ممكن ${repeatVerb} لي ${subject(slot)}؟`,
          `دعني أسأل بطريقة أخرى: ${direct(slot)}؟`,
        ],
        attempt,
      )
    },
    askAgain(slot, attempt) {
      return pick([`والآن، ${withChoices(direct(slot), slot)}؟`, `نرجع إلى سؤالي: ${withChoices(direct(slot), slot)}؟`], attempt)
    },
    simpleQuestion(slot) {
      return `${withChoices(direct(slot), slot)}؟`
    },
    didNotCatch: `عفوًا، لم أفهم. ممكن ${repeatVerb} بطريقة أخرى؟`,
    hello: 'أهلًا وسهلًا!',
    beforeWeFinish: 'قبل أن نُنهي، أرجع لسؤال واحد.',
    moveOn: 'لا بأس، ننتقل إلى السؤال التالي.',
    acknowledgements: ['شكرًا.', 'حسنًا.', 'ممتاز.', `شكرًا ${you}.`],
    readBack: (items, now) => arabicReadBack(items, now, gender),
    confirmAgain: `شكرًا ${you}. هل كل شيء صحيح الآن؟`,
    whatToChange: `عذرًا. ${please}، ما الذي أصححه؟`,
    closing: (complete, keepListening) =>
      `${complete ? `شكرًا ${you}، سجلت كل ما أحتاجه.` : `شكرًا ${you}، وسيتابع معك أحد الزملاء فيما ينقص.`}${keepListening ? ` هل ${need} أي شيء آخر؟` : ' مع السلامة.'}`,
    anythingElseReply: `سجلت ذلك، وسيتابع معك أحد الزملاء. هل ${need} أي شيء آخر؟`,
    goodbye: `شكرًا ${you} على وقتك. مع السلامة.`,
    chatAcknowledgements: ['فهمت.', 'حسنًا.', `شكرًا، ${please}.`, 'واضح.'],
    notSure: `لست متأكدًا من ذلك للأسف، يستطيع الفريق أن يفيد${female ? 'كِ' : 'ك'} فيه.`,
    whoIAm: (name, about) => `معك ${spellLatinForArabic(name)}.${about ? ` ${about}` : ''}`,
  }
  return phrases
}

/** The engine's wording for a language and (for Arabic) the caller's gender. */
export function dialoguePhrases(lang: 'ar' | 'en', gender: Gender): DialoguePhrases {
  return lang === 'ar' ? arabicPhrases(gender) : englishPhrases()
}
