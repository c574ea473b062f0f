/**
 * The AsyncAPI 3.0 document of the service's WebSockets (GET /v1/asyncapi.json): valid for
 * @asyncapi/parser (the AsyncAPI 3.0 JSON Schema and its semantic rules, every $ref resolved),
 * and true to the sockets: frames a real socket sends match the document's payload schemas,
 * and the frames a client may send are those the service accepts.
 */
import { Parser } from '@asyncapi/parser'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { startTestService } from '../../helpers/test-service'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an AsyncAPI document is walked as plain JSON
type Json = any

async function listening() {
  const service = await startTestService({ port: 0 })
  await service.runtime.start()
  const baseUrl = service.runtime.context.baseUrl()
  const response = await fetch(`${baseUrl}/v1/asyncapi.json`, { headers: { authorization: `Token ${service.key}` } })
  expect(response.status).toBe(200)
  return { service, baseUrl, document: (await response.json()) as Json }
}

/** A validator of one channel side's frames: any of the messages the operation lists. */
function frameValidator(document: Json, operationId: string) {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false })
  ajv.addSchema(document, 'asyncapi')
  const messageRefs = (document.operations[operationId].messages as { $ref: string }[]).map((ref) => ref.$ref.split('/').pop()!)
  const payloads = messageRefs.map((name) => document.components.messages[name].payload).filter((payload: Json) => payload.$ref)
  return ajv.compile({ anyOf: payloads.map((payload: Json) => ({ $ref: `asyncapi${payload.$ref}` })) })
}

/** The first text frame a socket receives, then waits for its close. */
function firstFrameAndClose(url: string): Promise<{ frame: Json; code: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url)
    let frame: Json
    socket.on('message', (data: Buffer) => (frame ??= JSON.parse(data.toString('utf8'))))
    socket.on('close', (code) => resolve({ frame, code }))
    socket.on('error', reject)
  })
}

