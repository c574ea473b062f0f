import type { CallerTraits, DialogueAgent, DialogueEvent, DialogueSession, RespondOptions } from './dialogue-engine'
import { stream } from './event-stream'
import { arabicMember, englishMember } from './field-words'
import { planSlots, type Slot } from './slot-plan'
import { dialoguePhrases, type DialoguePhrases, type Gender } from './slot-questions'

/*
 * Choices by key on a phone call (DialogueAgent.keypad: the SIP line). Whenever the offline
 * engine asks an enum field whose options it says (two to six of them), it adds a sentence
 * numbering them: "You can also press 1 for sales, 2 for support or 3 for billing." A keypad
 * entry (a caller turn of kind `dtmf`) of one digit in that range then answers the question as
 * if the caller had said the option; any other entry while the question is open (0, 7 of three,
 * `*`, several digits) is not an option: the agent says so and asks again. Keys meant for a
 * digit or identifier field (an account number) reach the engine unchanged, as any turn.
 */

/** More options than keys 1 to 9 are never numbered (the engine says at most six anyway). */
const MAX_KEYED = 9
/** The engine says the options of an enum with at most this many (slot-questions.ts, MAX_OFFERED). */
const MAX_OFFERED = 6

interface KeyedOption {
  /** The option as the caller would say it (what the engine is told on its key). */
  words: string
  /** How the keypad sentence names it. */
  label: string
}

/** An enum field's options as the keypad offers them, in order; undefined when they are not offered by number. */
function keyedOptions(slot: Slot, lang: 'ar' | 'en'): KeyedOption[] | undefined {
  if (slot.kind !== 'enum') return undefined
  const members = slot.members.filter((member) => member !== null)
  if (members.length < 2 || members.length > Math.min(MAX_OFFERED, MAX_KEYED)) return undefined
  const options = members.map((member) => {
    const label = lang === 'ar' ? arabicMember(member, slot) : englishMember(member)
    return label === undefined ? undefined : { words: label, label }
  })
  return options.every((option) => option !== undefined) ? options : undefined
}

/** "You can also press 1 for sales, 2 for support or 3 for billing." */
function keypadSentence(options: readonly KeyedOption[], lang: 'ar' | 'en', gender: Gender): string {
  if (lang === 'ar') {
    const female = gender === 'female'
    const numbered = options.map((option, index) => `${index + 1} ${option.label}`).join('، ')
    return `ويمكن${female ? 'كِ' : 'ك'} أن ${female ? 'تضغطي' : 'تضغط'} على رقم الخيار: ${numbered}.`
  }
  const pairs = options.map((option, index) => `${index + 1} for ${option.label}`)
  return `You can also press ${pairs.slice(0, -1).join(', ')} or ${pairs.at(-1)!}.`
}

/** What the agent says to a key that is not one of the options offered. */
function notAnOption(keys: string, count: number, lang: 'ar' | 'en'): string {
  if (lang === 'ar') return `عذرًا، ${keys === '*' ? 'زر النجمة' : keys} ليس من الخيارات؛ الخيارات من 1 إلى ${count}.`
  return `Sorry, ${keys === '*' ? 'the star key' : keys} is not one of the options: they go from 1 to ${count}.`
}

/** The engine's phrases for this call: on a phone call, every question of an enum with numbered options ends with the keypad sentence. */
export function callPhrases(agent: DialogueAgent, gender: Gender): DialoguePhrases {
  const phrases = dialoguePhrases(agent.lang, gender)
  if (!agent.keypad) return phrases
  const keyed =
    (ask: (slot: Slot, attempt: number) => string) =>
    (slot: Slot, attempt = 0): string => {
      const options = keyedOptions(slot, agent.lang)
      const question = ask(slot, attempt)
      return options ? `${question} ${keypadSentence(options, agent.lang, gender)}` : question
    }
  return {
    ...phrases,
    question: keyed((slot) => phrases.question(slot)),
    reask: keyed((slot, attempt) => phrases.reask(slot, attempt)),
    askAgain: keyed((slot, attempt) => phrases.askAgain(slot, attempt)),
    simpleQuestion: keyed((slot) => phrases.simpleQuestion(slot)),
  }
}

/**
 * The session with keys that choose: it watches what the agent says for a keypad sentence (the
 * question it ends stays open until the agent asks something else or ends the call), and turns
 * a key in range into the option's words. Other sessions (no keypad, no enum) are returned as they are.
 */
export function withKeypadChoices(session: DialogueSession, agent: DialogueAgent): DialogueSession {
  if (!agent.keypad) return session
  const offers = planSlots(agent.outcomeShape)
    .map((slot) => keyedOptions(slot, agent.lang))
    .filter((options) => options !== undefined)
  return offers.length === 0 ? session : new KeypadChoices(session, agent, offers)
}

class KeypadChoices implements DialogueSession {
  /** The options of the question open now, when the agent offered them by number. */
  private offered: KeyedOption[] | undefined
  private gender: Gender

  constructor(
    private readonly inner: DialogueSession,
    private readonly agent: DialogueAgent,
    private readonly offers: KeyedOption[][],
  ) {}

  open(options?: RespondOptions): AsyncIterable<DialogueEvent> {
    return this.watch(this.inner.open(options))
  }

  respond(callerText: string, options?: RespondOptions): AsyncIterable<DialogueEvent> {
    const offered = this.offered
    if (!options?.keys || !offered) return this.watch(this.inner.respond(callerText, options))
    const chosen = /^[1-9]$/.test(callerText) ? offered[Number(callerText) - 1] : undefined
    if (chosen) return this.watch(this.inner.respond(chosen.words, options))
    return this.watch(this.refuse(callerText, offered.length, options))
  }

  reprompt(options?: RespondOptions): AsyncIterable<DialogueEvent> {
    return this.watch(this.inner.reprompt?.(options) ?? stream([]))
  }

  setCallerTraits(traits: CallerTraits): void {
    this.gender = traits.gender
    this.inner.setCallerTraits(traits)
  }

  outcome: DialogueSession['outcome'] = (transcript, signal) => this.inner.outcome(transcript, signal)

  outcomeSoFar(): ReturnType<NonNullable<DialogueSession['outcomeSoFar']>> {
    if (!this.inner.outcomeSoFar) throw new Error('The dialogue has no outcome before the end')
    return this.inner.outcomeSoFar()
  }

  private async *refuse(keys: string, count: number, options?: RespondOptions): AsyncIterable<DialogueEvent> {
    yield { type: 'say', text: notAnOption(keys, count, this.agent.lang) }
    if (this.inner.reprompt) yield* this.inner.reprompt(options)
  }

  /** Passes the agent's events on, noting whether they offer options by number (or ask something else, or end the call). */
  private async *watch(events: AsyncIterable<DialogueEvent>): AsyncIterable<DialogueEvent> {
    const sentences = this.offers.map((options) => ({ options, sentence: keypadSentence(options, this.agent.lang, this.gender) }))
    let offered: KeyedOption[] | undefined
    let moved = false
    try {
      for await (const event of events) {
        if (event.type === 'end-call') moved = true
        else {
          const offer = sentences.find(({ sentence }) => event.text.includes(sentence))
          if (offer) offered = offer.options
          else if (/[?؟]\s*$/.test(event.text)) moved = true
        }
        yield event
      }
    } finally {
      if (offered) this.offered = offered
      else if (moved) this.offered = undefined
    }
  }
}
