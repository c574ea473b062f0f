import type { Fact } from './card-patterns'
import type { Sentence } from './text-analysis'

/**
 * A later value replacing an earlier one as a text says it in so many words, in a call or in
 * notes: "the launch moves from March 3 to March 17", "Friday instead of Thursday", "pushed to
 * the 17th", "اتأجل من أول الشهر لخمسة عشر", "الخميس بدل الأربعاء", "صار الأحد", "خليناه الساعة
 * أربعة", "Thursday instead?". Dates and times only: "sales grew from 1 to 1.2 million" keeps both figures as facts.
 */
export interface Replacements {
  /** The values given up. */
  rejected: Fact[]
  /** The values that replace them. */
  targets: Fact[]
  /** Spans of a sentence that only name a given-up value ("from March 3 ", "بدل الأربعاء"), cut when the sentence is quoted. */
  strikes: Map<number, [number, number][]>
}

/** A verb that moves a date or time, in English and in Arabic as people write and speak it. */
const MOVE_VERB =
  /\b(?:mov(?:e|es|ed|ing)|push(?:es|ed|ing)?|postpon(?:e|es|ed|ing)|reschedul(?:e|es|ed|ing)|chang(?:e|es|ed|ing)|shift(?:s|ed|ing)?|delay(?:s|ed|ing)?|bump(?:s|ed)?|slip(?:s|ped)?|brought forward|bring forward|put back|pulled forward)\b|(?<![\p{L}])[وف]?(?:أجل|اجل|أجلنا|اجلنا|نأجل|ناجل|تأجل|اتأجل|اتاجل|اتأجلت|تأجيل|تاجيل|أخرنا|اخرنا|نأخر|تأخر|اتأخر|نقل|ننقل|نقلنا|انتقل|اتنقل|غيرنا|نغير|تغير|اتغير|تغيير|قدمنا|نقدم|تقديم|حولنا|نحول|بدلنا|خلينا|خليناه|خليناها)/iu
/** Right before the old value: "from (the) …", "من (يوم) …". */
const FROM_CUE = /(?:\bfrom\s+(?:the\s+|on\s+)?|(?<![\p{L}])من\s+(?:يوم\s+)?)$/iu
/** Between the old and the new value: "… to …", "… إلى …", "… لحد …"; a bare ل is fused to the new value. */
const TO_CUE = /^\s*,?\s*(?:(?:to|until|till|→|->|–)\s+(?:the\s+|on\s+)?|(?:إلى|الى|لحد|لين|حتى|لغاية|ليوم)\s+(?:يوم\s+)?|لـ?\s*|\s*)$/iu
/** Right before a value given up however the sentence goes on: "instead of …", "rather than …", "بدل …", "مش …". */
const INSTEAD_CUE =
  /(?:\b(?:instead of|rather than|in place of|not)\s+(?:the\s+|on\s+|at\s+)?|(?<![\p{L}])(?:بدل|بدال|بدلا من|بدلًا من|عوضا عن|عوضًا عن|عوض|مش|مو|مب|ليس|وليس|مهو)\s+(?:يوم\s+)?)$/iu
