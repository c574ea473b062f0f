import type { OutcomeShape } from '../../shared/api/outcome-shape'

/*
 * The dialogue port: what a live call asks of whatever writes the agent's side of the
 * conversation. Two engines implement it: the offline slot-filling engine (the default, no model
 * needed) and an OpenAI-compatible chat model. The conversation host (src/conversations/) owns
 * audio, turn-taking, pokes and barge-in; an engine sees text only.
 */

/** The agent as a call sees it: placeholders already filled with the call's params. */
export interface DialogueAgent {
  agentName: string
  lang: 'ar' | 'en'
  /** The filled greeting: said first, as it is. May be empty (then the engine opens with its first question). */
  greeting: string
  /** The filled preamble: the model's system prompt (the offline engine ignores it). */
  preamble: string
  /** The outcome prompt: how to turn the conversation into `outcomeShape`. */
  outcome: string
  /** What the outcome must look like; null when the agent asks for none. */
  outcomeShape: OutcomeShape | null
  /** `tools.smartCallEnd`: close the call once the required fields are known (and confirmed). */
  smartCallEnd: boolean
  /** A phone call (the SIP line): the caller has a keypad, so an enum's options are offered by number too. */
  keypad?: boolean
}

/** A function the caller's app offered at conversation-init (OpenAI-style definition). */
export interface DialogueTool {
  name: string
  description?: string
  /** JSON Schema of the arguments (`type: object`); the key order of `properties` is the order the SDK passes them in. */
  parameters?: Record<string, unknown>
}

/** What the call knows about the caller beyond their words. */
export interface CallerTraits {
  /** From pitch (`genderDetection`); used for Arabic forms of address. */
  gender?: 'male' | 'female'
}

/** One turn of the conversation so far. */
export interface DialogueTurn {
  role: 'agent' | 'caller'
  text: string
}

/** What an engine produces while it answers, in order. */
export type DialogueEvent =
  /** A piece of the agent's answer, ideally one sentence: spoken as soon as it arrives. */
  | { type: 'say'; text: string }
  /** The engine wants the call to end once what it said has been heard (goodbye, smart end). */
  | { type: 'end-call'; reason: 'goodbye' | 'smart-end' }

/** The result of a tool the caller's app ran (`tools_response`), or why there is none. */
export type ToolResult = { ok: true; response: unknown } | { ok: false; error: string }

export interface RespondOptions {
  signal?: AbortSignal
  /** The turn is keys pressed on a phone (DTMF, `#` not included): "2" may choose an option the agent offered by number. */
  keys?: boolean
  /**
   * Runs one of the offered tools in the caller's app and resolves with its answer (the host
   * sends a `tools` frame and waits for `tools_response`, with a time limit). `args` must be an
   * object whose keys follow the order of the tool's declared `properties`.
   */
  callTool?: (name: string, args: Record<string, unknown>) => Promise<ToolResult>
}

/** The outcome of a call, extracted when it ends. */
export interface DialogueOutcome {
  /** Valid against the agent's shape (a best valid partial when nothing better could be had); null when the agent has no shape. */
  result: unknown
  /** False when `result` is a partial (required fields missing, or the model's answer was unusable twice). */
  complete: boolean
  /** Why the outcome is partial, for the conversation record. */
  problems?: string[]
}

/** One call's dialogue. Not shared between calls; calls to it never overlap (the host waits for each). */
export interface DialogueSession {
  /** The opening: the greeting, and for the offline engine the first question. */
  open(options?: RespondOptions): AsyncIterable<DialogueEvent>
  /** Answers what the caller just said (one finished turn of recognised or typed speech). */
  respond(callerText: string, options?: RespondOptions): AsyncIterable<DialogueEvent>
  /**
   * The caller said nothing for the agent's silence threshold and the agent's poke messages are
   * used up, or the host wants the engine to re-ask: the current question again, shorter. Optional.
   */
  reprompt?(options?: RespondOptions): AsyncIterable<DialogueEvent>
  /** Tells the session what is known of the caller (may arrive at any time). */
  setCallerTraits(traits: CallerTraits): void
  /** The outcome, from the whole conversation. */
  outcome(transcript: readonly DialogueTurn[], signal?: AbortSignal): Promise<DialogueOutcome>
  /**
   * The outcome as far as the dialogue knows it now, for a live view (the operator UI's test
   * call), cheap enough to ask after every turn. Optional: the offline engine has it from the
   * fields it filled (valid values only); a chat-model engine would need a model call per turn,
   * which would slow the agent's answers, so it has none and its outcome comes at the end.
   */
  outcomeSoFar?(): DialogueOutcome
}

export interface DialogueEngine {
  /** `offline` or `openai-compatible`: shown in the conversation record. */
  readonly name: string
  startSession(agent: DialogueAgent, tools: readonly DialogueTool[]): DialogueSession
}
