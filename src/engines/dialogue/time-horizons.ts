import { plainWords } from './caller-intents'
import { findNumbers } from './spoken-numbers'

/**
 * Timelines as people say them, matched to timeline members by how far ahead they reach:
 * "within the next three months" is `this_quarter`, "before the end of the year" `this_year`,
 * "الشهر الجاي" `within_3_months` when the members are `within_1_month`, `within_3_months`…
 * Horizons are in days; a caller's horizon picks the nearest member that reaches it.
 */

const DAYS: Record<string, number> = {
  day: 1,
  days: 1,
  week: 7,
  weeks: 7,
  month: 30,
  months: 30,
  quarter: 90,
  quarters: 90,
  year: 365,
  years: 365,
}
const AR_DAYS: [RegExp, number][] = [
  [/(?:^|\s)(?:يوم|ايام)(?:\s|$)/, 1],
  [/(?:^|\s)(?:اسبوع|اسابيع|اسبوعين)(?:\s|$)/, 7],
  [/(?:^|\s)(?:شهر|اشهر|شهور|شهرين)(?:\s|$)/, 30],
  [/(?:^|\s)(?:سنه|سنين|سنوات|سنتين)(?:\s|$)/, 365],
]

/** How many days a member reaches: `this_month` 30, `within_3_months` 90, `this_year` 365, `next_year` 730; undefined for `just_looking`. */
export function memberHorizon(member: string): number | undefined {
  const words = member.toLowerCase().split(/[_\s-]+/)
  const unit = words.map((word) => DAYS[word]).find((days) => days !== undefined)
  if (unit === undefined) return /^(later|not_soon|someday)$/.test(member) ? Infinity : undefined
  const count = Number(words.find((word) => /^\d+$/.test(word)) ?? 1)
  return (words.includes('next') ? 2 : 1) * count * unit
}

/** Fixed phrases, checked in order; each one's horizon in days. */
const PHRASES: [RegExp, number][] = [
  [
    /\b(?:asap|as soon as possible|right away|immediately|straight away|this week|next week|urgent(?:ly)?)\b|(?:^|\s)(?:فورا|باسرع وقت|على طول|عالسريع|الاسبوع الجاي|هالاسبوع|هذا الاسبوع|مستعجل)(?:\s|$)/,
    7,
  ],
  [/\bnext month\b|(?:^|\s)(?:الشهر الجاي|الشهر القادم|الشهر اللي جاي|الشهر الي جاي|الشهر الجاي ان شاء الله)(?:\s|$)/, 60],
  [/\bnext quarter\b|(?:^|\s)(?:الربع الجاي|الربع القادم)(?:\s|$)/, 180],
  [/\bthis month\b|(?:^|\s)(?:هالشهر|هذا الشهر|الشهر هذا|هاد الشهر|ده الشهر|الشهر ده)(?:\s|$)/, 30],
  [/\bthis quarter\b|(?:^|\s)(?:هالربع|هذا الربع|الربع هذا)(?:\s|$)/, 90],
  [/\bhalf a year\b|(?:^|\s)(?:نص سنه|نصف سنه)(?:\s|$)/, 180],
  [/\bnext year\b|(?:^|\s)(?:السنه الجايه|السنه القادمه|العام القادم|العام الجاي)(?:\s|$)/, 730],
  [
    /\b(?:this year|(?:by|before|until|till) the end of the year|end of the year|within the year)\b|(?:^|\s)(?:هالسنه|هذي السنه|هذه السنه|السنه هذي|السنه دي|هالسنه|قبل نهايه السنه|اخر السنه|اخر السنه هذي|اخر السنه دي)(?:\s|$)/,
    365,
  ],
]
/** "within three months", "in the next 2 weeks", "خلال شهرين", "بعد ٣ شهور": a count of periods ahead. */
const COUNTED_EN =
  /\b(?:(?:within|in|inside|over|next|coming)\s+(?:the\s+)?(?:next\s+|coming\s+)?)?((?:[\w-]+\s+){0,3}?)(days?|weeks?|months?|quarters?|years?)\b/
const COUNTED_AR = /(?:^|\s)(?:خلال|في خلال|بعد|جوا|جوه|في)\s+(\S+(?:\s\S+)?)/

/** The horizon the caller speaks of, in days, or undefined. */
export function spokenHorizon(text: string): number | undefined {
  const words = plainWords(text)
  for (const [pattern, days] of PHRASES) if (pattern.test(words)) return days
  const english = COUNTED_EN.exec(words)
  if (english) {
    const count = /couple/.test(english[0]) ? 2 : /few/.test(english[0]) ? 3 : (findNumbers(english[0]).at(-1)?.value ?? 1)
    return count * DAYS[english[2]!]!
  }
  const arabic = COUNTED_AR.exec(words)
  const unit = arabic && AR_DAYS.find(([pattern]) => pattern.test(arabic[1]!))
  if (unit) {
    // The dual is its own count: شهرين, اسبوعين, سنتين.
    const count = /شهرين|اسبوعين|سنتين/.test(arabic[1]!) ? 2 : (findNumbers(arabic[1]!)[0]?.value ?? 1)
    return count * unit[1]
  }
  return undefined
}

/** The member a spoken timeline points to: the nearest one that reaches it, or the farthest when none does. */
export function memberByHorizon(text: string, members: readonly unknown[]): string | undefined {
  const timed = timedMembers(members)
  if (timed.length < 2) return undefined
  const wanted = spokenHorizon(withoutRates(text))
  if (wanted === undefined) return undefined
  const sorted = timed.sort((a, b) => a.days - b.days)
  return (sorted.find((entry) => entry.days >= wanted) ?? sorted.at(-1))!.member
}

/** Whether an enum's members are timelines (at least two reach a horizon). */
export const isTimeline = (members: readonly unknown[]) => timedMembers(members).length >= 2

function timedMembers(members: readonly unknown[]): { member: string; days: number }[] {
  return members
    .filter((member): member is string => typeof member === 'string')
    .map((member) => ({ member, days: memberHorizon(member) }))
    .filter((entry): entry is { member: string; days: number } => entry.days !== undefined)
}

/** "a month", "per week", "بالشهر", "monthly": how often, never when; removed before a timeline is read. */
export function withoutRates(text: string): string {
  return text
    .replace(
      /\b(?:a|an|per|each|every|one|once a|twice a)\s+(?:day|week|month|quarter|year)\b|\b(?:daily|weekly|monthly|quarterly|yearly|annually)\b/gi,
      ' ',
    )
    .replace(
      /(?:^|\s)(?:بال|في ال|كل )(?:يوم|اسبوع|أسبوع|شهر|سنة|سنه)(?=\s|$|[,،.])|(?:^|\s)(?:يوميا|يوميًا|اسبوعيا|أسبوعيًا|شهريا|شهريًا|سنويا|سنويًا)(?=\s|$|[,،.])/g,
      ' ',
    )
}
