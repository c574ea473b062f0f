/**
 * Frame times of the jobs monitor while the operator scrolls and the queue drains (issue 13,
 * item 8: p95 under 20 ms, no frame over 50 ms, at 5,000 jobs). `voicedesk serve` runs on a
 * temporary data folder seeded through the store with 5,000 jobs, PENDING_JOBS of them pending
 * TTS jobs the service runs while the page is measured (each sends job.changed events, which
 * refresh the list). Debian chromium (playwright-core, as the e2e tests drive it) opens the
 * monitor and scrolls the job list with mouse-wheel events, down and up, for SCROLL_SECONDS; the
 * page records the time between animation frames (requestAnimationFrame) and long tasks
 * (PerformanceObserver). Run alone: `npx tsx bench/run.ts ui-scroll` (after `npm run build`).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { createRuntime } from '../src/service/runtime'
import { seedJob } from '../test/helpers/seed-jobs'
import { percentile } from './jobs'
import { freePort, stopChild, waitForLine } from './processes'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(ROOT, 'out/main/cli.js')
const CHROMIUM = process.env.VOICEDESK_CHROMIUM ?? '/usr/bin/chromium'
const JOBS = 5_000
const PENDING_JOBS = Number(process.env.BENCH_UI_PENDING ?? 1_500)
/**
 * The pending jobs fall due one after another over this span from the end of seeding (their
 * run_after, as jobs waiting for a retry have), so the queue drains at a steady ~25 jobs a
 * second through the measurement instead of all at once while the page loads (TTS runs a
 * short sentence in a few milliseconds).
 */
const DRAIN_SPAN_MS = 60_000
const SCROLL_SECONDS = Number(process.env.BENCH_UI_SECONDS ?? 8)
/** Chromium's CPU slowdown (DevTools' throttling): 1 is this machine; 4 shows the headroom a slower machine would leave. */
const CPU_THROTTLE = Number(process.env.BENCH_UI_CPU_THROTTLE ?? 1)
const AVA = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'
const KEY = 'vd_bench_ui_key_0123456789abcdef0123'

/** What the page keeps: every frame's distance from the previous one, and every long task. */
interface FrameRecord {
  frames: number[]
  longTasks: number[]
}

