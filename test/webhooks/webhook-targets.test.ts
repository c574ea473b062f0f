/**
 * Where webhooks may go: link-local, metadata and unspecified addresses are refused when a
 * webhookUrl is given (IP literals) and again when the sender connects (what a name resolves
 * to). DNS is the one thing faked here: a lookup of our own resolves made-up names, since
 * no real name on this machine resolves to 169.254.169.254. Everything else is real: the
 * runtime, its SQLite file, the sender's sockets and a receiver on 127.0.0.1.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { describe, expect, it } from 'vitest'
import { DeliveryDetailEnvelopeSchema, DeliveryListEnvelopeSchema, type WebhookDeliveryDetail } from '../../src/shared/api/webhooks'
import { storeWebhook } from '../../src/webhooks/outbox'
import { guardedLookup, type Lookup } from '../../src/webhooks/guarded-connector'
import { WebhookAddressPolicy } from '../../src/webhooks/webhook-address-policy'
import { startTestService, type TestService } from '../helpers/test-service'
import { startWebhookReceiver } from '../helpers/webhook-receiver'

const VOICE = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'

const REFUSED_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.0.1:8080/hook',
  'http://2852039166/hook', // 169.254.169.254 written as one number
  'http://[fe80::1]/hook',
  'http://[febf:ffff::1]/hook',
  'http://[fd00:ec2::254]/hook',
  'http://0.0.0.0:9000/hook',
  'http://[::]/hook',
  'http://[::ffff:169.254.169.254]/hook',
  'http://[::ffff:0.0.0.0]/hook',
  'http://[64:ff9b::a9fe:a9fe]/hook', // 169.254.169.254 behind a NAT64 gateway
]

const ALLOWED_URLS = [
  'http://127.0.0.1:9000/hook',
  'http://127.8.9.10/hook',
  'http://[::1]/hook',
  'http://localhost:3000/hook',
  'http://10.1.2.3/hook',
  'http://172.16.0.9/hook',
  'http://192.168.1.20/hook',
  'http://[fc00::1]/hook',
  'http://[fd00:ec2::253]/hook',
  'http://[64:ff9b::a00:1]/hook', // 10.0.0.1 behind a NAT64 gateway: a private network, allowed
  'https://hooks.example.com/x',
  'http://169.254.169.254.nip.io/hook', // a name: checked when connecting, not here
]

describe('webhook targets, when the URL is given', () => {
  it.each(REFUSED_URLS)('refuses %s for a job and an agent, naming the field', async (url) => {
    const service = await startTestService()
    const job = await service.call('POST', '/v1/jobs/text-to-speech', { body: { voiceId: VOICE, text: 'Hi', webhookUrl: url } })
    expect(job.statusCode, job.body).toBe(400)
    expect(job.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: [{ path: 'body.webhookUrl' }] } })
    expect(job.json().message).toMatch(
      /^Invalid request: body\.webhookUrl: .* is (a link-local|an unspecified|a cloud metadata) address.*--allow-webhook-host/,
    )

    const created = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Desk', webhookUrl: url } })
    expect(created.statusCode, created.body).toBe(400)
    expect(created.json().error.details).toEqual([
      { path: 'body.webhookUrl', message: expect.stringMatching(/webhooks are not sent there/) },
    ])

    const agent = (await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Desk' } })).json().data
    const patched = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, { body: { webhookUrl: url } })
    expect(patched.statusCode, patched.body).toBe(400)
    expect(patched.json().error.details[0].path).toBe('body.webhookUrl')
  })

  it('accepts loopback, private networks and host names (this is a local tool)', async () => {
    const service = await startTestService()
    for (const url of ALLOWED_URLS) {
      const response = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Desk', webhookUrl: url } })
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200)
    }
  })

  it('accepts a refused address the operator allowed with allowWebhookHosts, in any spelling', async () => {
    const service = await startTestService({ allowWebhookHosts: ['169.254.169.254', '[FE80::1]'] })
    for (const url of ['http://169.254.169.254/hook', 'http://[::ffff:169.254.169.254]/hook', 'http://[fe80:0::1]/hook']) {
      const response = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Desk', webhookUrl: url } })
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200)
    }
    const other = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Desk', webhookUrl: 'http://169.254.169.253/' } })
    expect(other.statusCode).toBe(400)
  })

  it('refuses them from the operator UI too, beside the field', async () => {
    const service = await startTestService()
    const result = service.runtime.operatorHandlers('desktop')['agents.create']
    await expect(result({ agentName: 'Desk', webhookUrl: 'http://169.254.169.254/' })).rejects.toThrow(/link-local/)
  })
})

/** Resolves made-up names (DNS is outside the machine); every other name as the system does. */
function fakeDns(names: Record<string, string>): Lookup {
  return (hostname, options, callback) => {
    const address = names[hostname]
    if (address === undefined) return (dnsLookup as unknown as Lookup)(hostname, options, callback)
    const family = address.includes(':') ? 6 : 4
    if (options.all) return callback(null, [{ address, family }])
    callback(null, address, family)
  }
}

