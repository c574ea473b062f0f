import type { OutcomeShape } from '../../shared/api/outcome-shape'
import { abortReason, chatServer, snippet, type ChatServer } from '../model-server/chat-server'
import { streamChat, type ChatDelta } from '../model-server/chat-stream'
import type {
  CallerTraits,
  DialogueAgent,
  DialogueEngine,
  DialogueEvent,
  DialogueOutcome,
  DialogueSession,
  DialogueTool,
  DialogueTurn,
  RespondOptions,
  ToolResult,
} from './dialogue-engine'
import { bestValidPartial, validateOutcome } from './outcome-validation'
import { SentenceSplitter, visibleText } from './spoken-sentences'

export interface OpenAiCompatibleDialogueEngineOptions {
  /** The API root, e.g. http://127.0.0.1:11434/v1 (Ollama) or http://127.0.0.1:8080/v1 (llama.cpp server). */
  baseUrl: string
  model: string
  /** Sent as `Authorization: Bearer <apiKey>` when given; never appears in an error message. */
  apiKey?: string
  /**
   * The longest the model server may stay silent: before it starts answering and between two
   * pieces of a streamed answer; for the outcome (not streamed), the whole request. Default 60 s.
   */
  timeoutMs?: number
  /** The longest one tool call in the caller's app may take before the model is told it failed. Default 15 s. */
  toolTimeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 60_000
const DEFAULT_TOOL_TIMEOUT_MS = 15_000
/** Rounds of tool calls the model may make within one turn; the request after the last offers only end_call. */
export const MAX_TOOL_ROUNDS = 4
/** The built-in function through which the model ends the call. A client tool of the same name is not offered. */
export const END_CALL_TOOL = 'end_call'
const ABORTED = 'The dialogue turn was aborted'

interface ChatToolCall {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string }

interface OfferedTool {
  type: 'function'
  function: { name: string; description: string; parameters: Record<string, unknown> }
}

/**
 * The dialogue engine that has an OpenAI-compatible chat model write the agent's side (Ollama,
 * llama.cpp server, vLLM, LocalAI), streamed so each sentence is spoken as soon as it is written.
 *
 * - `open()` says the filled greeting as it is, without asking the model.
 * - `respond()` streams the model's answer sentence by sentence; tool calls are run through
 *   `options.callTool` (arguments in the tool's declared order), their results given back to the
 *   model, at most {@link MAX_TOOL_ROUNDS} rounds a turn.
 * - The model ends the call through the built-in `end_call` function: `goodbye`, or `smart-end`
 *   when the agent has `smartCallEnd` and the model says the agent's goal was met (`goal_met`).
 *   Other tools called beside `end_call` in the same message are still run, then the call ends.
 * - `outcome()` asks for JSON, checks it against the agent's shape, asks once more with the
 *   problems, and otherwise keeps the best valid part.
 */
export function createOpenAiCompatibleDialogueEngine(options: OpenAiCompatibleDialogueEngineOptions): DialogueEngine {
  const chat = chatServer(options)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const toolTimeoutMs = options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS
  return {
    name: 'openai-compatible',
    startSession: (agent, tools) => new ModelDialogueSession(chat, agent, tools, timeoutMs, toolTimeoutMs),
  }
}

class ModelDialogueSession implements DialogueSession {
  private readonly history: ChatMessage[] = []
  private traits: CallerTraits = {}
  private readonly clientTools: readonly DialogueTool[]

  constructor(
    private readonly chat: ChatServer,
    private readonly agent: DialogueAgent,
    tools: readonly DialogueTool[],
    private readonly timeoutMs: number,
    private readonly toolTimeoutMs: number,
  ) {
    this.clientTools = tools.filter((tool) => tool.name !== END_CALL_TOOL)
  }

  setCallerTraits(traits: CallerTraits): void {
    this.traits = { ...this.traits, ...traits }
  }

  async *open(options?: RespondOptions): AsyncIterable<DialogueEvent> {
    if (options?.signal?.aborted) throw abortReason(options.signal, ABORTED)
    const greeting = this.agent.greeting.trim()
    if (!greeting) return // The model speaks when the caller has: its first answer opens.
    this.history.push({ role: 'assistant', content: greeting })
    yield { type: 'say', text: greeting }
  }

