import BetterSqlite3 from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

const KEY = 'vd_crash_test_key_0123456789abcdef'
const VOICE = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'
const SENTENCE = 'The quarterly report shows steady growth in every region, and the support team answered most calls within a minute. '

describe('a crash with jobs in flight', () => {
  it('finishes every job after a SIGKILL and a restart', { timeout: 120_000 }, async () => {
    const dataDir = makeTempDir()
    const env = { VOICEDESK_API_KEY: KEY }
    const first = await startServe(dataDir, ['--port', '0'], { env })
    const headers = { authorization: `Token ${KEY}`, 'content-type': 'application/json' }
    const ids: string[] = []
    for (let index = 0; index < 6; index += 1) {
      const response = await fetch(`${first.url}/v1/jobs/text-to-speech`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ voiceId: VOICE, text: `Report ${index}. ${SENTENCE.repeat(10)}` }),
      })
      expect(response.status).toBe(200)
      ids.push(((await response.json()) as { data: { id: string } }).data.id)
    }
    first.cli.child.kill('SIGKILL')
    await first.cli.waitForExit(10_000)

    // The kill left work behind: jobs still PENDING, some of them leased to the dead process.
    const db = new BetterSqlite3(join(dataDir, 'voicedesk.db'), { readonly: true })
    const left = db.prepare("SELECT id, lease_owner FROM jobs WHERE status = 'PENDING'").all() as {
      id: string
      lease_owner: string | null
    }[]
    db.close()
    expect(left.length).toBeGreaterThan(0)
    expect(left.some((job) => job.lease_owner !== null)).toBe(true)

    const second = await startServe(dataDir, ['--port', '0'], { env })
    const deadline = Date.now() + 90_000
    const statuses = new Map<string, string>()
    while (Date.now() < deadline) {
      for (const id of ids) {
        const response = await fetch(`${second.url}/v1/jobs?jobId=${id}`, { headers })
        statuses.set(id, ((await response.json()) as { data: { status: string } }).data.status)
      }
      if ([...statuses.values()].every((status) => status !== 'PENDING')) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect([...statuses.values()]).toEqual(ids.map(() => 'COMPLETED'))
    for (const id of ids) {
      const job = ((await (await fetch(`${second.url}/v1/jobs?jobId=${id}`, { headers })).json()) as { data: { mediaUrl: string } }).data
      const media = await fetch(job.mediaUrl)
      expect(media.status).toBe(200)
      expect(Buffer.from(await media.arrayBuffer()).toString('ascii', 0, 4)).toBe('RIFF')
    }
    second.cli.child.kill('SIGTERM')
    await second.cli.waitForExit(15_000)
  })
})