async function deliveryOf(service: TestService, status: string): Promise<WebhookDeliveryDetail> {
  for (;;) {
    const list = DeliveryListEnvelopeSchema.parse((await service.call('GET', '/v1/webhooks/deliveries')).json()).data
    const delivery = list.deliveries[0]
    if (delivery && delivery.status === status && !delivery.sending) {
      return DeliveryDetailEnvelopeSchema.parse((await service.call('GET', `/v1/webhooks/deliveries/${delivery.id}`)).json()).data
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('webhook targets, when the sender connects', () => {
  it('refuses a name that resolves to a metadata address, journals why, and retries on the schedule', async () => {
    const receiver = await startWebhookReceiver()
    const port = new URL(receiver.url).port
    const service = await startTestService({
      webhooks: { lookup: fakeDns({ 'metadata.example': '169.254.169.254' }), retryDelaysMs: [30, 30], random: () => 0 },
    })
    const job = await service.call('POST', '/v1/jobs/text-to-speech', {
      body: { voiceId: VOICE, text: 'Hi', webhookUrl: `http://metadata.example:${port}/hook` },
    })
    expect(job.statusCode, job.body).toBe(200) // a name: it cannot be judged before it is resolved

    const delivery = await deliveryOf(service, 'EXHAUSTED')
    expect(delivery.attemptLog).toHaveLength(3) // the first try and both retries of the schedule
    for (const attempt of delivery.attemptLog) {
      expect(attempt.statusCode).toBeNull()
      expect(attempt.error).toBe(
        'Refused to connect to metadata.example (169.254.169.254): a link-local address (where cloud metadata services answer); allow it with --allow-webhook-host metadata.example',
      )
    }
    expect(receiver.requests).toHaveLength(0)
  })

  it('refuses a stored delivery to an IP literal (no lookup runs for those)', async () => {
    const service = await startTestService({ webhooks: { retryDelaysMs: [], random: () => 0 } })
    const { runtime } = service
    await runtime.store.transaction((tx) =>
      storeWebhook(
        tx,
        { projectId: runtime.bootstrap.projectId, url: 'http://[::ffff:169.254.169.254]:80/x', authKey: null, authSecret: null },
        'job.completed',
        {},
        { now: new Date() },
      ),
    )
    runtime.webhookSender.wake()
    const delivery = await deliveryOf(service, 'EXHAUSTED')
    expect(delivery.attemptLog[0]!.error).toMatch(/^Refused to connect to ::ffff:a9fe:a9fe: a link-local address/)
  })

  it('sends to a name that resolves to loopback, through the same checked lookup', async () => {
    const receiver = await startWebhookReceiver()
    const service = await startTestService({ webhooks: { lookup: fakeDns({ 'receiver.example': '127.0.0.1' }) } })
    const job = await service.call('POST', '/v1/jobs/text-to-speech', {
      body: { voiceId: VOICE, text: 'Hi', webhookUrl: `http://receiver.example:${new URL(receiver.url).port}/hook` },
    })
    expect(job.statusCode, job.body).toBe(200)
    const [request] = await receiver.waitForRequests(1)
    expect(request!.headers.host).toBe(`receiver.example:${new URL(receiver.url).port}`)
    expect((await deliveryOf(service, 'DELIVERED')).attemptLog[0]!.error).toBeNull()
  })
})

describe('guardedLookup', () => {
  const resolveTo =
    (...addresses: string[]): Lookup =>
    (_hostname, _options, callback) =>
      callback(
        null,
        addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
      )

  const run = (lookup: Lookup, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      lookup('host.example', { all }, (error, address) => resolve({ error, address })),
    )

  it('drops refused addresses and keeps the others', async () => {
    const lookup = guardedLookup(new WebhookAddressPolicy(), resolveTo('169.254.169.254', '10.0.0.7', 'fe80::2'))
    expect(await run(lookup, true)).toEqual({ error: null, address: [{ address: '10.0.0.7', family: 4 }] })
    expect(await run(lookup, false)).toEqual({ error: null, address: '10.0.0.7' })
  })

  it('fails when every address is refused, and lets an allowed host through untouched', async () => {
    const refused = await run(guardedLookup(new WebhookAddressPolicy(), resolveTo('fd00:ec2::254')), false)
    expect(refused.error).toMatchObject({ code: 'VOICEDESK_REFUSED_ADDRESS', message: expect.stringMatching(/a cloud metadata address/) })
    const allowed = await run(guardedLookup(new WebhookAddressPolicy(['HOST.example']), resolveTo('169.254.169.254')), true)
    expect(allowed).toEqual({ error: null, address: [{ address: '169.254.169.254', family: 4 }] })
  })
})
