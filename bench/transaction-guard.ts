/**
 * The cost of the transaction guard (src/store/transaction-guard.ts) on the hot read of every
 * request, `store.accounts.findActiveKeyByHash`, on SQLite: ns per awaited read in a process
 * where no transaction ever ran (AsyncLocalStorage idle: the path main had) and in one where a
 * transaction ran (AsyncLocalStorage enabled, so Node 20 tracks the context of every promise,
 * and the guard's check runs). Each phase in its own process, alternating, ROUNDS of each.
 * Runnable alone: `npx tsx bench/transaction-guard.ts`.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openSqliteStore } from '../src/store/sqlite/store'

const ROUNDS = Number(process.env.BENCH_GUARD_ROUNDS ?? 4)
const READS = Number(process.env.BENCH_GUARD_READS ?? 200_000)
type Phase = 'idle' | 'guarded'

async function measure(phase: Phase): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), 'voicedesk-guard-'))
  const store = openSqliteStore(join(folder, 'voicedesk.db'))
  try {
    const at = new Date().toISOString()
    await store.accounts.insertProject({ id: 'p', name: 'Bench', isDefault: true, createdAt: at })
    await store.accounts.insertLocalUser('u', 'Local', at)
    await store.accounts.insertKey({ id: 'k', projectId: 'p', userId: 'u', name: 'bench', keyHash: 'hash', keyHint: 'vd_…', createdAt: at })
    if (phase === 'guarded') await store.transaction(async (tx) => tx.accounts.findKey('k'))
    const read = async (count: number) => {
      for (let index = 0; index < count; index += 1) await store.accounts.findActiveKeyByHash('hash')
    }
    await read(READS / 4) // warm-up: V8 optimises the path
    const started = process.hrtime.bigint()
    await read(READS)
    return Number(process.hrtime.bigint() - started) / READS
  } finally {
    await store.close()
    rmSync(folder, { recursive: true, force: true })
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function main(): Promise<void> {
  const phase = process.argv[2] as Phase | undefined
  if (phase) {
    process.stdout.write(String(await measure(phase)))
    return
  }
  const script = fileURLToPath(import.meta.url)
  const results: Record<Phase, number[]> = { idle: [], guarded: [] }
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const each of ['idle', 'guarded'] as const) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', script, each], { encoding: 'utf8' })
      if (child.status !== 0) throw new Error(child.stderr)
      results[each].push(Number(child.stdout))
    }
  }
  const idle = median(results.idle)
  const guarded = median(results.guarded)
  console.log(
    JSON.stringify(
      { reads: READS, rounds: ROUNDS, nsPerRead: results, medianIdle: idle, medianGuarded: guarded, ratio: guarded / idle },
      null,
      2,
    ),
  )
}

await main()
