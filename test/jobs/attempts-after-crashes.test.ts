import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { JobRunner } from '../../src/jobs/job-runner'
import { bootstrapAccounts } from '../../src/service/ops/api-keys'
import type { Runtime } from '../../src/service/runtime'
import type { Store } from '../../src/store/ports'
import { openSqliteStore } from '../../src/store/sqlite/store'
import { DEFAULT_RETRY_DELAYS_MS } from '../../src/webhooks/retry-schedule'
import { WebhookSender } from '../../src/webhooks/webhook-sender'
import { SecretBox } from '../../src/store/secret-box'
import { seedJob } from '../helpers/seed-jobs'
import { makeTempDir } from '../helpers/temp-dir'
import { startWebhookReceiver } from '../helpers/webhook-receiver'

const stores: Store[] = []
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close()
})

async function openTestStore(): Promise<{ store: Store; runtime: Runtime }> {
  const store = openSqliteStore(join(makeTempDir(), 'voicedesk.db'))
  stores.push(store)
  const bootstrap = await bootstrapAccounts(store, new Date(), 'vd_attempts_test_key_0123456789abcdef')
  return { store, runtime: { store, bootstrap } as unknown as Runtime }
}

/** A delivery due now, stored as the outbox stores one. */
async function insertDueDelivery(store: Store, id: string, url: string): Promise<void> {
  const now = Date.now()
  await store.webhookDeliveries.insert({
    id,
    projectId: (await store.accounts.findDefaultProject())!.id,
    event: 'job.completed',
    jobId: null,
    url,
    authKey: null,
    authSecret: null,
    payload: '{}',
    createdAt: new Date(now).toISOString(),
    dueAt: now,
  })
}

/** A sender that claims a due delivery and dies mid-attempt: its lease is given back, the try is counted. */
async function claimByDeadSender(store: Store, owner: string) {
  const claimed = await store.webhookDeliveries.claimDue(owner, Date.now(), Date.now() + 60_000, 1)
  await store.webhookDeliveries.releaseLeasesOf(owner, Date.now())
  return claimed
}

/**
 * A process that dies while running a job leaves it leased; the next runner (here: a new
 * runner of this same process, which takes an earlier runner's leases back at once, as a
 * restart does a dead process's) claims it again. Each claim counts one attempt.
 */
describe('attempts after crashes', () => {
  it('ends a job FAILED after maxAttempts claims when every run dies with its process', async () => {
    const { store, runtime } = await openTestStore()
    const job = await seedJob(runtime, { type: 'TTS', status: 'PENDING', attempts: 0, voiceId: 'v', mediaFile: 'x.wav', jobResponse: null })
    let runs = 0
    // Never ends: the run "dies" with its process, which writes nothing more.
    const dies = () => {
      runs += 1
      return new Promise<never>(() => {})
    }
    for (let restart = 1; restart <= 4; restart += 1) {
      await new JobRunner({ store, handlers: { TTS: dies }, maxAttempts: 3, timeoutMs: 600_000 }).start()
      await new Promise((resolve) => setImmediate(resolve))
    }
    const ended = (await store.jobs.findById(job.id))!
    expect(runs).toBe(3)
    expect(ended.status).toBe('FAILED')
    expect(ended.errorCode).toBe('CRASHED')
    expect(ended.leaseOwner).toBeNull()
  })

  it('still runs a job claimed for the maxAttempts-th time', async () => {
    const { store, runtime } = await openTestStore()
    await seedJob(runtime, { type: 'TTS', status: 'PENDING', attempts: 2, voiceId: 'v', mediaFile: 'x.wav', jobResponse: null })
    let runs = 0
    const runner = new JobRunner({
      store,
      handlers: {
        TTS: async () => {
          runs += 1
          return { jobResponse: {}, usageSeconds: 1, totalCost: 1 }
        },
      },
      maxAttempts: 3,
    })
    await runner.start()
    await runner.stop(5_000)
    expect(runs).toBe(1)
  })

  it('ends a webhook delivery EXHAUSTED, without sending, once crashes used up its tries', async () => {
    const { store } = await openTestStore()
    const receiver = await startWebhookReceiver()
    await insertDueDelivery(store, 'msg_crashing', `${receiver.url}/hook`)
    // Eight tries in all (DEFAULT_RETRY_DELAYS_MS has seven waits): each claimed by a sender that died mid-attempt.
    const tries = DEFAULT_RETRY_DELAYS_MS.length + 1
    for (let crash = 1; crash <= tries; crash += 1) {
      expect(await claimByDeadSender(store, `dead-sender-${crash}`)).toHaveLength(1)
    }
    const sender = new WebhookSender({ deliveries: store.webhookDeliveries, secrets: new SecretBox(Buffer.alloc(32, 7)) })
    await sender.start()
    await sender.stop(5_000)
    const delivery = (await store.webhookDeliveries.findById('msg_crashing'))!
    expect(receiver.requests).toHaveLength(0)
    expect(delivery.status).toBe('EXHAUSTED')
    expect(delivery.attempts).toBe(tries)
    expect(delivery.lastError).toMatch(/stopped during each/)
  })

  it('still sends a delivery on its last try', async () => {
    const { store } = await openTestStore()
    const receiver = await startWebhookReceiver()
    await insertDueDelivery(store, 'msg_last_try', `${receiver.url}/hook`)
    for (let crash = 1; crash < DEFAULT_RETRY_DELAYS_MS.length + 1; crash += 1) await claimByDeadSender(store, `dead-${crash}`)
    const sender = new WebhookSender({ deliveries: store.webhookDeliveries, secrets: new SecretBox(Buffer.alloc(32, 7)) })
    await sender.start()
    await receiver.waitForRequests(1, 10_000)
    await sender.stop(5_000)
    expect((await store.webhookDeliveries.findById('msg_last_try'))!.status).toBe('DELIVERED')
  })
})