/** Right before the new value when the old one was said before: "pushed to …", "is now …", "اتأجل لـ …", "صار …", "خليناه …". */
const MOVED_TO_CUE =
  /(?:\b(?:mov(?:e|es|ed)|push(?:es|ed)|postponed|rescheduled|changed|shifted|delayed|bumped|brought forward|put back|pulled forward|slipped)(?:\s+[\w']+){0,3}?\s+(?:back\s+|forward\s+)?(?:to|until|till|for)\s+(?:the\s+|on\s+)?|\b(?:is|it's|are)\s+now\s+(?:on\s+|at\s+|the\s+)?|(?<![\p{L}])[وف]?(?:اتأجل|اتاجل|تأجل|تاجل|اتأجلت|تأجلت|أجلنا|اجلنا|أجلناه|أجلناها|نأجله|نأجلها|انتقل|اتنقل|انتقلت|اتنقلت|نقلنا|نقلناه|نقلناها|غيرناه|غيرناها|تغير|اتغير|حطيناه|حطيناها|قدمناه|قدمناها|أخرناه|أخرناها|خليناه|خليناها|خلينا|خليه|خليها|خلها|خله|صار|صارت|بقى|بقت|بقا|أصبح|أصبحت|اصبح|اصبحت)(?:\s+(?:\p{L}+))?\s+(?:(?:إلى|الى|على|يوم|ليوم|لـ?)\s*)?)$/iu
/** Right after the new value: "… on Thursday instead?", "… الخميس بدالها". */
const INSTEAD_AFTER = /^\s*(?:[\w']+\s+){0,2}?instead\b|^\s*(?:بدالها|بدالو|بداله|بدلها|بدله|بدلا منه|بدلا منها|عوضها|عوضه)(?![\p{L}])/iu
/** How many sentences back a "pushed to …" may reach for the value it replaces. */
const MOVED_TO_REACH = 2

const SCHEDULE_KINDS = new Set(['date', 'time'])

/** Finds the replacements a text states: "from X to Y" with a verb that moves, "Y instead of X", and "pushed to Y" after an X. */
export function readReplacements(sentences: readonly Sentence[], facts: readonly Fact[]): Replacements {
  const rejected = new Set<Fact>()
  const targets = new Set<Fact>()
  const strikes = new Map<number, [number, number][]>()
  const strike = (sentence: number, from: number, to: number) => strikes.set(sentence, [...(strikes.get(sentence) ?? []), [from, to]])
  const schedule = facts.filter((fact) => SCHEDULE_KINDS.has(fact.kind)).sort((a, b) => a.sentence - b.sentence || a.start - b.start)
  for (const sentence of sentences) {
    const text = sentence.text
    const here = schedule.filter((fact) => fact.sentence === sentence.index)
    for (const old of here) {
      const before = text.slice(0, old.start)
      const from = FROM_CUE.exec(before)
      const next = here.find((other) => other.kind === old.kind && other.start >= old.end && other.key !== old.key)
      if (from && next && MOVE_VERB.test(text) && TO_CUE.test(text.slice(old.end, next.start))) {
        rejected.add(old)
        targets.add(next)
        strike(sentence.index, from.index, old.end)
        continue
      }
      const instead = INSTEAD_CUE.exec(before)
      const other = here.find((candidate) => candidate.kind === old.kind && candidate.key !== old.key && candidate !== old)
      if (instead && other) {
        rejected.add(old)
        targets.add(other)
        // "Friday, not Thursday" → "Friday"; "not Thursday but Friday" → "Friday".
        const lead = /[\s,،]*$/.exec(before.slice(0, instead.index))![0].length
        const tail = /^\s*(?:,|،)?\s*(?:but|بل|لكن)?\s*/iu.exec(text.slice(old.end))![0].length
        strike(sentence.index, instead.index - (other.start < old.start ? lead : 0), old.end + (other.start > old.start ? tail : 0))
      }
    }
    for (const target of here) {
      const moves = MOVED_TO_CUE.test(text.slice(0, target.start)) || INSTEAD_AFTER.test(text.slice(target.end))
      if (targets.has(target) || rejected.has(target) || !moves) continue
      const earlier = schedule.filter(
        (fact) =>
          fact.kind === target.kind &&
          fact.key !== target.key &&
          !rejected.has(fact) &&
          (fact.sentence < target.sentence
            ? fact.sentence >= target.sentence - MOVED_TO_REACH
            : fact.sentence === target.sentence && fact.end <= target.start),
      )
      const old = earlier.at(-1)
      if (!old) continue
      rejected.add(old)
      targets.add(target)
    }
  }
  return { rejected: [...rejected], targets: [...targets], strikes }
}

/** `text` without the struck spans, spaces and commas tidied where a span was cut. */
export function withoutStrikes(text: string, spans: readonly [number, number][] | undefined): string {
  if (!spans?.length) return text
  let result = text
  for (const [from, to] of [...spans].sort((a, b) => b[0] - a[0])) result = `${result.slice(0, from)}${result.slice(to)}`
  return result
    .replace(/\s+([,،.;!?؟])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim()
}
