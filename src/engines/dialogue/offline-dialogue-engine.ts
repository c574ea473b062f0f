import {
  asksWhoIsThis,
  doesNotKnow,
  isOnlyFillers,
  plainWords,
  saysGoodbye,
  saysNothing,
  statesIntent,
  wantsRepeat,
  wantsToWait,
  withoutInfoQuestions,
  withoutOpeners,
  yesOrNo,
} from './caller-intents'
import { moveReplies } from './move-replies'
import type {
  CallerTraits,
  DialogueAgent,
  DialogueEngine,
  DialogueEvent,
  DialogueOutcome,
  DialogueSession,
  DialogueTurn,
  RespondOptions,
} from './dialogue-engine'
import { finalOutcome, outcomeSoFar } from './outcome-assembly'
import { planSlots, slotId, type Slot } from './slot-plan'
import type { DialoguePhrases } from './slot-questions'
import { stream } from './event-stream'
import { callPhrases, withKeypadChoices } from './keypad-choices'
import { extractSlotValue, type ExtractionContext, type SlotValue } from './value-extraction'
import { extractIdentifier, isIdentifierField } from './spoken-identifiers'
import { openingHours } from './spoken-dates'
import { splitSentences } from './spoken-sentences'
import { answerFromPreamble, asksAboutTheBusiness, asksQuestion, asksWhoThisIs, indexPreamble, type PreambleIndex } from './off-topic'
import { deniesField, mentionedSlot, mentions, ownsItsNo } from './slot-mentions'
import { takeBack } from './take-back'

/**
 * The offline dialogue engine: a deterministic slot-filler that walks the agent's outcome shape
 * one question at a time, in the agent's language, reads the answers back and closes the call.
 * No model, no timers: every turn is a pure step of the session's state, given the clock.
 */

export interface OfflineDialogueOptions {
  /** The clock "tomorrow" and "next Monday" are resolved against. */
  now?: () => Date
}

type Phase = 'asking' | 'confirming' | 'closed' | 'ended' | 'chat'

/** At most this many "sorry, again?" in a row per field before the dialogue moves on (the field comes back once before the read-back). */
const MAX_REASKS = 1

/** The turn's new value after a take-back ("four, no, five" → "five"); the whole turn when nothing is taken back. */
function afterTakeBack(text: string): string {
  return takeBack(text)?.fresh || text
}
/** Numbers compete: asked one, a caller naming another ("the bill is 2,800") gives that one. */
const NUMERIC = new Set(['integer', 'number'])
/** Kinds of field a taken-back value can correct without the caller naming the field. */
const CORRECTABLE = new Set(['date', 'time', 'datetime', 'integer', 'number', 'enum', 'text', 'name'])
const CATCH_ALL = /^(yes|no|unclear|unknown|other|none|both|not_applicable|undecided)$/
const DATEISH = new Set(['date', 'time', 'datetime'])
const UNASKED_EXTRACTABLE = new Set(['name', 'email', 'phone', 'integer', 'number', 'enum', 'enum-list', 'boolean'])

class OfflineSession implements DialogueSession {
  private readonly slots: Slot[]
  private readonly askable: Slot[]
  private readonly values = new Map<string, SlotValue>()
  private readonly asked = new Set<string>()
  private readonly skipped = new Set<string>()
  /** Fields the caller could not answer yet ("let me look"): asked once more before the read-back, never again after. */
  private readonly askLater = new Set<string>()
  private readonly askedAgain = new Set<string>()
  private readonly failures = new Map<string, number>()
  private phrases: DialoguePhrases
  private readonly context: ExtractionContext
  private phase: Phase
  private current: Slot | undefined
  private lastQuestion = ''
  private greetingQuestionPending = false
  private callerTurns = 0
  private confirmed = false
  private endedEarly = false
  private acks = 0
  /** The agent's last turn, for "say that again"; the preamble's sentences, indexed at the first question the caller asks. */
  private lastSaid: DialogueEvent[] = []
  private preambleIndex: PreambleIndex | undefined

  constructor(
    private readonly agent: DialogueAgent,
    private readonly now: () => Date,
  ) {
    this.slots = planSlots(agent.outcomeShape)
    this.askable = this.slots.filter((slot) => !slot.inferred)
    this.phrases = callPhrases(agent, undefined)
    this.context = { hours: openingHours(`${agent.preamble} ${agent.greeting}`) }
    this.phase = this.askable.length > 0 ? 'asking' : 'chat'
  }