describe('GET /v1/asyncapi.json', () => {
  it('needs a key, like the OpenAPI document', async () => {
    const { baseUrl } = await listening()
    const response = await fetch(`${baseUrl}/v1/asyncapi.json`)
    expect(response.status).toBe(401)
    expect(((await response.json()) as Json).error.code).toBe('UNAUTHORIZED')
  })

  it('is a valid AsyncAPI 3.0 document for @asyncapi/parser, every $ref resolved, no __shared component', async () => {
    const { document, baseUrl } = await listening()
    expect(document.asyncapi).toBe('3.0.0')
    const parser = new Parser()
    const diagnostics = await parser.validate(structuredClone(document))
    // Errors (severity 0) and warnings (1): none. The one information (2) says a newer AsyncAPI than 3.0 exists.
    expect(
      diagnostics
        .filter((diagnostic) => Number(diagnostic.severity) <= 1)
        .map((diagnostic) => `${diagnostic.code} ${diagnostic.path.join('.')}: ${diagnostic.message}`),
    ).toEqual([])
    const { document: parsed } = await parser.parse(structuredClone(document))
    expect(parsed).toBeDefined()
    expect(
      parsed!
        .servers()
        .all()
        .map((server) => `${server.protocol()}://${server.host()}`),
    ).toEqual([baseUrl.replace(/^http/, 'ws')])
    expect(
      parsed!
        .channels()
        .all()
        .map((channel) => channel.address()),
    ).toEqual(['/stream/{jobId}', '/v1/realtime/ws', '/ipc/streams/calls.test'])
    // Each frame of a side is one message, named after its event.
    const sdkClient = parsed!.operations().get('receiveCallStreamFrames')!
    expect(
      sdkClient
        .messages()
        .all()
        .map((message) => message.name()),
    ).toEqual([
      'callStreamClientStart',
      'callStreamClientMedia',
      'callStreamClientMark',
      'callStreamClientToolsResponse',
      'callStreamClientStop',
      'callStreamClientText',
    ])
    expect(sdkClient.action()).toBe('receive')

    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]*)"/g)].map((match) => match[1]!)
    for (const ref of new Set(refs))
      expect(ref).toMatch(/^#\/(components\/(schemas|messages|securitySchemes)|channels|servers)\/[A-Za-z][\w./]*$/)
    expect(JSON.stringify(document)).not.toContain('__shared')
    // The recursive outcome shape and shared schemas are components of their own name.
    expect(document.components.schemas).toHaveProperty('TranscriptTurn')
  })

  it("describes the frames the sockets really send and accept (from the service's zod schemas)", async () => {
    const { document, service, baseUrl } = await listening()
    const sdkServer = frameValidator(document, 'sendCallStreamFrames')
    const sdkClient = frameValidator(document, 'receiveCallStreamFrames')
    const operatorServer = frameValidator(document, 'sendOperatorCallsTestFrames')
    const operatorClient = frameValidator(document, 'receiveOperatorCallsTestFrames')
    const wsBase = baseUrl.replace(/^http/, 'ws')

    // A refused SDK socket: an info frame, then a clean close.
    const refused = await firstFrameAndClose(`${wsBase}/stream/00000000-0000-4000-8000-000000000000?api_key=wrong`)
    expect(refused.frame).toMatchObject({ event: 'info', code: 'UNAUTHORIZED' })
    expect(refused.code).toBe(1000)
    expect(sdkServer(refused.frame), JSON.stringify(sdkServer.errors)).toBe(true)
    const unknownJob = await firstFrameAndClose(`${wsBase}/stream/00000000-0000-4000-8000-000000000000?api_key=${service.key}`)
    expect(sdkServer(unknownJob.frame), JSON.stringify(unknownJob.frame)).toBe(true)
    expect(sdkServer({ event: 'media' })).toBe(false)

    // The SDK's own frames are messages of the document; malformed ones are not.
    for (const frame of [
      { event: 'start' },
      { event: 'media', media: { payload: 'AAAA' } },
      { event: 'mark', mark: { name: 'm1' } },
      { event: 'stop' },
      { event: 'text', content: 'Hello' },
    ]) {
      expect(sdkClient(frame), JSON.stringify(frame)).toBe(true)
    }
    expect(sdkClient({ event: 'text', content: '' })).toBe(false)
    expect(sdkClient({ event: 'media', media: {} })).toBe(false)

    // The realtime TTS socket: its refusal, and its requests.
    const realtimeServer = frameValidator(document, 'sendRealtimeTtsFrames')
    const realtimeClient = frameValidator(document, 'receiveRealtimeTtsFrames')
    const realtime = await firstFrameAndClose(`${wsBase}/v1/realtime/ws?api_key=wrong`)
    expect(realtime.frame).toMatchObject({ type: 'error', payload: { code: 'UNAUTHORIZED' } })
    expect(realtimeServer(realtime.frame), JSON.stringify(realtimeServer.errors)).toBe(true)
    expect(realtimeClient({ type: 'tts', payload: { text: 'Hello', speaker: 'Ava', dialect: 'pls', mulaw: false } })).toBe(true)
    expect(realtimeClient({ type: 'tts', payload: { text: 'Hello', voiceId: 'Ava', rate: 2 } })).toBe(false)
    expect(document.components.messages.realtimeTtsServerAudio.contentType).toBe('application/octet-stream')

    // The operator stream refuses a wrong token with a refused frame the document describes.
    const operator = await firstFrameAndClose(`${wsBase}/ipc/streams/calls.test?token=wrong`)
    expect(operator.frame).toMatchObject({ type: 'refused', error: { code: 'UNAUTHORIZED' } })
    expect(operatorServer(operator.frame), JSON.stringify(operatorServer.errors)).toBe(true)
    expect(operatorClient({ agentId: 'a1' }), 'the input, its defaults left out').toBe(true)
    expect(operatorClient({ type: 'text', content: 'Hi' })).toBe(true)
    expect(operatorClient({ type: 'hang-up', extra: 1 })).toBe(false)
  })
})
