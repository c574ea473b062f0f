import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEveryTest } from './after-every'

/** What the double was sent: the form's fields and the WAV's format, length and loudness. */
export interface TranscriptionRequest {
  model: string | null
  language: string | null
  responseFormat: string | null
  sampleRate: number
  channels: number
  bitsPerSample: number
  seconds: number
  /** Root mean square of the samples, 0 to 1: real sound is well above 0. */
  rms: number
}

export interface SpeechServerDouble {
  /** The OpenAI-style base, e.g. http://127.0.0.1:PORT/v1. */
  url: string
  requests: TranscriptionRequest[]
  close(): Promise<void>
}

export interface SpeechServerDoubleOptions {
  /**
   * The answer to the n-th request (0-based), given what was sent. Default: a `verbose_json`
   * answer that says how long the audio was, as one segment over all of it.
   */
  answer?: (request: TranscriptionRequest, index: number) => { status?: number; body: unknown }
}

const servers: Server[] = []
afterEveryTest(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

/**
 * A speech recognition server on loopback, standing for whisper.cpp's server, speaches or
 * LocalAI (servers outside this machine's packages). It reads the multipart upload as such a
 * server does, checks the WAV header, measures the audio it got, and answers in OpenAI's
 * `verbose_json` shape. It recognises nothing: its text says what it measured, so a test can
 * check what reached it and how the answers were put together.
 */
export async function startSpeechServerDouble(options: SpeechServerDoubleOptions = {}): Promise<SpeechServerDouble> {
  const requests: TranscriptionRequest[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      void (async () => {
        if (request.url !== '/v1/audio/transcriptions') {
          response.statusCode = 404
          response.end(JSON.stringify({ error: { message: `No route ${request.url}` } }))
          return
        }
        const form = await new Request('http://double/', {
          method: 'POST',
          headers: { 'content-type': request.headers['content-type']! },
          body: Buffer.concat(chunks),
        }).formData()
        const wav = Buffer.from(await (form.get('file') as File).arrayBuffer())
        const channels = wav.readUInt16LE(22)
        const sampleRate = wav.readUInt32LE(24)
        const bitsPerSample = wav.readUInt16LE(34)
        const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length - ((wav.length - 44) % 2)))
        // An indexed loop: a test sends it hours of audio, which an iterator took seconds of CPU to add up.
        let sum = 0
        for (let index = 0; index < samples.length; index += 1) sum += (samples[index]! / 32768) ** 2
        const sent: TranscriptionRequest = {
          model: form.get('model') as string | null,
          language: form.get('language') as string | null,
          responseFormat: form.get('response_format') as string | null,
          sampleRate,
          channels,
          bitsPerSample,
          seconds: samples.length / channels / sampleRate,
          rms: samples.length ? Math.sqrt(sum / samples.length) : 0,
        }
        requests.push(sent)
        const { status = 200, body } = options.answer?.(sent, requests.length - 1) ?? {
          body: {
            text: `heard ${sent.seconds.toFixed(2)} s`,
            language: sent.language ?? 'english',
            duration: sent.seconds,
            segments: [{ id: 0, start: 0, end: sent.seconds, text: ` heard ${sent.seconds.toFixed(2)} s` }],
          },
        }
        response.statusCode = status
        response.setHeader('content-type', 'application/json')
        response.end(typeof body === 'string' ? body : JSON.stringify(body))
      })()
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
