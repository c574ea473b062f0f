import type { SourceKind } from './content-analysis'
import type { Lang } from './text-analysis'
import type { IdentifierLabel } from './card-patterns'

/**
 * The fixed wording the offline engine adds around sentences taken from the source (headings,
 * openings, questions, calls to action), in English and in Arabic, so every part is written
 * wholly in the source's language. Keywords passed in are display forms; English ones are
 * lower-case unless names, so templates put them where a bare noun phrase reads naturally.
 */
export interface Phrasebook {
  readonly lang: Lang
  /** Between keywords in a list. */
  readonly keywordSeparator: string
  /** "a, b and c" / "أ وب وج". */
  joinList(items: readonly string[]): string
  /** A keyword as written in a heading or title (English Title Case; Arabic unchanged). */
  headingCase(text: string): string
  /** Candidate titles from the topic keywords (no fixed suffix); `keywords` has at least one entry. */
  titles(keywords: readonly string[]): string[]
  /** A title built on the source job's own title. */
  titleFromSourceTitle(sourceTitle: string, keyword: string): string
  /** A title from the topic and what was settled ("Front Tooth Repair, Thursday at 2:30 pm"). */
  titleWithWhen(topic: string, when: string): string
  /** A call's settled date and time as one phrase ("Saturday at 9:15"); a text's dates as a list. */
  joinWhen(values: readonly string[], conversation: boolean): string
  /** The call card as one line: labelled facts, those present only. */
  cardLead(card: CardLine): string
  /** Questions the card's facts answer. */
  readonly factQuestions: Record<'when' | 'amount' | 'identifier' | 'reason' | 'decision' | 'objection' | 'nextStep' | 'figures', string>
  introOpening(kind: SourceKind, keywords: readonly string[]): string
  introClosing(topics: readonly string[]): string
  faqOverviewQuestion(kind: SourceKind): string
  /** Questions about one keyword, used in turn. */
  readonly faqKeywordQuestions: readonly ((keyword: string) => string)[]
  readonly faqLabels: { question: string; answer: string }
  readonly keyTakeawaysHeading: string
  readonly conclusionHeading: string
  conclusion(kind: SourceKind, keywords: readonly string[]): string
  threadOpening(keywords: readonly string[]): string
  threadClosing(keywords: readonly string[]): string
  audienceQuestion(keyword: string): string
  readonly linkedInTakeawaysHeading: string
  linkedInClosing(keyword: string): string
  facebookOpening(keywords: readonly string[]): string
  facebookClosing(keyword: string): string
  readonly youtubeInThisVideo: string
  readonly youtubeKeywordsLabel: string
  readonly youtubeCallToAction: string
}

/** What the call card puts first, as written in the text. */
export interface CardLine {
  caller?: string
  when?: string
  people: string[]
  amounts: string[]
  /** Identifiers grouped by what they are, each group labelled in the card ("Registration: WN18 KPT."). */
  identifiers: [IdentifierLabel, string[]][]
  figures: string[]
}

const ENGLISH_IDENTIFIER_LABELS: Record<IdentifierLabel, string> = {
  plate: 'Registration',
  prescription: 'Prescription',
  order: 'Order',
  booking: 'Booking',
  account: 'Account',
  case: 'Case',
  file: 'File',
  invoice: 'Invoice',
  tracking: 'Tracking',
  phone: 'Phone',
  email: 'Email',
  reference: 'Reference',
}

const ARABIC_IDENTIFIER_LABELS: Record<IdentifierLabel, string> = {
  plate: 'رقم اللوحة',
  prescription: 'رقم الوصفة',
  order: 'رقم الطلب',
  booking: 'رقم الحجز',
  account: 'رقم الحساب',
  case: 'رقم البلاغ',
  file: 'رقم الملف',
  invoice: 'رقم الفاتورة',
  tracking: 'رقم الشحنة',
  phone: 'الهاتف',
  email: 'البريد الإلكتروني',
  reference: 'الرقم المرجعي',
}

const labelledIdentifiers = (groups: CardLine['identifiers'], labels: Record<IdentifierLabel, string>) =>
  groups.map(([label, values]) => [labels[label], values] as [string, readonly string[]])

function labelled(pairs: readonly [string, string | readonly string[] | undefined][], separator: string, end: string): string {
  const present = pairs
    .map(([label, value]) => [label, typeof value === 'string' ? value : value?.join(separator)] as const)
    .filter(([, value]) => value)
  return present.map(([label, value]) => `${label}: ${value}${end}`).join(' ')
}