  async *respond(callerText: string, options?: RespondOptions): AsyncIterable<DialogueEvent> {
    if (options?.signal?.aborted) throw abortReason(options.signal, ABORTED)
    this.history.push({ role: 'user', content: callerText })
    for (let request = 0; request <= MAX_TOOL_ROUNDS; request += 1) {
      const lastRequest = request === MAX_TOOL_ROUNDS
      const offered = lastRequest ? [this.endCallTool()] : [...this.clientTools.map(offeredTool), this.endCallTool()]
      const said: string[] = []
      let answer: { text: string; toolCalls: ChatToolCall[] } | undefined
      try {
        answer = yield* this.streamAnswer(offered, said, options?.signal)
      } finally {
        // Cut short (an error, an abort, or the host stopped listening): what was already said
        // stays in the history, so the next turn knows it was said.
        if (!answer && said.length > 0) this.history.push({ role: 'assistant', content: said.join(' ') })
      }
      // After the last round, only end_call is honoured; other calls go unanswered.
      const calls = lastRequest ? answer.toolCalls.filter((call) => call.function.name === END_CALL_TOOL) : answer.toolCalls
      if (calls.length === 0) {
        if (answer.text) this.history.push({ role: 'assistant', content: answer.text })
        return
      }
      this.history.push({ role: 'assistant', content: answer.text || null, tool_calls: calls })
      let ending: DialogueEvent | undefined
      for (const [position, call] of calls.entries()) {
        if (call.function.name === END_CALL_TOOL) {
          ending = { type: 'end-call', reason: this.agent.smartCallEnd && goalMet(call.function.arguments) ? 'smart-end' : 'goodbye' }
          this.history.push({ role: 'tool', tool_call_id: call.id, content: 'The call ends once your goodbye has been heard.' })
          continue
        }
        try {
          this.history.push({ role: 'tool', tool_call_id: call.id, content: await this.runTool(call, options) })
        } catch (error) {
          // Aborted: every call still gets its answer, or servers refuse the history on the next turn.
          for (const unanswered of calls.slice(position)) {
            this.history.push({ role: 'tool', tool_call_id: unanswered.id, content: 'Error: the turn was interrupted before this ran.' })
          }
          throw error
        }
      }
      if (ending) {
        yield ending
        return
      }
    }
  }

  async outcome(transcript: readonly DialogueTurn[], signal?: AbortSignal): Promise<DialogueOutcome> {
    const shape = this.agent.outcomeShape
    if (!shape) return { result: null, complete: true }
    if (signal?.aborted) throw abortReason(signal, 'The outcome extraction was aborted')
    if (transcript.length === 0) {
      const result = bestValidPartial(shape, undefined)
      const { valid, errors } = validateOutcome(shape, result)
      return valid ? { result, complete: true } : { result, complete: false, problems: ['the conversation is empty', ...errors] }
    }
    // json_object answers are objects: any other shape travels as {"result": …}.
    const wrapped = shape.type !== 'object'
    const schema: OutcomeShape = wrapped ? { type: 'object', properties: { result: shape }, required: ['result'] } : shape
    const messages: ChatMessage[] = [
      { role: 'system', content: outcomeInstructions(this.agent, schema) },
      { role: 'user', content: transcriptText(this.agent, transcript) },
    ]
    let best: unknown
    let problems: string[] = []
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const content = await this.complete(messages, signal)
      const parsed = parseJsonObject(content)
      if (parsed.ok) {
        const value = wrapped ? (parsed.value as { result?: unknown }).result : parsed.value
        best = value
        const check = validateOutcome(shape, value)
        if (check.valid) return { result: value, complete: true }
        problems = check.errors
      } else {
        problems = [`the model's answer is not a JSON object: ${snippet(content)}`]
      }
      messages.push(
        { role: 'assistant', content },
        {
          role: 'user',
          content: `That answer does not fit the schema:\n${problems.map((problem) => `- ${problem}`).join('\n')}\nAnswer again with the corrected JSON object only.`,
        },
      )
    }
    return { result: bestValidPartial(shape, best), complete: false, problems }
  }

