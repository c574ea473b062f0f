/**
 * Requests Node's HTTP parser refuses before Fastify sees them, sent byte by byte over a
 * real socket to a runtime listening on 127.0.0.1: answered in the envelope, then closed.
 */
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { ErrorEnvelopeSchema } from '../../../src/shared/api/errors'
import { rawRequest } from '../../helpers/raw-http'
import { startTestService } from '../../helpers/test-service'

async function listeningPort(): Promise<number> {
  const service = await startTestService({ port: 0 })
  await service.runtime.start()
  return (service.runtime.app.server.address() as AddressInfo).port
}

function expectEnvelope(answer: { status: number; headers: Record<string, string>; body: string }, status: number, code: string) {
  expect(answer.status, answer.body).toBe(status)
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(answer.headers.connection).toBe('close')
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body))
  const envelope = ErrorEnvelopeSchema.parse(JSON.parse(answer.body))
  expect(envelope.error.code).toBe(code)
  return envelope
}

describe('errors of the HTTP framing itself', () => {
  it('answers headers over 16 KiB with 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const port = await listeningPort()
    const answer = await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(expectEnvelope(answer, 431, 'HEADERS_TOO_LARGE').message).toMatch(/headers are too large/)
  })

  it.each([
    ['a malformed request line', 'GET\r\n\r\n', /request (line|target)|method/],
    ['an unknown method', 'FETCH! /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', /method/],
    ['a header name with a space', 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n', /header/],
    [
      'Content-Length twice',
      'POST /v1/voices HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      /Content-Length/,
    ],
    [
      'Content-Length with Transfer-Encoding',
      'POST /v1/voices HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      /Content-Length|Transfer-Encoding/,
    ],
    [
      'a malformed chunk size',
      'POST /v1/voices HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      /chunk/,
    ],
    ['a bare LF inside the request line', 'GET /healthz HTTP/1.1\nHost: 127.0.0.1\r\n\r\n', /./],
  ])('answers %s with 400 in the envelope and closes the connection', async (_name, bytes, reason) => {
    const port = await listeningPort()
    const answer = await rawRequest(port, bytes)
    expect(expectEnvelope(answer, 400, 'VALIDATION_ERROR').message).toMatch(reason)
  })

  it('still answers a well-formed request on the same server', async () => {
    const port = await listeningPort()
    const answer = await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
    expect(answer.status).toBe(200)
  })
})