const SMALL_ENGLISH_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'of',
  'in',
  'on',
  'at',
  'to',
  'for',
  'by',
  'with',
  'from',
  'as',
  'vs',
])

function englishTitleCase(text: string): string {
  return text
    .split(' ')
    .map((word, i) => (i > 0 && SMALL_ENGLISH_WORDS.has(word) ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join(' ')
}

const englishNoun = (kind: SourceKind) => (kind === 'conversation' ? 'conversation' : 'text')

const english: Phrasebook = {
  lang: 'en',
  keywordSeparator: ', ',
  joinList(items) {
    if (items.length <= 1) return items[0] ?? ''
    return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
  },
  headingCase: englishTitleCase,
  titles(keywords) {
    const [first, second, third] = keywords.map(englishTitleCase)
    return [
      ...(second ? [`${first} and ${second}`] : [first!]),
      ...(third ? [`${first}, ${second} and ${third}`] : []),
      ...(second ? [`${second} and ${first}`] : []),
    ]
  },
  titleFromSourceTitle: (sourceTitle) => sourceTitle,
  titleWithWhen: (topic, when) => `${englishTitleCase(topic)}, ${when}`,
  // "tomorrow between ten and twelve", "Friday at 9:30": a time that opens with its own preposition takes no "at".
  joinWhen: (values, conversation) =>
    values.reduce(
      (joined, value, i) =>
        i === 0 ? value : `${joined}${/^(?:between|from|at|by|before|after)\b/i.test(value) ? ' ' : conversation ? ' at ' : ', '}${value}`,
      '',
    ),
  cardLead: (card) =>
    labelled(
      [
        ['Caller', card.caller],
        ['When', card.when],
        ['With', card.people],
        ['Amounts', card.amounts],
        ...labelledIdentifiers(card.identifiers, ENGLISH_IDENTIFIER_LABELS),
        ['Figures', card.figures],
      ],
      ', ',
      '.',
    ),
  factQuestions: {
    when: 'What was agreed, and when?',
    amount: 'How much does it cost?',
    identifier: 'What is the reference number?',
    reason: 'Why did the caller get in touch?',
    decision: 'What did the caller choose?',
    objection: 'What concern came up?',
    nextStep: 'What happens next?',
    figures: 'What are the key figures?',
  },
  introOpening(kind, keywords) {
    const [first, ...rest] = keywords
    const opening = `This ${englishNoun(kind)} focuses on ${first}`
    return rest.length === 0 ? `${opening}.` : `${opening}, touching on ${english.joinList(rest)} along the way.`
  },
  introClosing: (topics) => `Read on for the key points on ${english.joinList(topics)}.`,
  faqOverviewQuestion: (kind) => `What is this ${englishNoun(kind)} about?`,
  faqKeywordQuestions: [(keyword) => `What is the key point about ${keyword}?`, (keyword) => `What should you know about ${keyword}?`],
  faqLabels: { question: 'Q', answer: 'A' },
  keyTakeawaysHeading: 'Key Takeaways',
  conclusionHeading: 'Conclusion',
  conclusion: (kind, keywords) => `To sum up, the main threads of this ${englishNoun(kind)} are ${english.joinList(keywords)}.`,
  threadOpening: (keywords) => `🧵 What stood out on ${english.joinList(keywords)}, in a short thread:`,
  threadClosing: (keywords) => `That's the recap. Key themes: ${english.joinList(keywords)}.`,
  audienceQuestion: (keyword) => `What's your take on ${keyword}?`,
  linkedInTakeawaysHeading: 'Key takeaways:',
  linkedInClosing: (keyword) => `How are you thinking about ${keyword}? I'd love to hear your view in the comments.`,
  facebookOpening: (keywords) =>
    `Hi everyone! 👋 We've been digging into ${english.joinList(keywords)}, and a few points really stood out:`,
  facebookClosing: (keyword) => `What's your experience with ${keyword}? Tell us in the comments! 👇`,
  youtubeInThisVideo: 'In this video:',
  youtubeKeywordsLabel: 'Keywords:',
  youtubeCallToAction: '👍 If this was useful, like the video and subscribe for more.',
}

/** و is written joined to the next word (والتدريب); before a Latin word or a digit it stands apart. */
function arabicAnd(word: string): string {
  return /^[\p{Script=Arabic}]/u.test(word) ? `و${word}` : `و ${word}`
}

const arabic: Phrasebook = {
  lang: 'ar',
  keywordSeparator: '، ',
  joinList(items) {
    if (items.length <= 1) return items[0] ?? ''
    return [items[0], ...items.slice(1).map(arabicAnd)].join(' ')
  },
  headingCase: (text) => text,
  titles(keywords) {
    const [first, second, third] = keywords
    return [
      ...(second ? [`${first} ${arabicAnd(second)}`] : [first!]),
      ...(second && third ? [arabic.joinList([first!, second, third])] : []),
      ...(second ? [`${second} ${arabicAnd(first!)}`] : []),
    ]
  },
  titleFromSourceTitle: (sourceTitle) => sourceTitle,
  titleWithWhen: (topic, when) => `${topic}، ${when}`,
  joinWhen: (values, conversation) => values.join(conversation ? ' ' : '، '),
  cardLead: (card) =>
    labelled(
      [
        ['المتصل', card.caller],
        ['الموعد', card.when],
        ['مع', card.people],
        ['المبالغ', card.amounts],
        ...labelledIdentifiers(card.identifiers, ARABIC_IDENTIFIER_LABELS),
        ['أرقام', card.figures],
      ],
      '، ',
      '.',
    ),
  factQuestions: {
    when: 'ما الذي تم الاتفاق عليه، ومتى؟',
    amount: 'كم التكلفة؟',
    identifier: 'ما الرقم المرجعي؟',
    reason: 'لماذا تواصل المتصل؟',
    decision: 'ماذا اختار المتصل؟',
    objection: 'ما الاعتراض أو المشكلة التي طُرحت؟',
    nextStep: 'ما الخطوة التالية؟',
    figures: 'ما أبرز الأرقام؟',
  },
  introOpening(kind, keywords) {
    const [first, ...rest] = keywords
    // The verb agrees with the subject: المحادثة is feminine, النص masculine.
    if (kind === 'conversation') {
      return rest.length === 0 ? `تدور هذه المحادثة حول ${first}.` : `تدور هذه المحادثة حول ${first}، وتتطرق إلى ${arabic.joinList(rest)}.`
    }
    return rest.length === 0 ? `يدور هذا النص حول ${first}.` : `يدور هذا النص حول ${first}، ويتطرق إلى ${arabic.joinList(rest)}.`
  },
  introClosing: (topics) => `وفيما يلي أبرز النقاط حول ${arabic.joinList(topics)}.`,
  faqOverviewQuestion: (kind) => (kind === 'conversation' ? 'ما موضوع هذه المحادثة؟' : 'ما موضوع هذا النص؟'),
  faqKeywordQuestions: [(keyword) => `ما أبرز ما ورد حول ${keyword}؟`, (keyword) => `ما الذي ينبغي معرفته عن ${keyword}؟`],
  faqLabels: { question: 'س', answer: 'ج' },
  keyTakeawaysHeading: 'أبرز النقاط',
  conclusionHeading: 'الخلاصة',
  conclusion: (kind, keywords) =>
    kind === 'conversation'
      ? `خلاصة القول، تتمحور هذه المحادثة حول ${arabic.joinList(keywords)}.`
      : `خلاصة القول، يتمحور هذا النص حول ${arabic.joinList(keywords)}.`,
  threadOpening: (keywords) => `🧵 أبرز ما جاء حول ${arabic.joinList(keywords)} في سلسلة قصيرة:`,
  threadClosing: (keywords) => `هذه هي الخلاصة. أبرز المحاور: ${arabic.joinList(keywords)}.`,
  audienceQuestion: (keyword) => `ما رأيكم في ${keyword}؟`,
  linkedInTakeawaysHeading: 'أبرز الدروس المستفادة:',
  linkedInClosing: (keyword) => `كيف تنظرون إلى ${keyword}؟ يسعدني أن أقرأ آراءكم في التعليقات.`,
  facebookOpening: (keywords) => `مرحبًا بالجميع! 👋 تحدثنا مؤخرًا عن ${arabic.joinList(keywords)}، وهذه أبرز النقاط التي لفتت انتباهنا:`,
  facebookClosing: (keyword) => `ما تجربتكم مع ${keyword}؟ شاركونا في التعليقات! 👇`,
  youtubeInThisVideo: 'في هذا الفيديو:',
  youtubeKeywordsLabel: 'الكلمات المفتاحية:',
  youtubeCallToAction: '👍 إذا وجدت هذا المحتوى مفيدًا، فلا تنسَ الإعجاب بالفيديو والاشتراك في القناة.',
}

/** The fixed wording for a language. */
export function phrasebookFor(lang: Lang): Phrasebook {
  return lang === 'ar' ? arabic : english
}
