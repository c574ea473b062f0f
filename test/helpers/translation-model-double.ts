import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEveryTest } from './after-every'

/*
 * A translating chat-model server double on loopback: it stands for an OpenAI-compatible model
 * server (Ollama, llama.cpp's server) outside this machine, which is all it fakes. It reads the
 * `{"texts": [...]}` VoiceDesk sends and answers `{"translations": [...]}`, each text marked with
 * the language it was asked for (`[ar] Hello.`), so a test can tell every text was translated
 * and where it went. `answer` may break an answer on purpose (too few items, not JSON, an error).
 */

export interface TranslationRequest {
  /** The texts of the request, in order. */
  texts: string[]
  /** The target language read from the instructions ('ar' or 'en'). */
  to: 'ar' | 'en'
  model: string
  authorization: string | undefined
}

/** How to answer the n-th request (0-based): as a translator, or broken on purpose. */
/** 'hang': never answers (for time limits). */
export type ModelAnswer =
  'hang' | 'translate' | 'one-too-few' | 'not-json' | 'bare-array' | { status: number; body: string } | { content: string }

export interface TranslationModelDouble {
  /** The base URL to configure, ending in /v1. */
  url: string
  requests: TranslationRequest[]
  answer(choose: (index: number, request: TranslationRequest) => ModelAnswer): void
  close(): Promise<void>
}

const open = new Set<Server>()

afterEveryTest(async () => {
  const servers = [...open]
  open.clear()
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    ),
  )
})

/** The translation the double makes: the text marked with its target language. */
export function doubleTranslation(text: string, to: 'ar' | 'en'): string {
  return `[${to}] ${text}`
}

export async function startTranslationModelDouble(): Promise<TranslationModelDouble> {
  const requests: TranslationRequest[] = []
  let choose: (index: number, request: TranslationRequest) => ModelAnswer = () => 'translate'
  const completion = (content: string) =>
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
    })

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; messages: { role: string; content: string }[] }
      const system = body.messages.find((message) => message.role === 'system')?.content ?? ''
      const user = body.messages.find((message) => message.role === 'user')?.content ?? '{}'
      const request: TranslationRequest = {
        texts: (JSON.parse(user) as { texts: string[] }).texts,
        to: / into Arabic\./.test(system) ? 'ar' : 'en',
        model: body.model,
        authorization: incoming.headers.authorization,
      }
      const answer = choose(requests.length, request)
      requests.push(request)
      const translations = request.texts.map((text) => doubleTranslation(text, request.to))
      if (answer === 'hang') return
      if (typeof answer === 'object' && 'status' in answer) {
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body)
        return
      }
      const content =
        answer === 'translate'
          ? // Wrapped in a Markdown fence, as small models often do.
            '```json\n' + JSON.stringify({ translations }) + '\n```'
          : answer === 'one-too-few'
            ? JSON.stringify({ translations: translations.slice(0, -1) })
            : answer === 'not-json'
              ? 'Sure! Here are your translations: ' + translations.join(' / ')
              : answer === 'bare-array'
                ? JSON.stringify(translations)
                : answer.content
      response.writeHead(200, { 'content-type': 'application/json' }).end(completion(content))
    })
  })
  open.add(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    answer: (next) => {
      choose = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        open.delete(server)
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
