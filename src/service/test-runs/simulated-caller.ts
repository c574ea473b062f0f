import type { OutcomeShape } from '../../shared/api/outcome-shape'
import type { Scenario } from '../../shared/api/test-suites'
import { planSlots, slotId, type Slot } from '../../engines/dialogue/slot-plan'
import { dialoguePhrases } from '../../engines/dialogue/slot-questions'

/*
 * The simulated callers of a test scenario (docs/api.md, "Test suites and runs"). A scripted
 * caller says its lines in order, one per agent turn. An adaptive caller answers the field the
 * agent asks about: it knows the agent's questions as the dialogue words them (its outcome shape's
 * slots, the same phrasing code), and falls back to the words of a field's name and description.
 */

export interface SimulatedCaller {
  /** What to say after the agent's turn (`agentLines`, its answer frames since the caller last spoke); undefined: nothing left to say. */
  next(agentLines: readonly string[]): string | undefined
}

/** Lower case, no punctuation, single spaces: how agent lines and known questions are compared. */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

const STOP_WORDS = new Set(
  'a an the of to for is are be your you as in on at or and what which could can please tell me my it this that'.split(' '),
)

function contentWords(text: string): Set<string> {
  return new Set(
    normalise(text)
      .split(' ')
      .filter((word) => word.length > 2 && !STOP_WORDS.has(word)),
  )
}

/**
 * The wordings of each slot, by language, made once per slot: a caller looks for them in every
 * agent turn, and making them (every phrasing, each re-ask, both genders in Arabic) again each
 * turn was a tenth of a test run's CPU. A plan's slots live as long as its callers.
 */
const questionsOfSlot = new WeakMap<Slot, Partial<Record<'ar' | 'en', string[]>>>()

/** Every wording the offline dialogue uses to ask `slot` (first ask, re-asks, after a silence), normalised. */
function questionsFor(slot: Slot, lang: 'ar' | 'en'): string[] {
  let ofSlot = questionsOfSlot.get(slot)
  if (!ofSlot) questionsOfSlot.set(slot, (ofSlot = {}))
  return (ofSlot[lang] ??= wordingsOf(slot, lang))
}

function wordingsOf(slot: Slot, lang: 'ar' | 'en'): string[] {
  const wordings = new Set<string>()
  for (const gender of lang === 'ar' ? (['male', 'female'] as const) : (['male'] as const)) {
    const phrases = dialoguePhrases(lang, gender)
    wordings.add(phrases.question(slot))
    wordings.add(phrases.simpleQuestion(slot))
    for (let attempt = 0; attempt < 6; attempt += 1) {
      wordings.add(phrases.reask(slot, attempt))
      wordings.add(phrases.askAgain(slot, attempt))
    }
  }
  return [...wordings].map(normalise).filter((wording) => wording.length > 0)
}

/**
 * Which of `answers`' fields the agent's lines ask about: a known wording of the field's question
 * inside the lines first, else the field whose name and description share the most words with
 * the last line that asks something. Undefined when none does.
 */
export function askedField(
  agentLines: readonly string[],
  fields: readonly string[],
  slots: readonly Slot[],
  lang: 'ar' | 'en',
): string | undefined {
  const said = normalise(agentLines.join(' '))
  const candidates = fields.map((field) => ({ field, slot: slots.find((slot) => slotId(slot) === field || slot.key === field) }))
  // The longest known wording found wins: "phone number" questions hold shorter ones' words.
  let best: { field: string; length: number } | undefined
  for (const { field, slot } of candidates) {
    if (!slot) continue
    for (const wording of questionsFor(slot, lang)) {
      if (said.includes(wording) && wording.length > (best?.length ?? 0)) best = { field, length: wording.length }
    }
  }
  if (best) return best.field
  // The sentence that asks, alone: a read-back names every field before its "Is that right?".
  const sentences = agentLines.flatMap((line) => line.split(/(?<=[.!?؟])\s+/))
  const asking = [...sentences].reverse().find((sentence) => /[?؟]/.test(sentence)) ?? sentences.at(-1) ?? ''
  const words = contentWords(asking)
  let closest: { field: string; score: number } | undefined
  for (const { field, slot } of candidates) {
    const about = contentWords(
      `${field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[._]/g, ' ')} ${slot?.label ?? ''} ${slot?.shape.description ?? ''}`,
    )
    const score = [...about].filter((word) => words.has(word)).length
    if (score > 0 && score > (closest?.score ?? 0)) closest = { field, score }
  }
  return closest?.field
}

const AFFIRM = { en: 'Yes, that is right.', ar: 'نعم، صحيح.' }

/** The caller `scenario` describes, for an agent of language `lang` with outcome shape `shape`. */
export function simulatedCaller(scenario: Scenario, lang: 'ar' | 'en', shape: OutcomeShape | null): SimulatedCaller {
  const caller = scenario.caller
  if ('say' in caller) {
    const lines = [...caller.say]
    return { next: () => lines.shift() }
  }
  const slots = planSlots(shape)
  const fields = Object.keys(caller.answers)
  let opened = caller.opening === undefined
  let affirmations = 0
  const asked = new Map<string, number>()
  return {
    next(agentLines) {
      if (!opened) {
        opened = true
        return caller.opening
      }
      const field = askedField(agentLines, fields, slots, lang)
      if (field !== undefined) {
        // Asked again and again, the answer is not understood: saying it a fourth time will not help.
        const times = (asked.get(field) ?? 0) + 1
        asked.set(field, times)
        return times <= 3 ? caller.answers[field] : undefined
      }
      // Nothing it knows is asked: a read-back or a yes/no question. A few agreements, then it has nothing left to say.
      affirmations += 1
      return affirmations <= 3 ? AFFIRM[lang] : undefined
    },
  }
}
