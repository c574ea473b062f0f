import { ARABIC_MEMBER_LABELS } from './enum-glossary'
import { humanise, type Slot } from './slot-plan'
import { describedMemberNames } from './value-extraction'
import { spokenDateTime } from './spoken-dates'

/**
 * Everything the offline engine says, in English and Arabic: questions built from a field's
 * description (or its name), read-backs, and the fixed lines around them. Arabic addresses the
 * caller as a man or a woman when their gender is known; when it is not, the masculine form is
 * used, as the conventional generic address in spoken and written Arabic.
 */

export type Gender = 'male' | 'female' | undefined

/** Enums with at most this many members are offered in the question. */
const MAX_OFFERED = 6

/** A description cut to its first clause, without notes for the outcome writer ("as YYYY-MM-DD", "; empty string if …"). */
function coreDescription(description: string): string {
  return (
    description
      .split(/[;؛]/)[0]!
      .replace(/[.،,:\s]+$/u, '')
      .replace(/\s*\((?:[^)]*)\)/g, '')
      .replace(/,?\s+as (?:the )?(?:caller|candidate|customer|guest|they|you) (?:stated|said|gave|confirmed) it$/i, '')
      .replace(
        /,?\s+(?:as confirmed(?: on the call)?|as the caller said it|in their words|in the caller[’']s words|in your words|as yyyy-mm-dd|as 24-hour hh:mm|as hh:mm|by their own account|e\.g\..*)$/i,
        '',
      )
      .replace(/\s+(?:as YYYY-MM-DD|as 24-hour HH:MM|as HH:MM)/g, '')
      // A format note is for the outcome writer, not the caller: "order number, two letters, a dash and five digits".
      .replace(/[,:]\s*(?:(?:one|two|three|four|five|six|\d+) (?:letters?|digits?|characters?)|a (?:dash|hyphen)|(?:and|then) )[^.;]*$/i, '')
      .replace(/\s*(?:كما أكده|كما ذكرها العميل|بكلماته|بكلمات العميل|بصيغة YYYY-MM-DD)\s*/g, ' ')
      .replace(/\s+([،,])/gu, '$1')
      .replace(/\s{2,}/g, ' ')
      .replace(/[.،,:\s]+$/u, '')
      .trim()
  )
}

const SUBJECTS = /\bthe (caller|customer|candidate|applicant|guest)([’']s)?\b/gi
const VERB_AGREEMENT: Record<string, string> = {
  is: 'are',
  was: 'were',
  has: 'have',
  does: 'do',
  meets: 'meet',
  wants: 'want',
  needs: 'need',
  prefers: 'prefer',
  plans: 'plan',
  asks: 'ask',
  likes: 'like',
  gives: 'give',
}

/** English descriptions speak of "the caller": asked of the caller, they say "you". */
function toSecondPerson(text: string): string {
  return (
    text
      .replace(SUBJECTS, (_match, _who: string, possessive?: string) => (possessive ? 'your' : 'you'))
      .replace(/\byou (\w+)\b/g, (match, verb: string) => (VERB_AGREEMENT[verb] ? `you ${VERB_AGREEMENT[verb]}` : match))
      // "you asked ... or was transferred": the second verb agrees too.
      .replace(/\b(or|and) (is|was|has)\b/g, (match, joiner: string, verb: string) => (/\byou\b/.test(text.replace(SUBJECTS, 'you')) ? `${joiner} ${VERB_AGREEMENT[verb]}` : match))
      .replace(/\b(their)\b/g, 'your')
      .replace(/\bthey\b/g, 'you')
  )
}

const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text)

const QUESTION_WORDS = /^(what|how|when|where|which|who|whether|why|the|a|an|your|any|one)\b/i

function englishMember(member: unknown): string {
  return typeof member === 'string' ? humanise(member) : String(member)
}
function arabicMember(member: unknown, slot?: Slot): string | undefined {
  if (typeof member !== 'string') return String(member)
  // The name the field's own Arabic description gives the member ("خارجي" for outdoor) comes first.
  const described = slot ? describedMemberNames(slot.shape.description, slot.members).get(member) : undefined
  if (described && /[\u0600-\u06FF]/.test(described)) return described
  return ARABIC_MEMBER_LABELS[member] ?? (/[\u0600-\u06FF]/.test(member) ? member : undefined)
}

export interface DialoguePhrases {
  question(slot: Slot): string
  /** The question again, shorter, after an answer that could not be understood. */
  simpleQuestion(slot: Slot): string
  readonly didNotCatch: string
  /** The answer to a caller's bare greeting ("Hi", "ألو"), before the question again. */
  readonly hello: string
  /** Said before asking again, once, a field the caller could not answer earlier. */
  readonly beforeWeFinish: string
  readonly moveOn: string
  readonly acknowledgements: readonly string[]
  /** A field's name in a read-back. */
  label(slot: Slot): string
  /** A value as read back. */
  valueText(slot: Slot, value: unknown): string
  readBack(items: readonly string[]): string
  readonly confirmAgain: string
  readonly whatToChange: string
  closing(complete: boolean, keepListening: boolean): string
  readonly anythingElseReply: string
  readonly goodbye: string
  readonly chatAcknowledgements: readonly string[]
}

function joinEnglish(items: readonly string[], conjunction: string): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`
}

function englishPhrases(): DialoguePhrases {
  const offer = (slot: Slot) => {
    const members = slot.members.filter((member) => member !== null).map(englishMember)
    return members.length > 0 && members.length <= MAX_OFFERED ? `: ${joinEnglish(members, 'or')}` : ''
  }
  const phrases: DialoguePhrases = {
    question(slot) {
      const description = coreDescription(slot.shape.description ?? '')
      if (slot.kind === 'boolean' && /^true if /i.test(description)) {
        return `Is it true that ${toSecondPerson(description.replace(/^true if /i, ''))}?`
      }
      if (!description) {
        if (slot.kind === 'name') return `May I have the ${slot.label}?`
        return `What is the ${slot.label}${offer(slot)}?`
      }
      let subject = lowerFirst(description)
      if (!QUESTION_WORDS.test(subject)) subject = `the ${subject}`
      subject = toSecondPerson(subject)
      const many = slot.kind === 'list' ? ' You can name several.' : ''
      return `Could you tell me ${subject}${offer(slot)}?${many}`
    },
    simpleQuestion(slot) {
      if (slot.kind === 'boolean') return `Yes or no: ${lowerFirst(phrases.question(slot))}`
      const members = slot.members.filter((member) => member !== null).map(englishMember)
      if (members.length > 0 && members.length <= MAX_OFFERED) return `The ${slot.label}: ${joinEnglish(members, 'or')}?`
      return `And the ${slot.label}?`
    },
    didNotCatch: "Sorry, I didn't catch that.",
    hello: 'Hello!',
    beforeWeFinish: 'Before we finish, let me come back to one thing.',
    moveOn: "No problem, let's move on.",
    acknowledgements: ['Thank you.', 'Got it.', 'Great.', 'Thanks.'],
    label: (slot) => slot.label,
    valueText(slot, value) {
      if (typeof value === 'boolean') return value ? 'yes' : 'no'
      if (Array.isArray(value))
        return value.length === 0
          ? 'none'
          : joinEnglish(
              value.map((item) => (slot.kind === 'enum-list' ? englishMember(item) : String(item))),
              'and',
            )
      if (slot.members.length > 0) return englishMember(value)
      return ['date', 'time', 'datetime'].includes(slot.kind) ? spokenDateTime(String(value), 'en') : String(value)
    },
    readBack: (items) => `Let me read that back: ${items.join('; ')}. Is that right?`,
    confirmAgain: 'Thank you. Is everything correct now?',
    whatToChange: 'Sorry about that. What should I change?',
    closing: (complete, keepListening) =>
      `${complete ? "Thank you, that's everything I need." : "Thank you. A colleague will follow up on anything that's missing."}${keepListening ? ' Is there anything else I can help you with?' : ' Have a great day, goodbye!'}`,
    anythingElseReply: "I've noted that, and a colleague will follow up. Is there anything else?",
    goodbye: 'Thank you for calling. Goodbye!',
    chatAcknowledgements: ['I see.', 'Understood.', 'Thank you, please go on.', 'Got it.'],
  }
  return phrases
}

/** Arabic for the words English field names are made of, so an Arabic agent never says an English word. */
const ARABIC_FIELD_WORDS: Readonly<Record<string, string>> = {
  'order number': 'رقم الطلب',
  'booking reference': 'رقم الحجز',
  'reference number': 'الرقم المرجعي',
  'account number': 'رقم الحساب',
  'phone number': 'رقم الجوال',
  'full name': 'الاسم الكامل',
  'customer name': 'الاسم',
  'email address': 'البريد الإلكتروني',
  name: 'الاسم',
  email: 'البريد الإلكتروني',
  phone: 'رقم الجوال',
  mobile: 'رقم الجوال',
  date: 'التاريخ',
  time: 'الوقت',
  address: 'العنوان',
  city: 'المدينة',
  reason: 'السبب',
  notes: 'الملاحظات',
  order: 'الطلب',
  number: 'الرقم',
  reference: 'الرقم المرجعي',
  'tracking code': 'رمز التتبع',
  code: 'الرمز',
  amount: 'المبلغ',
  quantity: 'الكمية',
  issue: 'المشكلة',
  problem: 'المشكلة',
  department: 'القسم',
  age: 'العمر',
  budget: 'الميزانية',
}

/** A field's name in Arabic: the glossary's phrase for its English words, or a neutral "this information". */
function arabicLabel(slot: Slot): string {
  if (/[\u0600-\u06FF]/.test(slot.label)) return slot.label
  const phrase = Object.keys(ARABIC_FIELD_WORDS)
    .sort((a, b) => b.length - a.length)
    .find((words) => ` ${slot.label} `.includes(` ${words} `))
  return phrase ? ARABIC_FIELD_WORDS[phrase]! : 'هذه المعلومة'
}

function joinArabic(items: readonly string[], conjunction: 'و' | 'أو'): string {
  if (items.length <= 1) return items[0] ?? ''
  return conjunction === 'و' ? [items[0], ...items.slice(1).map((item) => `و${item}`)].join(' ') : items.join(' أو ')
}

function arabicPhrases(gender: Gender): DialoguePhrases {
  const female = gender === 'female'
  // Masculine / feminine forms of address; the masculine is also the default for unknown gender.
  const say = female ? 'ممكن تقولي لي' : 'ممكن تقول لي'
  const please = female ? 'تفضلي' : 'تفضل'
  const you = female ? 'لكِ' : 'لك'
  const repeatVerb = female ? 'تعيدي' : 'تعيد'
  const need = female ? 'تحتاجين' : 'تحتاج'
  /** The members as choices, in one question with the field ("القسم: طب عام أو أسنان؟"), or '' when they cannot all be said in Arabic. */
  const choices = (slot: Slot) => {
    const labels = slot.members.map((member) => arabicMember(member, slot))
    return labels.length > 0 && labels.length <= MAX_OFFERED && labels.every((label) => label !== undefined) ? joinArabic(labels, 'أو') : ''
  }
  // A description that already names the members is not followed by them again.
  const offer = (slot: Slot) => (describedMemberNames(slot.shape.description, slot.members).size > 0 || !choices(slot) ? '' : `: ${choices(slot)}`)
  const phrases: DialoguePhrases = {
    question(slot) {
      const description = coreDescription(slot.shape.description ?? '')
      const arabicDescription = /[\u0600-\u06FF]/.test(description) ? description : ''
      if (slot.kind === 'boolean' && /^صحيح إن /.test(arabicDescription)) return `هل ${arabicDescription.replace(/^صحيح إن /, '')}؟`
      if (slot.kind === 'boolean' && /^صحيح /.test(arabicDescription)) return `هل ينطبق ذلك: ${arabicDescription.replace(/^صحيح /, '')}؟`
      if (!arabicDescription) return `${say} ${arabicLabel(slot)}${offer(slot)}؟`
      const many = slot.kind === 'list' ? ' يمكنك ذكر أكثر من واحد.' : ''
      return `${say} ${arabicDescription}${offer(slot)}؟${many}`
    },
    simpleQuestion(slot) {
      if (slot.kind === 'boolean') return `نعم أو لا: ${phrases.question(slot)}`
      return choices(slot) ? `${phrases.label(slot)}: ${choices(slot)}؟` : `${phrases.label(slot)}؟`
    },
    didNotCatch: `عفوًا، لم أفهم. ممكن ${repeatVerb} بطريقة أخرى؟`,
    hello: 'أهلًا وسهلًا!',
    beforeWeFinish: 'قبل أن نُنهي، أرجع لسؤال واحد.',
    moveOn: 'لا بأس، ننتقل إلى السؤال التالي.',
    acknowledgements: ['شكرًا.', 'تمام.', 'ممتاز.', `شكرًا ${you}.`],
    label(slot) {
      const description = coreDescription(slot.shape.description ?? '').replace(/^صحيح (إن )?/, '')
      if (!/[\u0600-\u06FF]/.test(description)) return arabicLabel(slot)
      // The first few words name the field well enough for a read-back: "رقم غرفة النزيل".
      const words = description.split(/[،,:]| مثل | كما /)[0]!.split(' ')
      return words.slice(0, words.length <= 8 ? 8 : 5).join(' ')
    },
    valueText(slot, value) {
      if (typeof value === 'boolean') return value ? 'نعم' : 'لا'
      if (Array.isArray(value))
        return value.length === 0
          ? 'لا شيء'
          : joinArabic(
              value.map((item) => (slot.kind === 'enum-list' ? (arabicMember(item, slot) ?? humanise(String(item))) : String(item))),
              'و',
            )
      if (slot.members.length > 0) return arabicMember(value, slot) ?? humanise(String(value))
      return ['date', 'time', 'datetime'].includes(slot.kind) ? spokenDateTime(String(value), 'ar') : String(value)
    },
    readBack: (items) => `دعني أتأكد: ${items.join('، ')}. هل هذا صحيح؟`,
    confirmAgain: `شكرًا ${you}. هل كل شيء صحيح الآن؟`,
    whatToChange: `عذرًا. ${please}، ما الذي أصححه؟`,
    closing: (complete, keepListening) =>
      `${complete ? `شكرًا ${you}، سجلت كل ما أحتاجه.` : `شكرًا ${you}، وسيتابع معك أحد الزملاء فيما ينقص.`}${keepListening ? ` هل ${need} أي شيء آخر؟` : ' مع السلامة.'}`,
    anythingElseReply: `سجلت ذلك، وسيتابع معك أحد الزملاء. هل ${need} أي شيء آخر؟`,
    goodbye: `شكرًا ${you} على وقتك. مع السلامة.`,
    chatAcknowledgements: ['فهمت.', 'تمام.', `شكرًا، ${please}.`, 'واضح.'],
  }
  return phrases
}

/** The engine's wording for a language and (for Arabic) the caller's gender. */
export function dialoguePhrases(lang: 'ar' | 'en', gender: Gender): DialoguePhrases {
  return lang === 'ar' ? arabicPhrases(gender) : englishPhrases()
}
