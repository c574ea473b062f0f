/**
 * A real `voicedesk serve` whose data folder sits on a small tmpfs that the test fills up.
 * Needs mount(8) with the right to mount (root here); without it the tests are skipped,
 * and the reason is printed.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fillDisk, mountProblem, smallDisk, unmountSmallDisks } from '../helpers/small-disk'
import { killChildren, startServe, type RunningServe } from '../helpers/spawn-cli'

const KEY = 'vd_disk_full_test_key_0123456789abcdef'
const VOICE = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'
const SENTENCE = 'The quarterly report shows steady growth in every region, and the support team answered most calls within a minute. '
const headers = { authorization: `Token ${KEY}`, 'content-type': 'application/json' }
const env = { VOICEDESK_API_KEY: KEY }

const problem = mountProblem()
if (problem) console.warn(`disk-full tests skipped: ${problem}`)

const services: RunningServe[] = []
afterEach(async () => {
  // The processes first: a tmpfs with open files cannot be unmounted.
  for (const service of services.splice(0)) {
    if (service.cli.child.exitCode === null && service.cli.child.signalCode === null) {
      service.cli.child.kill('SIGKILL')
      await service.cli.waitForExit(10_000)
    }
  }
  // Also a child whose start timed out before it was listed: left alive, it would keep the disk mounted.
  await killChildren()
  unmountSmallDisks()
})

async function serve(dataDir: string): Promise<RunningServe> {
  const service = await startServe(dataDir, ['--port', '0', '--log-level', 'warn'], { env })
  services.push(service)
  return service
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function createTtsJob(url: string, text: string): Promise<Response> {
  return fetch(`${url}/v1/jobs/text-to-speech`, { method: 'POST', headers, body: JSON.stringify({ voiceId: VOICE, text }) })
}

async function statusOf(url: string, id: string): Promise<string> {
  const response = await fetch(`${url}/v1/jobs?jobId=${id}`, { headers })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: { status: string } }).data.status
}

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, 'g'))?.length ?? 0
const partialsIn = (mediaDir: string) => (existsSync(mediaDir) ? readdirSync(mediaDir).filter((name) => name.endsWith('.partial')) : [])

describe.skipIf(problem !== undefined)('a full disk', () => {
  it(
    'keeps serving reads, answers writes 507, keeps jobs pending and finishes them once space is freed',
    { timeout: 240_000 },
    async () => {
      const disk = smallDisk(64)
      const dataDir = join(disk, 'data')
      const service = await serve(dataDir)
      const ids: string[] = []
      for (let index = 0; index < 8; index += 1) {
        const response = await createTtsJob(service.url, `Report ${index}. ${SENTENCE.repeat(10)}`)
        expect(response.status).toBe(200)
        ids.push(((await response.json()) as { data: { id: string } }).data.id)
      }
      const filler = join(disk, 'filler.bin')
      fillDisk(filler)

      await until('the disk-full line', 60_000, () => (/disk full:/.test(service.cli.stderr()) ? true : undefined))
      expect(service.cli.child.exitCode).toBeNull()
      // Every job is still there, unfinished ones PENDING (leased or waiting): none FAILED, none lost.
      const statuses = await Promise.all(ids.map((id) => statusOf(service.url, id)))
      expect(statuses.filter((status) => status !== 'PENDING' && status !== 'COMPLETED')).toEqual([])
      expect(statuses).toContain('PENDING')
      expect((await fetch(`${service.url}/v1/voice-agents/templates`, { headers })).status).toBe(200)

      const refused = await createTtsJob(service.url, 'One more, please.')
      expect(refused.status).toBe(507)
      expect(await refused.json()).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_STORAGE', details: [] } })

      // Jobs that were speaking when the disk filled fail their write and remove what they wrote.
      await until('no partial media file', 30_000, () => (partialsIn(join(dataDir, 'media')).length === 0 ? true : undefined))
      expect(count(service.cli.stderr(), /disk full:/)).toBe(1)
      // What the guard logs for a rejection nobody handled (not the bundle's chunk name, which stack traces carry).
      expect(service.cli.stderr()).not.toMatch(/unhandled promise rejection/i)

      rmSync(filler)
      await until('every job COMPLETED', 150_000, async () => {
        const now = await Promise.all(ids.map((id) => statusOf(service.url, id)))
        expect(now).not.toContain('FAILED')
        return now.every((status) => status === 'COMPLETED') ? true : undefined
      })
      expect(count(service.cli.stderr(), /disk full:/)).toBe(1)
      expect(count(service.cli.stderr(), /disk full no more/)).toBe(1)
      expect((await createTtsJob(service.url, 'There is room again.')).status).toBe(200)
      expect(partialsIn(join(dataDir, 'media'))).toEqual([])
      expect(service.cli.child.exitCode).toBeNull()
    },
  )

  it('starts again on a disk that is still full, serving reads, and removes leftover partial media', { timeout: 120_000 }, async () => {
    const disk = smallDisk(16)
    const dataDir = join(disk, 'data')
    const first = await serve(dataDir)
    const created = await fetch(`${first.url}/v1/voice-agents`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ agentName: 'Still here' }),
    })
    const agentId = ((await created.json()) as { data: { id: string } }).data.id
    const job = await createTtsJob(first.url, 'A short greeting.')
    const jobId = ((await job.json()) as { data: { id: string } }).data.id
    await until('the job to complete', 60_000, async () => ((await statusOf(first.url, jobId)) === 'COMPLETED' ? true : undefined))
    writeFileSync(join(dataDir, 'media', 'left-by-a-crash.wav.partial'), Buffer.alloc(64 * 1024))
    first.cli.child.kill('SIGKILL') // as a crash on the full disk would end it
    await first.cli.waitForExit(10_000)
    fillDisk(join(disk, 'filler.bin'))

    const second = await serve(dataDir)
    expect((await fetch(`${second.url}/v1/voice-agents/${agentId}`, { headers })).status).toBe(200)
    expect(await statusOf(second.url, jobId)).toBe('COMPLETED')
    expect(partialsIn(join(dataDir, 'media'))).toEqual([])
    // A write either still fits (SQLite may reuse space it holds) or is refused in the envelope: never a 500.
    const write = await fetch(`${second.url}/v1/voice-agents`, { method: 'POST', headers, body: JSON.stringify({ agentName: 'Maybe' }) })
    expect([200, 507]).toContain(write.status)
    expect(second.cli.child.exitCode).toBeNull()
  })
})