  /** A field's value in a turn, read with what the agent's own words say (its opening hours). */
  private extract(slot: Slot, text: string, strict = false): SlotValue | undefined {
    return extractSlotValue(slot, text, this.now(), strict, this.context)
  }

  setCallerTraits(traits: CallerTraits): void {
    this.phrases = callPhrases(this.agent, traits.gender)
  }

  open(options?: RespondOptions): AsyncIterable<DialogueEvent> {
    return stream(this.openEvents(), options?.signal)
  }

  respond(callerText: string, options?: RespondOptions): AsyncIterable<DialogueEvent> {
    const events = this.step(callerText)
    // What is said again on "repeat": the turn without its "thank you".
    const said = events.filter((event) => event.type === 'say' && !this.phrases.acknowledgements.includes(event.text))
    if (said.length > 0) this.lastSaid = said
    return stream(events, options?.signal)
  }

  reprompt(options?: RespondOptions): AsyncIterable<DialogueEvent> {
    const text = this.phase === 'asking' && this.current ? this.phrases.simpleQuestion(this.current) : this.lastQuestion
    return stream(text ? [{ type: 'say', text }] : [], options?.signal)
  }

  outcome(transcript: readonly DialogueTurn[]): Promise<DialogueOutcome> {
    // A session that never heard the caller (the host rebuilt it, say) replays the transcript.
    if (this.callerTurns === 0 && transcript.some((turn) => turn.role === 'caller')) {
      const replay = new OfflineSession(this.agent, this.now)
      replay.openEvents()
      for (const turn of transcript) if (turn.role === 'caller') replay.step(turn.text)
      return replay.outcome([])
    }
    const { values, asked, callerTurns, confirmed, endedEarly } = this
    return Promise.resolve(finalOutcome(this.agent.outcomeShape, this.slots, { values, asked, callerTurns, confirmed, endedEarly }))
  }

  /** The fields filled so far, each only in a value its shape accepts; nothing inferred (that is for the end). */
  outcomeSoFar(): DialogueOutcome {
    return outcomeSoFar(this.agent.outcomeShape, this.slots, this.values)
  }

  // ---- the dialogue, one synchronous step per turn ----

  private openEvents(): DialogueEvent[] {
    const events: DialogueEvent[] = splitSentences(this.agent.greeting).map((text) => ({ type: 'say', text }))
    const greeting = this.agent.greeting.trim()
    if (/[?؟]$/.test(greeting)) {
      this.lastQuestion = splitSentences(greeting).at(-1) ?? greeting
      this.greetingQuestionPending = this.phase === 'asking'
      return events
    }
    if (this.phase === 'asking') events.push(...this.askNext())
    return events
  }

  private step(heard: string): DialogueEvent[] {
    if (this.phase === 'ended') return []
    if (heard.trim().length > 0) this.callerTurns++
    // "ألو", "Hi", "السلام عليكم": a greeting is answered, never read as a value.
    const text = withoutOpeners(heard)
    if (text === '' && !isOnlyFillers(heard) && this.phase !== 'chat')
      return [{ type: 'say', text: this.phrases.hello }, ...(this.lastQuestion ? [{ type: 'say' as const, text: this.lastQuestion }] : [])]
    if (saysGoodbye(text)) return this.goodbye()
    if (wantsRepeat(text) && this.lastSaid.length > 0) return this.lastSaid
    if (wantsRepeat(text) && this.lastQuestion) return [{ type: 'say', text: this.lastQuestion }]
    // "Wait", "لحظة": the question stays open; "who is this?": who, then what the agent was waiting for.
    if (this.phase !== 'chat' && wantsToWait(text)) return [{ type: 'say', text: moveReplies(this.agent.lang).takeYourTime }]
    if (asksWhoThisIs(text) || asksWhoIsThis(text))
      return [{ type: 'say', text: this.phrases.whoIAm(this.agent.agentName, this.preamble().introduction) }, ...this.pendingAgain()]
    switch (this.phase) {
      case 'chat':
        if (asksQuestion(text)) return this.answerQuestion(text)
        return [{ type: 'say', text: this.phrases.chatAcknowledgements[this.acks++ % this.phrases.chatAcknowledgements.length]! }]
      case 'closed':
        if (saysNothing(text) || yesOrNo(text) === 'no') return this.goodbye()
        return [{ type: 'say', text: this.phrases.anythingElseReply }]
      case 'confirming':
        return this.confirmStep(text)
      case 'asking':
        return this.askingStep(text)
    }
  }

