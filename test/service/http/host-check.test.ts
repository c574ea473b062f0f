/**
 * DNS rebinding: a request reaches 127.0.0.1 with the Host a hostile page's name gave it.
 * The matrix goes over a real socket to a runtime listening on 127.0.0.1 (inject would
 * write a Host of its own).
 */
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import { describe, expect, it } from 'vitest'
import { createHostAllowList, hostnameOf } from '../../../src/service/http/host-allow-list'
import { ErrorEnvelopeSchema } from '../../../src/shared/api/errors'
import { getWithHost, rawRequest } from '../../helpers/raw-http'
import { startTestService } from '../../helpers/test-service'

const ALLOWED = [
  'localhost',
  'localhost:8740',
  'LocalHost:1',
  'localhost.',
  'app.localhost:5173',
  '127.0.0.1',
  '127.0.0.1:9',
  '127.5.6.7:80',
  '[::1]',
  '[::1]:8740',
  '[::ffff:127.0.0.1]',
]
const REFUSED = [
  'evil.example',
  'evil.example:8740',
  'localhost.evil.example',
  '127.0.0.1.nip.io',
  '192.168.1.10',
  '10.0.0.1:8740',
  '0.0.0.0',
  '[::2]',
  '::1', // IPv6 without brackets is not a Host
  'localhost:http',
  '[::1]x',
  '',
]
const ROUTES = [
  '/healthz',
  '/v1/voices',
  '/v1/voice-agents/9d6a1707-b717-4e39-b6d2-4bfd68aee57d',
  '/media/x.wav',
  '/preview/abc',
  '/app/',
  '/ipc/events?token=x',
  '/nowhere',
]

async function listening(config: Parameters<typeof startTestService>[0] = {}) {
  const service = await startTestService({ port: 0, ...config })
  await service.runtime.start()
  return { service, port: (service.runtime.app.server.address() as AddressInfo).port }
}

describe('the Host check', () => {
  it('answers loopback names and addresses, whatever the port', async () => {
    const { port } = await listening()
    for (const host of ALLOWED) {
      const answer = await getWithHost(port, '/healthz', host)
      expect(answer.status, `${host}: ${answer.body}`).toBe(200)
    }
  })

  it.each(ROUTES)('refuses other hosts, and a missing Host, with 421 in the envelope on %s', async (route) => {
    const { port } = await listening()
    for (const host of [...REFUSED, null]) {
      const answer = await getWithHost(port, route, host, 'Authorization: Token vd_test_0123456789abcdefghijklmnopqrstuv\r\n')
      expect(answer.status, `${host}: ${answer.body}`).toBe(421)
      const envelope = ErrorEnvelopeSchema.parse(JSON.parse(answer.body))
      expect(envelope.error.code).toBe('MISDIRECTED_REQUEST')
      expect(envelope.message).toMatch(host === null ? /Host header is missing/ : /does not answer for the host/)
    }
  })

  it('refuses a WebSocket upgrade for another host with 421, then closes its socket', async () => {
    const { port } = await listening()
    const upgrade = (host: string) =>
      `GET /stream/job-1?api_key=x HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'
    // The answer comes once the server closes the socket; a socket left open never answers.
    const closed = (host: string) =>
      Promise.race([
        rawRequest(port, upgrade(host)),
        new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 3_000)),
      ])
    const answers = await Promise.all(['evil.example', 'evil.example', '10.0.0.1:8740'].map(closed))
    for (const answer of answers) {
      if (answer === 'still open') throw new Error('the refused upgrade kept its socket open')
      expect(answer.status, answer.body).toBe(421)
      expect(ErrorEnvelopeSchema.parse(JSON.parse(answer.body)).error.code).toBe('MISDIRECTED_REQUEST')
    }
  })

  it('closes the sockets of 20 upgrades refused at once, while 20 ordinary requests are answered beside them', async () => {
    const { port } = await listening()
    const upgrade = `GET /stream/job-1?api_key=x HTTP/1.1\r\nHost: evil.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`
    const stillOpen = new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 5_000))
    const [refused, ordinary] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => Promise.race([rawRequest(port, upgrade), stillOpen]))),
      Promise.all(Array.from({ length: 20 }, () => getWithHost(port, '/healthz', '127.0.0.1'))),
    ])
    for (const answer of refused) {
      if (answer === 'still open') throw new Error('a refused upgrade kept its socket open')
      expect(answer.status).toBe(421)
    }
    expect(ordinary.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200))
  })

  it('answers the hosts the operator allows', async () => {
    const { port } = await listening({ allowedHosts: ['VoiceDesk.internal', '192.168.1.10', '[fd00::5]'] })
    for (const host of ['voicedesk.internal:8740', 'VOICEDESK.INTERNAL', '192.168.1.10', '[fd00::5]:1']) {
      expect((await getWithHost(port, '/healthz', host)).status, host).toBe(200)
    }
    expect((await getWithHost(port, '/healthz', 'other.internal')).status).toBe(421)
  })

  it('answers the listening address itself', () => {
    const isAllowed = createHostAllowList({ listenHost: '192.168.7.7' })
    expect(isAllowed('192.168.7.7:8740')).toBe(true)
    expect(isAllowed('192.168.7.8')).toBe(false)
    expect(createHostAllowList({ listenHost: 'fd00::7' })('[fd00::7]:8740')).toBe(true)
  })

  it("answers the machine's interface addresses when listening on every interface, and nothing more", () => {
    const own = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .map((entry) => (entry.family === 'IPv6' ? `[${entry.address.split('%')[0]}]` : entry.address))
    for (const listenHost of ['0.0.0.0', '::']) {
      const isAllowed = createHostAllowList({ listenHost })
      for (const address of own) expect(isAllowed(`${address}:8740`), address).toBe(true)
      expect(isAllowed('203.0.113.9')).toBe(own.includes('203.0.113.9'))
      expect(isAllowed('evil.example')).toBe(false)
    }
    // Listening on loopback only, an interface address is another host.
    const external = own.find((address) => !address.startsWith('127.') && address !== '[::1]')
    if (external) expect(createHostAllowList({ listenHost: '127.0.0.1' })(external)).toBe(false)
  })

  it('reads Host values as RFC 9110 writes them', () => {
    expect(hostnameOf('Example.COM:80')).toBe('example.com')
    expect(hostnameOf('[::1]:80')).toBe('::1')
    expect(hostnameOf('::1')).toBeUndefined()
    expect(hostnameOf('[::1')).toBeUndefined()
    expect(hostnameOf('a:b')).toBeUndefined()
  })
})

describe('a query parameter given more than once', () => {
  it.each([
    ['/ipc/events?token=a&token=b', 'query.token'],
    ['/v1/voice-agents?take=1&search=x&take=2', 'query.take'],
    ['/v1/jobs?jobId=a&jobId=b', 'query.jobId'],
    ['/healthz?x=1&x=2', 'query.x'],
    ['/nowhere?x=1&x=2', 'query.x'],
  ])('%s is a 400 naming it, never a 500', async (url, path) => {
    const service = await startTestService()
    const response = await service.call('GET', url)
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json()).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path, message: expect.stringMatching(/more than once/) }] },
    })
  })

  it('still reads distinct parameters', async () => {
    const service = await startTestService()
    const response = await service.call('GET', '/v1/voice-agents?take=5&skip=1&search=desk')
    expect(response.statusCode, response.body).toBe(200)
  })
})
