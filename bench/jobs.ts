/**
 * Job benchmarks: the list and search at 1,000,000 jobs, and the pickup latency from
 * enqueue to the runner starting the job. Runnable alone: `npx tsx bench/jobs.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createAiContentJob, listJobs } from '../src/service/ops/jobs'
import { createRuntime } from '../src/service/runtime'
import type { SqliteStore } from '../src/store/sqlite/store'
import { seedJob } from '../test/helpers/seed-jobs'

const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000)
const QUERIES = 200

const WORDS = `account address agent answer appointment balance billing booking call callback cancel card case change
charge check claim clinic confirm contract customer date delivery delay dentist discount doctor driver email error estimate
feedback flight follow form hotel insurance invoice issue late lead list manager meeting message order package password
payment phone plan policy price problem product quote refund renewal repair report request reservation return room route
schedule service shipment signup status subscription support survey table technician ticket transfer trial upgrade visit
warranty window`.split(/\s+/)

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 1000) / 1000
}

async function timeQueries(run: () => Promise<unknown>): Promise<{ p50: number; p99: number; max: number }> {
  for (let warm = 0; warm < 10; warm += 1) await run()
  const times: number[] = []
  for (let index = 0; index < QUERIES; index += 1) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: percentile(times, 100) }
}

/** Set per pickup measurement; the runner calls them through the runtime's job hooks. */
let pickupHook: () => void = () => {}
let endHook: () => void = () => {}

export async function benchJobs(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-jobs-'))
  const runtime = await createRuntime({
    dataDir,
    fixedApiKey: 'vd_bench_jobs_key_0123456789abcdef',
    jobs: { onJobStarted: () => pickupHook(), onJobEnded: () => endHook() },
  })
  try {
    const caller = {
      projectId: runtime.bootstrap.projectId,
      apiKeyId: (await runtime.store.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id,
      userId: runtime.bootstrap.userId,
    }
    // Seed in one transaction, as finished jobs (the runner has nothing to pick up).
    const seedStarted = performance.now()
    const types = ['TRANSCRIPTION', 'TRANSLATION', 'TTS', 'AI_CONTENT'] as const
    const statuses = ['COMPLETED', 'COMPLETED', 'COMPLETED', 'FAILED'] as const
    const base = Date.parse('2024-01-01T00:00:00.000Z')
    let seed = 42
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
    const word = () => WORDS[Math.floor(random() * random() * WORDS.length)]!
    await runtime.store.transaction(async (tx) => {
      for (let index = 0; index < JOBS; index += 1) {
        const at = new Date(base + index * 20_000).toISOString()
        await seedJob(
          runtime,
          {
            ...caller,
            type: types[index % 4]!,
            status: statuses[Math.floor(random() * 4)]!,
            title: `${word()} ${word()} ${index % 1000 === 0 ? 'escalation' : word()}`,
            text: Array.from({ length: 24 }, word).join(' '),
            usageSeconds: 10,
            totalCost: 1 + (index % 7),
            createdAt: at,
            updatedAt: at,
          },
          tx,
        )
      }
    })
    const seedSeconds = (performance.now() - seedStarted) / 1000
    // The file itself, not through test/helpers/test-service.ts: that module registers vitest hooks, which throw outside vitest.
    const sqlite = runtime.store as SqliteStore
    sqlite.db.exec('ANALYZE')
    const { context } = runtime
    const list = (body: Parameters<typeof listJobs>[3]) => listJobs(context, caller, caller.projectId, body)

    const results: Record<string, unknown> = {
      jobs: JOBS,
      seedSeconds: Math.round(seedSeconds * 10) / 10,
      firstPageMs: await timeQueries(() => list({ take: 10, skip: 1 })),
      firstPageFilteredByStatusMs: await timeQueries(() => list({ status: 'FAILED', take: 10, skip: 1 })),
      firstPageFilteredByTypeAndStatusMs: await timeQueries(() => list({ type: 'TTS', status: 'COMPLETED', take: 10, skip: 1 })),
      firstPageSortedByTitleMs: await timeQueries(() => list({ sort: { field: 'title', direction: 'asc' }, take: 10, skip: 1 })),
      searchCommonWordMs: await timeQueries(() => list({ search: 'refund', take: 10, skip: 1 })),
      searchRareWordMs: await timeQueries(() => list({ search: 'escalation', take: 10, skip: 1 })),
      searchTwoWordsFilteredMs: await timeQueries(() => list({ search: 'payment late', status: 'FAILED', take: 10, skip: 1 })),
      targets: 'p99 under 10 ms filtered, under 50 ms search',
    }

    // Pickup: from the enqueue call to the runner starting the job, with the runner idle.
    const source = (await runtime.store.jobs.list(caller.projectId, { type: 'TRANSCRIPTION', sort: 'createdAt', direction: 'desc', limit: 1, offset: 0 })).records[0]!
    const pickups: number[] = []
    for (let index = 0; index < 100; index += 1) {
      let enqueuedAt = 0
      const started = new Promise<number>((resolve) => {
        pickupHook = () => resolve(performance.now() - enqueuedAt)
      })
      const ended = new Promise<void>((resolve) => {
        endHook = resolve
      })
      enqueuedAt = performance.now()
      await createAiContentJob(context, caller, source.id, { aiParts: ['summary'] })
      pickups.push(await started)
      await ended
    }
    results.pickupLatencyMs = { runs: pickups.length, p50: percentile(pickups, 50), p99: percentile(pickups, 99), target: 'p50 under 5 ms' }
    return results
  } finally {
    await runtime.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchJobs(), null, 2))
}