  private goodbye(): DialogueEvent[] {
    if (!this.confirmed) this.endedEarly = true
    this.phase = 'ended'
    return [
      { type: 'say', text: this.phrases.goodbye },
      { type: 'end-call', reason: 'goodbye' },
    ]
  }

  private askingStep(said: string): DialogueEvent[] {
    // "Do you have vegetarian food?" asks; it answers nothing (a proposal such as "is Monday possible?" does).
    const text = withoutInfoQuestions(said)
    if (this.greetingQuestionPending) return this.greetingAnswer(text, said)
    const slot = this.current
    if (!slot) return this.askNext()
    const id = slotId(slot)
    // "Do you have parking?": the caller's own question is answered, never stored; then the question again, in other words.
    // Asked of the turn as said: the question's own sentence is what `text` no longer holds.
    if (asksQuestion(said) && !doesNotKnow(said) && this.extract(slot, text) === undefined && this.fillUnasked(text, slot) === 0)
      return this.answerQuestion(said)
    // "I'm not sure" to a choice: the choices are offered once before the dialogue moves on.
    if (
      slot.kind === 'enum' &&
      slot.members.length <= 6 &&
      !this.failures.has(id) &&
      (doesNotKnow(text) || isOnlyFillers(text)) &&
      this.extract(slot, text) === undefined
    ) {
      this.failures.set(id, 1)
      return this.reask(slot)
    }
    if (doesNotKnow(text) && !(slot.kind === 'enum' && this.extract(slot, text) !== undefined)) {
      // "I'm not sure, maybe fifteen hundred": the value after the doubt is the answer.
      const hedged = this.hedgedValue(slot, text)
      const others = this.fillUnasked(text, slot)
      if (hedged !== undefined) {
        this.values.set(id, hedged)
        return [this.acknowledgement(), ...this.askNext()]
      }
      if (others > 0 && !mentions(slot, text)) return [this.acknowledgement(), ...this.ask(slot)]
      this.skipped.add(id)
      if (!this.askedAgain.has(id)) this.askLater.add(id)
      return [{ type: 'say', text: this.phrases.moveOn }, ...this.askNext()]
    }
    // "Our bill is about 2,800" asked the staff count: the number goes to the field the turn names, not the one asked.
    const named = mentionedSlot(this.askable, text)
    if (
      named &&
      named !== slot &&
      !this.values.has(slotId(named)) &&
      NUMERIC.has(named.kind) &&
      NUMERIC.has(slot.kind) &&
      !mentions(slot, text)
    ) {
      const elsewhere = this.extract(named, text)
      if (elsewhere !== undefined) {
        this.values.set(slotId(named), elsewhere)
        return [this.acknowledgement(), ...this.ask(slot)]
      }
    }
    if ((slot.emptyAllowed || !slot.required) && slot.kind !== 'boolean' && deniesField(slot, text)) {
      if (slot.emptyAllowed) this.values.set(id, slot.shape.type === 'array' ? [] : '')
      else this.skipped.add(id)
      return [this.acknowledgement(), ...this.askNext()]
    }
    const ownNo = ownsItsNo(slot, text)
    // "Not Thursday, Friday", "لا مو الخميس، الجمعة": a value taken back and replaced, whichever field it was.
    if (!ownNo && this.applyTakenBack(text)) return [this.acknowledgement(), ...this.ask(slot)]
    // "No, the time is 7:30": a correction of an earlier field, made while another is being asked.
    if (!ownNo && /^\s*(no|actually|sorry|wait|لا|لأ|عفوا|عفوًا|اقصد)(?=[\s,،.!]|$)/i.test(text)) {
      const other = mentionedSlot(this.askable, text)
      if (other && other !== slot && this.values.has(slotId(other)) && this.applyCorrections(text))
        return [this.acknowledgement(), ...this.ask(slot)]
    }
    // "Four, no, five": the value after the last take-back word is the answer. Not for yes/no fields ("لا، بس أبي أعرف" is a no).
    const corrected = slot.kind === 'boolean' || ownNo ? text : afterTakeBack(text)
    const value = isOnlyFillers(text)
      ? undefined
      : ((corrected !== text && corrected !== '' ? this.extract(slot, corrected) : undefined) ?? this.extract(slot, text))
    // "No" / "nothing" to an optional question that has no empty value: the field is simply left out.
    if (value === undefined && !slot.required && saysNothing(text)) {
      this.skipped.add(id)
      return [this.acknowledgement(), ...this.askNext()]
    }
    const others = this.fillUnasked(text, slot)
    // Words kept as a date or time ("sometime next week") only when the turn was about nothing else.
    const wordsOnly = DATEISH.has(slot.kind) && typeof value === 'string' && !/\d/.test(value)
    if (value !== undefined && !(wordsOnly && others > 0)) {
      this.values.set(id, value)
      this.skipped.delete(id)
      return [this.acknowledgement(), ...this.askNext()]
    }
    if (others > 0) return [this.acknowledgement(), ...this.ask(slot)]
    // "Dave Price." asked for the plate: a bare name answers the open name field.
    if (this.fillBareName(text, slot)) return [this.acknowledgement(), ...this.ask(slot)]
    const failures = (this.failures.get(id) ?? 0) + 1
    this.failures.set(id, failures)
    if (failures > MAX_REASKS) {
      this.skipped.add(id)
      if (!this.askedAgain.has(id)) this.askLater.add(id)
      return [{ type: 'say', text: this.phrases.moveOn }, ...this.askNext()]
    }
    // "I want to book a table for my parents' anniversary": what the call is for, heard and acknowledged, not "sorry?".
    if (statesIntent(text) && failures === 1) {
      this.lastQuestion = this.phrases.askAgain(slot, this.callerTurns)
      return [this.acknowledgement(), { type: 'say', text: this.lastQuestion }]
    }
    return this.reask(slot)
  }