  /** One streamed request: yields the sentences as they complete; returns the whole visible text and the tool calls. */
  private async *streamAnswer(
    offered: OfferedTool[],
    said: string[],
    signal: AbortSignal | undefined,
  ): AsyncGenerator<DialogueEvent, { text: string; toolCalls: ChatToolCall[] }> {
    const body = {
      model: this.chat.model,
      messages: [{ role: 'system', content: this.systemPrompt() }, ...this.history],
      tools: offered,
      temperature: 0.5,
    }
    const splitter = new SentenceSplitter()
    const calls = new Map<number, { id?: string; name: string; arguments: string }>()
    let raw = ''
    let fed = 0
    const feed = (visible: string, final: boolean) => {
      const sentences = splitter.push(visible.slice(fed))
      fed = visible.length
      return final ? [...sentences, ...splitter.flush()] : sentences
    }
    const collect = (delta: ChatDelta) => {
      for (const fragment of delta.toolCalls ?? []) {
        const call = calls.get(fragment.index) ?? { name: '', arguments: '' }
        if (fragment.id && !call.id) call.id = fragment.id
        if (fragment.name && !call.name) call.name = fragment.name
        if (fragment.arguments) call.arguments += fragment.arguments
        calls.set(fragment.index, call)
      }
    }
    for await (const delta of streamChat(this.chat, body, { signal, timeoutMs: this.timeoutMs, abortMessage: ABORTED })) {
      collect(delta)
      if (!delta.content) continue
      raw += delta.content
      for (const text of feed(visibleText(raw), false)) {
        said.push(text)
        yield { type: 'say', text }
      }
    }
    for (const text of feed(visibleText(raw, true), true)) {
      said.push(text)
      yield { type: 'say', text }
    }
    const toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, call]) => call.name)
      .map(([index, call]): ChatToolCall => ({
        id: call.id ?? `call_${index}`,
        type: 'function',
        function: { name: call.name, arguments: call.arguments || '{}' },
      }))
    return { text: said.join(' '), toolCalls }
  }

  /** Runs one of the client's tools; returns what the model is told: the JSON result or why there is none. */
  private async runTool(call: ChatToolCall, options: RespondOptions | undefined): Promise<string> {
    const { name } = call.function
    const tool = this.clientTools.find((candidate) => candidate.name === name)
    if (!tool) return `Error: there is no tool named ${name}.`
    if (!options?.callTool) return `Error: the tool ${name} is not available in this call.`
    let args: unknown
    try {
      args = JSON.parse(call.function.arguments)
    } catch {
      return `Error: the arguments for ${name} are not valid JSON (${snippet(call.function.arguments)}). Call it again with a JSON object.`
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return `Error: the arguments for ${name} must be a JSON object.`
    const result = await this.withinToolTime(
      name,
      Promise.resolve().then(() => options.callTool!(name, inDeclaredOrder(tool, args as Record<string, unknown>))),
      options.signal,
    )
    return result.ok ? (JSON.stringify(result.response) ?? 'null') : `Error: ${result.error}`
  }

  /** The tool's answer, a failure when it takes longer than the tool time limit, or the caller's abort. */
  private withinToolTime(name: string, running: Promise<ToolResult>, signal: AbortSignal | undefined): Promise<ToolResult> {
    return new Promise<ToolResult>((resolve, reject) => {
      const timer = setTimeout(
        () => resolve({ ok: false, error: `the tool ${name} did not answer within ${this.toolTimeoutMs} ms` }),
        this.toolTimeoutMs,
      )
      const onAbort = () => reject(abortReason(signal!, ABORTED))
      if (signal?.aborted) onAbort()
      signal?.addEventListener('abort', onAbort, { once: true })
      const settle = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
      }
      running.then(
        (result) => {
          settle()
          resolve(result)
        },
        (error: unknown) => {
          settle()
          resolve({ ok: false, error: error instanceof Error ? error.message : String(error) })
        },
      )
    })
  }

  /** One non-streamed request for a JSON object; returns the message's text. */
  private async complete(messages: ChatMessage[], signal: AbortSignal | undefined): Promise<string> {
    const timeout = AbortSignal.timeout(this.timeoutMs)
    const body = JSON.stringify({ model: this.chat.model, messages, temperature: 0, response_format: { type: 'json_object' } })
    let status: number
    let statusText: string
    let responseText: string
    try {
      const response = await fetch(this.chat.endpoint, {
        method: 'POST',
        headers: this.chat.headers(),
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      })
      status = response.status
      statusText = response.statusText
      responseText = await response.text()
    } catch (error) {
      throw this.chat.requestFailure(error, {
        signal,
        timedOut: timeout.aborted,
        timeoutMs: this.timeoutMs,
        abortMessage: 'The outcome extraction was aborted',
      })
    }
    if (status < 200 || status > 299) throw this.chat.httpFailure(status, statusText, responseText)
    let parsed: unknown
    try {
      parsed = JSON.parse(responseText)
    } catch {
      throw this.chat.fail(
        `the model server at ${this.chat.server} answered invalid JSON instead of a chat completion: ${snippet(responseText)}`,
      )
    }
    const content = (parsed as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content
    if (typeof content !== 'string')
      throw this.chat.fail(
        `the model server at ${this.chat.server} answered JSON that is not a chat completion (no choices[0].message.content)`,
      )
    return content
  }

  private systemPrompt(): string {
    const language = this.agent.lang === 'ar' ? 'Arabic' : 'English'
    const rules = [
      `You are ${this.agent.agentName}, speaking with a caller on a live voice call. Everything you write is spoken aloud.`,
      `Answer in ${language} unless the caller clearly speaks another language.`,
      'Use short spoken sentences, one or two at a time. No Markdown, lists, headings, emoji or links.',
      'Use the functions offered when they help; never invent what they would return.',
      `When the conversation is over or the caller says goodbye, say a short goodbye and call ${END_CALL_TOOL}.`,
    ]
    if (this.agent.smartCallEnd) {
      rules.push(
        `Once everything you were asked to find out is known and the caller has confirmed it, say goodbye and call ${END_CALL_TOOL} with goal_met true.`,
      )
    }
    if (this.traits.gender) {
      const forms = this.traits.gender === 'female' ? 'a woman: address her with feminine' : 'a man: address him with masculine'
      rules.push(`The caller is ${forms} forms in Arabic.`)
    }
    const preamble = this.agent.preamble.trim()
    return `${preamble ? `${preamble}\n\n` : ''}How to speak on this call:\n${rules.map((rule) => `- ${rule}`).join('\n')}`
  }

  private endCallTool(): OfferedTool {
    const properties: Record<string, unknown> = {}
    if (this.agent.smartCallEnd) {
      properties.goal_met = { type: 'boolean', description: 'True when everything the call was meant to find out is known and confirmed.' }
    }
    return {
      type: 'function',
      function: { name: END_CALL_TOOL, description: 'End the call after saying goodbye.', parameters: { type: 'object', properties } },
    }
  }
}

