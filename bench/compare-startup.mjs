#!/usr/bin/env node
// Start-up of two builds of the CLI, alternating in one run (so machine load falls on both
// alike): spawn `node <cli> serve` to the first 200 on /healthz, on an existing data folder.
// Usage: node bench/compare-startup.mjs <before/out/main/cli.js> <after/out/main/cli.js> [runs] [result.json]
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'

const [before, after, runsText = '15', out] = process.argv.slice(2)
if (!before || !after) {
  console.error('usage: node bench/compare-startup.mjs <before cli.js> <after cli.js> [runs] [result.json]')
  process.exit(2)
}
const builds = { before, after }
const KEY = 'vd_bench_key_0123456789abcdef0123456789'

function freePort() {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

async function startOnce(cli, dataDir) {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, [cli, 'serve', '--port', String(port), '--data-dir', dataDir], {
    env: { ...process.env, VOICEDESK_API_KEY: KEY },
    stdio: 'ignore',
  })
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) break
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`${cli} exited during start-up`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  const ms = performance.now() - started
  await new Promise((resolve) => {
    child.once('exit', resolve)
    child.kill('SIGTERM')
  })
  return ms
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}
const workDir = mkdtempSync(join(tmpdir(), 'voicedesk-startup-ab-'))
try {
  const times = { before: [], after: [] }
  const dirs = { before: join(workDir, 'before'), after: join(workDir, 'after') }
  for (const name of ['before', 'after']) await startOnce(builds[name], dirs[name]) // make both folders first
  for (let run = 0; run < Number(runsText); run += 1) {
    for (const name of run % 2 ? ['before', 'after'] : ['after', 'before']) times[name].push(await startOnce(builds[name], dirs[name]))
  }
  const summary = (values) => ({ p50: Math.round(percentile(values, 50)), p90: Math.round(percentile(values, 90)) })
  const result = {
    date: new Date().toISOString(),
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
    method: 'spawn to the first 200 on GET /healthz, existing data folder, the two builds alternating',
    runs: Number(runsText),
    beforeMs: summary(times.before),
    afterMs: summary(times.after),
    ratioAfterToBeforeP50: Math.round((percentile(times.after, 50) / percentile(times.before, 50)) * 1000) / 1000,
  }
  console.log(JSON.stringify(result, null, 2))
  if (out) writeFileSync(out, JSON.stringify(result, null, 2) + '\n')
} finally {
  rmSync(workDir, { recursive: true, force: true })
}