  /** The field asked again after an answer that was not understood, in words that change from one re-ask to the next. */
  private reask(slot: Slot): DialogueEvent[] {
    this.lastQuestion = this.phrases.reask(slot, this.callerTurns)
    return splitSentences(this.lastQuestion).map((text) => ({ type: 'say', text }))
  }

  private preamble(): PreambleIndex {
    return (this.preambleIndex ??= indexPreamble(this.agent.preamble, this.agent.lang))
  }

  /** The caller's own question, answered from the agent's preamble or honestly not, then what the agent was waiting for. */
  private answerQuestion(text: string): DialogueEvent[] {
    const answer = answerFromPreamble(text, this.preamble())
    return [{ type: 'say', text: answer ?? this.phrases.notSure }, ...this.pendingAgain()]
  }

  /** What the agent was waiting for, asked again in other words: the field, the read-back, or nothing in a free chat. */
  private pendingAgain(): DialogueEvent[] {
    if (this.phase === 'asking' && this.current && !this.greetingQuestionPending) {
      this.lastQuestion = this.phrases.askAgain(this.current, this.callerTurns)
      return [{ type: 'say', text: this.lastQuestion }]
    }
    return this.lastQuestion ? [{ type: 'say', text: this.lastQuestion }] : []
  }

  /** A typed value said after a doubt ("not sure, maybe eight", "مش متأكد، يمكن مرتين"), never free text. */
  private hedgedValue(slot: Slot, text: string): SlotValue | undefined {
    const parts = text.split(/\s*[,،;.!?؟]\s*/).filter(Boolean)
    const doubt = parts.findLastIndex((part) => doesNotKnow(part))
    const rest = parts.slice(doubt + 1).join(', ')
    if (rest === '' || doesNotKnow(rest)) return undefined
    if (slot.kind === 'text' && !isIdentifierField(slot.label, slot.shape.description)) return undefined
    const loose = slot.kind === 'integer' || slot.kind === 'number' || slot.kind === 'enum' || slot.kind === 'boolean'
    return this.extract(slot, rest, !loose)
  }

