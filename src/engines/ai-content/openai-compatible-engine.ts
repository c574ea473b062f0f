import { z } from 'zod'
import { chatServer, snippet } from '../model-server/chat-server'
import { detectLanguage, requestedParts, throwIfAborted, type AiContentEngine } from './ai-content-engine'
import { buildChatMessages, buildCustomChatMessages, type ChatMessage } from './chat-prompt'

export interface OpenAiCompatibleEngineOptions {
  /** The API root, e.g. http://127.0.0.1:11434/v1 (Ollama) or http://127.0.0.1:8080/v1 (llama.cpp server). */
  baseUrl: string
  model: string
  /** Sent as `Authorization: Bearer <apiKey>` when given; never appears in an error message. */
  apiKey?: string
  /** Whole request, body included. Default 120 s: local models on a laptop are slow. */
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 120_000

/** The part of a chat completion this engine reads. */
const ChatCompletionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
})

/**
 * A part's value: a string, or (a common small-model habit) a list of strings, taken as lines.
 * Either way it must say something.
 */
const PartValueSchema = z.union([z.string(), z.array(z.string()).transform((lines) => lines.join('\n'))]).pipe(z.string().trim().min(1))

/**
 * An engine that asks an OpenAI-compatible chat-completions server (Ollama, llama.cpp,
 * vLLM, or a hosted API) for the parts as one JSON object, then checks that every requested part
 * is there as text. Rejects with an Error that says what went wrong: the HTTP status, "could not
 * reach", "did not answer within", "answered invalid JSON", or the missing parts. A caller's
 * abort rejects with that abort's reason (an AbortError).
 */
export function createOpenAiCompatibleEngine(options: OpenAiCompatibleEngineOptions): AiContentEngine {
  const chat = chatServer(options)
  const { server, endpoint, fail } = chat
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS

  return {
    name: 'openai-compatible',
    async generate(input, signal) {
      throwIfAborted(signal)
      const parts = requestedParts(input.parts)
      if (!input.text.trim()) throw new Error('The source text is empty: there is nothing to write AI content from')
      const lang = input.lang ?? detectLanguage(input.text)
      const content = await ask(buildChatMessages(input, parts, lang), signal)
      return partsFrom(content, parts, fail)
    },
    async generateCustom(input, signal) {
      throwIfAborted(signal)
      if (!input.text.trim()) throw new Error('The source text is empty: there is nothing to write AI content from')
      const sourceLanguage = detectLanguage(input.text)
      const requests = input.parts.map((part) => ({ ...part, language: part.language ?? sourceLanguage }))
      const keys = requests.map((_, index) => `part${index + 1}`)
      const content = await ask(buildCustomChatMessages(input, requests), signal)
      const values = partsFrom(content, keys, fail)
      return requests.map((part, index) => ({
        aiPart: part.aiPart,
        language: part.language,
        prompt: part.prompt,
        content: values[keys[index]!]!,
        engine: `openai-compatible:${options.model}`,
        basedOn: null,
        honoured: [`written by the model ${options.model} from the instruction`],
        notHonoured: [],
      }))
    },
  }

  /** One chat completion asked for a JSON object; answers the model's message. */
  async function ask(messages: ChatMessage[], signal: AbortSignal | undefined): Promise<string> {
    const timeout = AbortSignal.timeout(timeoutMs)
    const headers = chat.headers()
    const body = JSON.stringify({ model: options.model, messages, temperature: 0.3, response_format: { type: 'json_object' } })
    let status: number
    let statusText: string
    let responseText: string
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers,
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      })
      status = response.status
      statusText = response.statusText
      responseText = await response.text()
    } catch (error) {
      throw chat.requestFailure(error, {
        signal,
        timedOut: timeout.aborted,
        timeoutMs,
        abortMessage: 'The AI-content generation was aborted',
      })
    }
    if (status < 200 || status > 299) throw chat.httpFailure(status, statusText, responseText)
    return completionContent(responseText, server, fail)
  }
}

function completionContent(responseText: string, server: string, fail: (message: string) => Error): string {
  let parsed: unknown
  try {
    parsed = JSON.parse(responseText)
  } catch {
    throw fail(`the model server at ${server} answered invalid JSON instead of a chat completion: ${snippet(responseText)}`)
  }
  const completion = ChatCompletionSchema.safeParse(parsed)
  if (!completion.success)
    throw fail(`the model server at ${server} answered JSON that is not a chat completion (no choices[0].message.content)`)
  const content = completion.data.choices[0]!.message.content?.trim()
  if (!content) throw fail('the model answered an empty message')
  return content
}

/**
 * The requested parts from the model's message. Models sometimes wrap the object in a Markdown
 * fence or a sentence despite being told not to, so the outermost {...} is taken.
 */
function partsFrom(content: string, parts: readonly string[], fail: (message: string) => Error): Record<string, string> {
  const start = content.indexOf('{')
  const end = content.lastIndexOf('}')
  let answer: unknown
  try {
    answer = JSON.parse(start >= 0 && end > start ? content.slice(start, end + 1) : content)
  } catch {
    throw fail(`the model answered invalid JSON: ${snippet(content)}`)
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
    throw fail(`the model answered JSON that is not an object: ${snippet(content)}`)
  const values = answer as Record<string, unknown>
  const missing = parts.filter((part) => values[part] === undefined || values[part] === null)
  if (missing.length > 0) throw fail(`the model's answer lacks the part${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`)
  const schema = z.object(Object.fromEntries(parts.map((part) => [part, PartValueSchema])))
  const checked = schema.safeParse(values)
  if (!checked.success) {
    const bad = [...new Set(checked.error.issues.map((issue) => String(issue.path[0])))]
    throw fail(`the model's answer has parts that are not non-empty text: ${bad.join(', ')}`)
  }
  // Only the requested parts, whatever else the model added.
  const result: Record<string, string> = {}
  for (const part of parts) result[part] = checked.data[part] as string
  return result
}
