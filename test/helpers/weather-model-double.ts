import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/*
 * A chat-model server double on loopback: it stands for an OpenAI-compatible model server
 * (Ollama, llama.cpp's server) outside this machine. It knows one tool, getWeather: it calls it
 * (streamed, as such servers stream a tool call's arguments in pieces), and once the tool's answer
 * is in the conversation it streams a reply made from that answer. A request that is not streamed
 * (the outcome at a call's end) gets an empty JSON object.
 */

export interface WeatherModelOptions {
  /** Call the tool on any caller turn, or only once the caller asked about the weather (else greet). */
  callsToolWhen: 'always' | 'asked-about-weather'
  /** The tool call's arguments as they are streamed, piece by piece. */
  argumentPieces: readonly string[]
  /** The reply, in streamed pieces, once the tool answered `toolContent`. */
  replyAfterTool: (toolContent: string) => readonly string[]
}

export interface WeatherModelDouble {
  server: Server
  /** The base URL to configure, ending in /v1. */
  url: string
  /** The tool answers the model was given, in order. */
  toolMessages: string[]
}

export async function startWeatherModelDouble(options: WeatherModelOptions): Promise<WeatherModelDouble> {
  const toolMessages: string[] = []
  const chunk = (delta: Record<string, unknown>) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (part: Buffer) => chunks.push(part))
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        messages: { role: string; content: string | null }[]
        stream?: boolean
      }
      const tool = body.messages.find((message) => message.role === 'tool')
      const asked =
        options.callsToolWhen === 'always' ||
        body.messages.some((message) => message.role === 'user' && message.content?.includes('weather'))
      if (!body.stream) {
        response.setHeader('content-type', 'application/json')
        response.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: '{}' }, finish_reason: 'stop' }] }))
        return
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      if (tool) {
        toolMessages.push(tool.content ?? '')
        for (const piece of options.replyAfterTool(tool.content ?? '')) response.write(chunk({ content: piece }))
      } else if (asked) {
        options.argumentPieces.forEach((pieceOf, index) => {
          const call =
            index === 0
              ? { index: 0, id: 'call_a', type: 'function', function: { name: 'getWeather', arguments: pieceOf } }
              : { index: 0, function: { arguments: pieceOf } }
          response.write(chunk({ tool_calls: [call] }))
        })
      } else {
        response.write(chunk({ content: 'Hello, how can I help?' }))
      }
      response.end('data: [DONE]\n\n')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, toolMessages }
}