  /** A turn that is only a name ("Tom Fisher."), said while something else is asked, fills the name field still open. */
  private fillBareName(text: string, current: Slot): boolean {
    const slot = this.askable.find((candidate) => candidate.kind === 'name' && candidate !== current && !this.values.has(slotId(candidate)))
    if (!slot || /\d/.test(text) || plainWords(text).split(' ').length > 4 || !/^[\s\p{Lu}][^]*\p{Ll}/u.test(text.trim())) return false
    const words = text
      .trim()
      .replace(/[.!]+$/, '')
      .split(/\s+/)
    if (words.length < 2 || !words.every((word) => /^\p{Lu}/u.test(word))) return false
    const name = this.extract(slot, text)
    if (typeof name !== 'string') return false
    this.values.set(slotId(slot), name)
    return true
  }

  /** The answer to a greeting that ended with a question ("Are you calling to book?", "How can I help?"). */
  /** `text` is the turn without its questions for information; `said` is the turn as said. */
  private greetingAnswer(text: string, said: string): DialogueEvent[] {
    this.greetingQuestionPending = false
    // "How can I help?" — "When are you open?": the answer, then the first question.
    if (asksQuestion(said) && !doesNotKnow(said) && this.fillUnasked(text, undefined) === 0) {
      return [{ type: 'say', text: answerFromPreamble(said, this.preamble()) ?? this.phrases.notSure }, ...this.askNext()]
    }
    const [first] = this.askable
    let filled = this.fillUnasked(text, undefined)
    const open = yesOrNo(text) === undefined && plainWords(text).split(' ').length >= 3
    // An open answer to "How can I help?" names its categories in the caller's own words ("towels" → housekeeping).
    if (open) {
      for (const slot of this.askable) {
        if (slot.kind !== 'enum-list' || this.values.has(slotId(slot))) continue
        const value = this.extract(slot, text)
        if (value !== undefined) {
          this.values.set(slotId(slot), value)
          filled++
        }
      }
    }
    // The greeting often asks the first enum field in other words ("book, change or cancel?").
    if (first && first.kind === 'enum' && !this.values.has(slotId(first))) {
      const value = this.extract(first, text)
      // A bare "yes" to "Do you have a minute?" is no answer to it, while "yes, I'd like to book" is.
      if (value !== undefined && (yesOrNo(text) === undefined || plainWords(text).split(' ').length > 2)) {
        this.values.set(slotId(first), value)
        filled++
      }
    }
    const answer = yesOrNo(text)
    // "Do you have a minute?" — "No." The call ends politely.
    if (answer === 'no' && filled === 0 && plainWords(text).split(' ').length <= 3) return this.goodbye()
    // An open answer ("my internet keeps dropping") is what a summary or details field wants.
    if (open && /^(how|what|كيف|ماذا|بماذا|بم|شو|وش)/i.test(this.lastQuestion)) {
      const summary = this.askable.find(
        (slot) =>
          slot.kind === 'text' &&
          !this.values.has(slotId(slot)) &&
          /summary|details|reason|describ|تفاصيل|وصف|سبب/i.test(`${slot.key} ${slot.shape.description ?? ''}`),
      )
      if (summary) this.values.set(slotId(summary), text.trim())
    }
    return [this.acknowledgement(), ...this.askNext()]
  }

  /** Fills fields the caller was not asked about from unmistakable values in their turn; returns how many. */
  private fillUnasked(text: string, current: Slot | undefined): number {
    let filled = 0
    const currentTakesAnything = current && (current.kind === 'text' || current.kind === 'list' || DATEISH.has(current.kind))
    // A date said in passing fills a date field only when there is one it can belong to (likewise times).
    const open = (kind: string) =>
      this.askable.filter((slot) => slot.kind === kind && !this.values.has(slotId(slot)) && slot !== current).length
    for (const slot of this.askable) {
      if (slot === current || this.values.has(slotId(slot))) continue
      // A time said with the day asked for ("Thursday, quarter past four") fills the time too, and the other way round.
      const dateAllowed = DATEISH.has(slot.kind) && (!currentTakesAnything || DATEISH.has(current.kind)) && open(slot.kind) === 1
      // A code answers the code asked for, never a second code field as well.
      const identifier =
        slot.kind === 'text' &&
        isIdentifierField(slot.label, slot.shape.description) &&
        !(current && current.kind === 'text' && isIdentifierField(current.label, current.shape.description))
      if (!UNASKED_EXTRACTABLE.has(slot.kind) && !dateAllowed && !identifier) continue
      if (
        currentTakesAnything &&
        slot.kind !== 'name' &&
        slot.kind !== 'email' &&
        !identifier &&
        !(dateAllowed && DATEISH.has(current.kind))
      )
        continue
      const value = this.extract(slot, text, true)
      if (value !== undefined) {
        this.values.set(slotId(slot), value)
        filled++
      }
    }
    return filled
  }

