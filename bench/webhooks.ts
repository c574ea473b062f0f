/**
 * Webhook benchmarks: deliveries per second to a receiver on 127.0.0.1 (in its own process,
 * so it does not share this event loop), and the time from a job's end to the start of its
 * webhook's first attempt. Runnable alone: `npx tsx bench/webhooks.ts`.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createTextToSpeechJob, getJob } from '../src/service/ops/jobs'
import { createRuntime } from '../src/service/runtime'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 5_000)
const LATENCY_JOBS = 200
const VOICE = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 1000) / 1000
}

/** Hooks the runtime calls; set per measurement. */
let onJobEnded: (jobId: string) => void = () => {}
let onAttemptStarted: (jobId: string | null) => void = () => {}
let onAttempt: (status: string) => void = () => {}

export async function benchWebhooks(): Promise<Record<string, unknown>> {
  const receiver = spawn(process.execPath, [join(ROOT, 'bench/bare-server.mjs')], {
    env: { ...process.env, BARE_BODY: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const receiverUrl = await new Promise<string>((resolve, reject) => {
    let output = ''
    receiver.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(/listening on (http:\/\/\S+)/)
      if (match) resolve(match[1]!)
    })
    receiver.on('exit', () => reject(new Error('the receiver exited')))
  })
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-webhooks-'))
  const runtime = await createRuntime({
    dataDir,
    fixedApiKey: 'vd_bench_webhooks_key_0123456789abcdef',
    jobs: { onJobEnded: (job) => onJobEnded(job.id) },
    webhooks: {
      onAttemptStarted: (delivery) => onAttemptStarted(delivery.jobId),
      onAttempt: (_delivery, _attempt, outcome) => onAttempt(outcome.status),
    },
  })
  try {
    const caller = {
      projectId: runtime.bootstrap.projectId,
      apiKeyId: (await runtime.store.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id,
      userId: runtime.bootstrap.userId,
    }

    // 1. Job end to first attempt: one TTS job at a time, each with a webhook.
    const latencies: number[] = []
    let sampleJob: unknown
    for (let index = 0; index < LATENCY_JOBS + 10; index += 1) {
      const job = await createTextToSpeechJob(runtime.context, caller, {
        voiceId: VOICE,
        text: `Order ${index} has shipped.`,
        webhookUrl: `${receiverUrl}/hook`,
      })
      const latency = await new Promise<number>((resolve) => {
        let endedAt = 0
        onJobEnded = (id) => {
          if (id === job.id) endedAt = performance.now()
        }
        onAttemptStarted = (id) => {
          if (id === job.id) resolve(performance.now() - endedAt)
        }
      })
      if (index >= 10) latencies.push(latency) // the first ones warm the engine and the connection
      sampleJob ??= (await getJob(runtime.context, caller, job.id)).data
    }

    // 2. Throughput: deliveries stored at once (as a burst of ended jobs would), then sent.
    const payload = JSON.stringify({ event: 'job.completed', data: sampleJob })
    let delivered = 0
    let failed = 0
    const allSent = new Promise<void>((resolve) => {
      onAttempt = (status) => {
        if (status === 'DELIVERED') delivered += 1
        else failed += 1
        if (delivered + failed === DELIVERIES) resolve()
      }
    })
    const now = Date.now()
    await runtime.store.transaction(async (tx) => {
      for (let index = 0; index < DELIVERIES; index += 1) {
        await tx.webhookDeliveries.insert({
          id: `msg_${randomBytes(16).toString('hex')}`,
          projectId: caller.projectId,
          event: 'job.completed',
          jobId: null,
          url: `${receiverUrl}/hook`,
          authKey: 'Bearer',
          authSecret: runtime.context.secrets.encrypt('receiver-secret'),
          payload,
          createdAt: new Date(now).toISOString(),
          dueAt: now,
        })
      }
    })
    const started = performance.now()
    runtime.webhookSender.wake()
    await allSent
    const seconds = (performance.now() - started) / 1000
    if (failed > 0) throw new Error(`${failed} deliveries failed`)

    return {
      jobEndToFirstAttemptMs: {
        method: `${LATENCY_JOBS} TTS jobs one at a time: the runner's end of the job (committed) to the sender starting the POST`,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: percentile(latencies, 100),
        target: 'p50 under 10 ms',
      },
      throughput: {
        method: `${DELIVERIES} deliveries of ${Buffer.byteLength(payload)} bytes stored at once, sent with auth to a node:http receiver in another process, each journaled`,
        deliveriesPerSecond: Math.round(DELIVERIES / seconds),
        seconds: Math.round(seconds * 1000) / 1000,
        target: '1000/s or better',
      },
    }
  } finally {
    await runtime.stop()
    receiver.kill('SIGTERM')
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchWebhooks(), null, 2))
}