function offeredTool(tool: DialogueTool): OfferedTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description ?? '', parameters: tool.parameters ?? { type: 'object', properties: {} } },
  }
}

/**
 * The arguments with their keys in the order of the tool's declared `properties` (the web SDK
 * passes them positionally, in key order): declared ones the model left out stay out, keys it
 * added that are not declared come after, in the model's order.
 */
export function inDeclaredOrder(tool: DialogueTool, args: Record<string, unknown>): Record<string, unknown> {
  const properties = tool.parameters?.properties
  const declared = typeof properties === 'object' && properties !== null ? Object.keys(properties) : []
  const ordered: Record<string, unknown> = {}
  for (const key of declared) if (Object.hasOwn(args, key)) ordered[key] = args[key]
  for (const key of Object.keys(args)) if (!Object.hasOwn(ordered, key)) ordered[key] = args[key]
  return ordered
}

function goalMet(argumentsText: string): boolean {
  try {
    return (JSON.parse(argumentsText) as { goal_met?: unknown } | null)?.goal_met === true
  } catch {
    return false
  }
}

function outcomeInstructions(agent: DialogueAgent, schema: OutcomeShape): string {
  return [
    'You read the transcript of a voice call and write its outcome as one JSON object.',
    agent.outcome.trim(),
    'The object must match this JSON Schema exactly (types, required properties, allowed values):',
    JSON.stringify(schema),
    'Leave out what the call did not establish unless the schema requires it. Answer with the JSON object only.',
  ]
    .filter(Boolean)
    .join('\n\n')
}

function transcriptText(agent: DialogueAgent, transcript: readonly DialogueTurn[]): string {
  const lines = transcript.map((turn) => `${turn.role === 'agent' ? `Agent (${agent.agentName})` : 'Caller'}: ${turn.text}`)
  return `The transcript:\n${lines.join('\n')}`
}

/** The model's text as a JSON object; a Markdown fence or a sentence around it is tolerated (the outermost {...}). */
function parseJsonObject(content: string): { ok: true; value: Record<string, unknown> } | { ok: false } {
  const start = content.indexOf('{')
  const end = content.lastIndexOf('}')
  try {
    const value: unknown = JSON.parse(start >= 0 && end > start ? content.slice(start, end + 1) : content)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { ok: true, value: value as Record<string, unknown> }
  } catch {
    // Not JSON.
  }
  return { ok: false }
}