  private acknowledgement(): DialogueEvent {
    return { type: 'say', text: this.phrases.acknowledgements[this.acks++ % this.phrases.acknowledgements.length]! }
  }

  private ask(slot: Slot): DialogueEvent[] {
    this.current = slot
    this.asked.add(slotId(slot))
    this.lastQuestion = this.phrases.question(slot)
    return [{ type: 'say', text: this.lastQuestion }]
  }

  private askNext(): DialogueEvent[] {
    let next = this.askable.find((slot) => !this.values.has(slotId(slot)) && !this.skipped.has(slotId(slot)))
    while (next && this.fillFromSharedMember(next))
      next = this.askable.find((slot) => !this.values.has(slotId(slot)) && !this.skipped.has(slotId(slot)))
    if (next) return this.ask(next)
    const later = this.askable.find((slot) => this.askLater.has(slotId(slot)) && !this.values.has(slotId(slot)))
    if (later) {
      this.askLater.delete(slotId(later))
      this.askedAgain.add(slotId(later))
      this.skipped.delete(slotId(later))
      this.failures.set(slotId(later), MAX_REASKS)
      const events = this.ask(later)
      return [{ type: 'say', text: this.phrases.beforeWeFinish }, ...events]
    }
    if (this.values.size === 0) return this.close()
    this.phase = 'confirming'
    return this.readBack()
  }

  /**
   * An enum field that shares a specific member with an answer already given needs no question:
   * a `housekeeping` request goes to the `housekeeping` department. Catch-all members do not count.
   */
  private fillFromSharedMember(slot: Slot): boolean {
    if (slot.kind !== 'enum') return false
    for (const other of this.askable) {
      const value = this.values.get(slotId(other))
      if (other === slot || value === undefined || (other.kind !== 'enum' && other.kind !== 'enum-list')) continue
      const given: unknown[] = Array.isArray(value) ? value : [value]
      const shared = given.find(
        (member): member is string => typeof member === 'string' && !CATCH_ALL.test(member) && slot.members.includes(member),
      )
      if (shared !== undefined) {
        this.values.set(slotId(slot), shared)
        return true
      }
    }
    return false
  }

  private readBack(): DialogueEvent[] {
    const items = this.askable
      .filter((slot) => this.values.has(slotId(slot)) && this.values.get(slotId(slot)) !== '')
      .map((slot) => ({ slot, value: this.values.get(slotId(slot)) }))
    this.lastQuestion = this.phrases.readBack(items, this.now())
    return [{ type: 'say', text: this.lastQuestion }]
  }

  private confirmStep(text: string): DialogueEvent[] {
    const answer = yesOrNo(text)
    if (answer === undefined && asksQuestion(text) && (asksAboutTheBusiness(text) || !mentionedSlot(this.askable, text)))
      return this.answerQuestion(text)
    const corrected = this.applyTakenBack(text) || this.applyCorrections(text)
    if (corrected) {
      return [{ type: 'say', text: this.phrases.acknowledgements[0]! }, ...this.readBack()]
    }
    if (answer === 'yes') {
      this.confirmed = true
      return this.close()
    }
    const mentioned = mentionedSlot(this.askable, text)
    if (mentioned) {
      this.phase = 'asking'
      return this.ask(mentioned)
    }
    if (answer === 'no') {
      // A bare "no": the last field asked is the likeliest to be wrong.
      const last = this.current ?? this.askable.at(-1)
      if (!last) return this.close()
      this.phase = 'asking'
      return [{ type: 'say', text: this.phrases.whatToChange.split(/[.!]/)[0]! + '.' }, ...this.ask(last)]
    }
    return [{ type: 'say', text: this.phrases.didNotCatch }, ...this.readBack()]
  }

