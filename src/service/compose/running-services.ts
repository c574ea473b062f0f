import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'

/**
 * Each service that listens on a data folder leaves a small file in its `run/` subfolder
 * while it runs, so the CLI can tell the operator whether a key it just made in that folder
 * is served by anyone (a key made in the wrong folder is the classic first-run mistake).
 */
const RUN_FOLDER = 'run'

const RunningServiceSchema = z.object({
  pid: z.number().int(),
  host: z.string(),
  url: z.string(),
  startedAt: z.string(),
})
export type RunningService = z.infer<typeof RunningServiceSchema>

function fileOf(dataDir: string, pid: number): string {
  return join(dataDir, RUN_FOLDER, `${hostname()}-${pid}.json`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' // alive, another user's
  }
}

/** Records this process as serving `dataDir` at `url`; the returned function removes the record. */
export function announceRunningService(dataDir: string, url: string, now: Date): () => void {
  const file = fileOf(dataDir, process.pid)
  mkdirSync(join(dataDir, RUN_FOLDER), { recursive: true, mode: 0o700 })
  const record: RunningService = { pid: process.pid, host: hostname(), url, startedAt: now.toISOString() }
  writeFileSync(file, JSON.stringify(record) + '\n', { mode: 0o600 })
  return () => rmSync(file, { force: true })
}

/**
 * The services on this host that serve `dataDir` now. Records of processes that died
 * without removing theirs (SIGKILL, power loss) are left out and deleted.
 */
export function findRunningServices(dataDir: string): RunningService[] {
  let names: string[]
  try {
    names = readdirSync(join(dataDir, RUN_FOLDER))
  } catch {
    return []
  }
  const found: RunningService[] = []
  for (const name of names) {
    const file = join(dataDir, RUN_FOLDER, name)
    let record: RunningService
    try {
      record = RunningServiceSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
    } catch {
      continue // half written, or not ours
    }
    if (record.host !== hostname()) {
      found.push(record) // another machine sharing the folder: it cannot be checked from here
    } else if (isAlive(record.pid)) {
      found.push(record)
    } else {
      rmSync(file, { force: true })
    }
  }
  return found
}
