import { describe, expect, it } from 'vitest'
import { runCli, startServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { startWebhookReceiver } from '../helpers/webhook-receiver'

const KEY = 'vd_webhook_crash_key_0123456789abcdef'
const VOICE = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'

describe('a crash between a job’s end and its webhook', () => {
  it('delivers the webhook after a SIGKILL and a restart, under the same webhook-id', { timeout: 60_000 }, async () => {
    const dataDir = makeTempDir()
    const env = { VOICEDESK_API_KEY: KEY }
    const receiver = await startWebhookReceiver()
    // The first attempt gets no answer: the process dies with the delivery in flight.
    receiver.answer((index) => (index === 0 ? 'hang' : { status: 200 }))
    const secret = await runCli(['webhook-secret', 'generate', '--data-dir', dataDir])
    expect(secret.code).toBe(0)

    const first = await startServe(dataDir, ['--port', '0'], { env })
    const headers = { authorization: `Token ${KEY}`, 'content-type': 'application/json' }
    const created = await fetch(`${first.url}/v1/jobs/text-to-speech`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        voiceId: VOICE,
        text: 'Your refund was approved.',
        webhookUrl: `${receiver.url}/done`,
        webhookAuth: { authKey: 'Token', authSecret: 'abc' },
      }),
    })
    expect(created.status).toBe(200)
    const jobId = ((await created.json()) as { data: { id: string } }).data.id
    const [firstTry] = await receiver.waitForRequests(1, 30_000)
    first.cli.child.kill('SIGKILL')
    await first.cli.waitForExit(10_000)

    const second = await startServe(dataDir, ['--port', '0'], { env })
    const [, secondTry] = await receiver.waitForRequests(2, 20_000)
    expect(secondTry!.headers['webhook-id']).toBe(firstTry!.headers['webhook-id'])
    expect(secondTry!.body).toBe(firstTry!.body)
    expect(secondTry!.headers.authorization).toBe('Token abc')
    expect(secondTry!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    expect(JSON.parse(secondTry!.body)).toMatchObject({ event: 'job.completed', data: { id: jobId, status: 'COMPLETED' } })

    const deadline = Date.now() + 10_000
    let delivery: { status: string; attemptLog?: unknown[] } | undefined
    while (Date.now() < deadline) {
      const list = (await (await fetch(`${second.url}/v1/webhooks/deliveries?jobId=${jobId}`, { headers })).json()) as {
        data: { deliveries: { id: string; status: string }[] }
      }
      if (list.data.deliveries[0]?.status === 'DELIVERED') {
        delivery = (
          (await (await fetch(`${second.url}/v1/webhooks/deliveries/${list.data.deliveries[0].id}`, { headers })).json()) as {
            data: typeof delivery
          }
        ).data
        break
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    // The attempt the kill cut off left no journal line; the one after the restart did.
    expect(delivery).toMatchObject({ status: 'DELIVERED', attemptLog: [expect.objectContaining({ statusCode: 200 })] })
    second.cli.child.kill('SIGTERM')
    await second.cli.waitForExit(15_000)
    expect(receiver.requests).toHaveLength(2)
  })
})