  /**
   * "Not Thursday, Friday", "Actually no, make it eight", "لا مو الخميس، خلها الجمعة", "مش كده،
   * PD-12354": after a word that takes something back, the value said next replaces the filled
   * field of its kind, preferring the field whose current value is the one taken back.
   */
  private applyTakenBack(text: string): boolean {
    const taken = takeBack(text)
    // A turn that names its field ("no, the time is 7:30") is for applyCorrections.
    if (!taken?.corrects || !taken.fresh || mentionedSlot(this.askable, text)) return false
    const rest = taken.fresh
    let best: { slot: Slot; value: SlotValue; score: number } | undefined
    for (const slot of this.askable) {
      const id = slotId(slot)
      if (!this.values.has(id) || !CORRECTABLE.has(slot.kind)) continue
      if (slot.kind === 'text' && !isIdentifierField(slot.label, slot.shape.description)) continue
      // Only a value read as its kind (never the free-text fallback): a date, a time, a number, a code, a member.
      // The value taken back is read as an answer would be ("not five" of a time is five o'clock within the hours).
      const old = taken.old ? this.extract(slot, taken.old, slot.kind === 'text' || slot.kind === 'name') : undefined
      const wasThis = old !== undefined && JSON.stringify(old) === JSON.stringify(this.values.get(id))
      // "Not four, five" of a time: the field taken back reads "five" as its own kind, as when asked.
      const loose = wasThis || slot.kind === 'integer' || slot.kind === 'number' || slot.kind === 'enum'
      const fresh = slot.kind === 'text' ? extractIdentifier(rest) : this.extract(slot, rest, !loose || (wasThis && slot.kind === 'name'))
      if (fresh === undefined || JSON.stringify(fresh) === JSON.stringify(this.values.get(id))) continue
      // The field whose value was taken back first; then the kinds least likely to be read by mistake (a bare number last).
      const score = (wasThis ? 10 : 0) + (slot.kind === 'integer' || slot.kind === 'number' ? 0 : 1)
      if (!best || score > best.score) best = { slot, value: fresh, score }
    }
    if (!best) return false
    this.values.set(slotId(best.slot), best.value)
    return true
  }

  /** "No, the time is 8 pm": a field named in the turn, with a new value in it, is corrected at once. */
  private applyCorrections(text: string): boolean {
    const slot = mentionedSlot(this.askable, text)
    if (slot) {
      const fresh = takeBack(text)?.fresh
      const value = (fresh ? this.extract(slot, fresh) : undefined) ?? this.extract(slot, text.replace(/^\s*(no|nope|لا|لأ)[\s,،]+/i, ''))
      if (value !== undefined && JSON.stringify(value) !== JSON.stringify(this.values.get(slotId(slot)))) {
        this.values.set(slotId(slot), value)
        return true
      }
      return false
    }
    // Unmistakable values (a phone number, an email, "my name is") correct their field even unnamed.
    let changed = false
    for (const candidate of this.askable) {
      if (!['name', 'email', 'phone'].includes(candidate.kind)) continue
      const value = this.extract(candidate, text, true)
      if (value !== undefined && value !== this.values.get(slotId(candidate))) {
        this.values.set(slotId(candidate), value)
        changed = true
      }
    }
    return changed
  }

  private close(): DialogueEvent[] {
    const complete = this.askable.every((slot) => !slot.required || this.values.has(slotId(slot)) || slot.emptyAllowed)
    if (this.agent.smartCallEnd && complete) {
      this.phase = 'ended'
      this.lastQuestion = ''
      return [
        { type: 'say', text: this.phrases.closing(true, false) },
        { type: 'end-call', reason: 'smart-end' },
      ]
    }
    this.phase = 'closed'
    this.lastQuestion = this.phrases.closing(complete, true)
    return [{ type: 'say', text: this.lastQuestion }]
  }
}

/** The offline engine: slot-filling from the outcome shape, in Arabic or English, no model needed. */
export function createOfflineDialogueEngine(options: OfflineDialogueOptions = {}): DialogueEngine {
  const now = options.now ?? (() => new Date())
  return {
    name: 'offline',
    startSession: (agent) => withKeypadChoices(new OfflineSession(agent, now), agent),
  }
}