/** Seeds the data folder through the store (in one transaction, as bench/jobs.ts does): finished jobs of every kind, the newest PENDING. */
async function seed(dataDir: string): Promise<void> {
  const runtime = await createRuntime({ dataDir, fixedApiKey: KEY })
  try {
    const apiKeyId = (await runtime.store.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id
    const base = Date.now() - JOBS * 60_000
    const due = Date.now() + 5_000
    const types = ['TRANSCRIPTION', 'TRANSLATION', 'TTS', 'AI_CONTENT'] as const
    await runtime.store.transaction(async (tx) => {
      for (let index = 0; index < JOBS; index += 1) {
        const at = new Date(base + index * 60_000).toISOString()
        const pending = index >= JOBS - PENDING_JOBS
        await seedJob(
          runtime,
          pending
            ? {
                apiKeyId,
                type: 'TTS',
                status: 'PENDING',
                title: `Queued greeting ${index}`,
                text: 'Thank you for calling, how can I help?',
                voiceId: AVA,
                runAfter: due + Math.round(((index - (JOBS - PENDING_JOBS)) * DRAIN_SPAN_MS) / PENDING_JOBS),
                createdAt: at,
                updatedAt: at,
              }
            : {
                apiKeyId,
                type: types[index % 4]!,
                status: index % 9 === 0 ? 'FAILED' : 'COMPLETED',
                title: `Customer call ${index} about ${['billing', 'a refund', 'a booking', 'delivery'][index % 4]}`,
                totalCost: 1 + (index % 7),
                createdAt: at,
                updatedAt: at,
              },
          tx,
        )
      }
    })
  } finally {
    await runtime.stop()
  }
}

export async function benchUiScroll(): Promise<Record<string, unknown>> {
  if (!existsSync(CLI) || !existsSync(join(ROOT, 'out/renderer/index.html'))) throw new Error('out/ is missing: run "npm run build" first')
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-ui-'))
  try {
    await seed(dataDir)
    const port = await freePort()
    const service = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--data-dir', dataDir], {
      env: { ...process.env, VOICEDESK_API_KEY: KEY },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    })
    try {
      const [, appUrl] = await waitForLine(service, /Operator UI: (\S+)/)
      const page = await browser.newPage({ viewport: { width: 1360, height: 860 } })
      if (CPU_THROTTLE !== 1)
        await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLE })
      await page.goto(appUrl!)
      await page.locator('nav .nav-item').nth(3).click()
      await page.locator('.jobs-scroll [data-index="0"][role="row"]:not(.loading)').waitFor({ timeout: 60_000 })
      const unfinishedAtStart = await unfinishedJobs(appUrl!)
      // A string, not a function: tsx would wrap a function's inner names in a helper the page does not have.
      await page.evaluate(`(() => {
        const record = { frames: [], longTasks: [] }
        globalThis.__frames = record
        let last = 0
        const tick = (time) => {
          if (last) record.frames.push(time - last)
          last = time
          requestAnimationFrame(tick)
        }
        requestAnimationFrame(tick)
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) record.longTasks.push(entry.duration)
        }).observe({ type: 'longtask' })
      })()`)
      // Wheel over the table: down for most of the time, then back up, a notch every ~30 ms.
      // BENCH_UI_PROFILE=<file>: a CPU profile of the page while it scrolls (open it in Chromium's DevTools), to find what a slow frame did.
      const profiler = process.env.BENCH_UI_PROFILE ? await page.context().newCDPSession(page) : undefined
      if (profiler) {
        await profiler.send('Profiler.enable')
        await profiler.send('Profiler.start')
      }
      const box = (await page.locator('.jobs-scroll').boundingBox())!
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
      const started = performance.now()
      let notches = 0
      while (performance.now() - started < SCROLL_SECONDS * 1000) {
        const elapsed = (performance.now() - started) / (SCROLL_SECONDS * 1000)
        await page.mouse.wheel(0, elapsed < 0.7 ? 120 : -200)
        notches += 1
        await new Promise((resolve) => setTimeout(resolve, 30))
      }
      if (profiler) writeFileSync(process.env.BENCH_UI_PROFILE!, JSON.stringify((await profiler.send('Profiler.stop')).profile))
      const record = await page.evaluate(() => (globalThis as unknown as { __frames: FrameRecord }).__frames)
      const scrolledTo = await page.locator('.jobs-scroll').evaluate((element) => (element as unknown as { scrollTop: number }).scrollTop)
      const unfinishedAtEnd = await unfinishedJobs(appUrl!)
      const frames = record.frames
      return {
        method: `voicedesk serve with ${JOBS} jobs (${PENDING_JOBS} pending TTS jobs falling due over ${DRAIN_SPAN_MS / 1000} s, draining), Debian chromium headless 1360x860, the monitor's job list scrolled by ${notches} mouse-wheel notches over ${SCROLL_SECONDS} s; requestAnimationFrame deltas and long tasks recorded in the page`,
        jobs: JOBS,
        cpuThrottle: CPU_THROTTLE,
        unfinishedJobs: { atStart: unfinishedAtStart, atEnd: unfinishedAtEnd },
        jobsDrainedWhileScrolling: unfinishedAtStart - unfinishedAtEnd,
        frames: frames.length,
        frameMs: { p50: percentile(frames, 50), p95: percentile(frames, 95), max: percentile(frames, 100) },
        framesOver50Ms: frames.filter((frame) => frame > 50).length,
        longTasks: { count: record.longTasks.length, maxMs: record.longTasks.length ? Math.round(Math.max(...record.longTasks)) : 0 },
        scrollTopAtEnd: Math.round(scrolledTo),
        target: 'p95 under 20 ms, max under 50 ms',
      }
    } finally {
      await browser.close()
      await stopChild(service)
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Jobs running and waiting, as the operator UI reads them (service.info over browser mode's /ipc, with the UI's token). */
async function unfinishedJobs(appUrl: string): Promise<number> {
  const url = new URL(appUrl)
  const token = new URLSearchParams(url.hash.slice(1)).get('token')!
  const response = await fetch(`${url.origin}/ipc/service.info`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  })
  const result = (await response.json()) as { ok: true; data: { runningJobs: number; pendingJobs: number } }
  return result.data.runningJobs + result.data.pendingJobs
}
