/**
 * Team mode: two VoiceDesk processes on one PostgreSQL database (a real cluster, started for
 * the run by postgres-global-setup.ts). Every job runs exactly once, every webhook is
 * delivered at least once with one webhook-id, any instance answers for any job and serves
 * its media, and when one instance is SIGKILLed mid-job the other finishes its work.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { hashApiKey } from '../../src/service/ops/api-keys'
import { createTestDatabase } from '../helpers/test-engine'
import { startWebhookReceiver } from '../helpers/webhook-receiver'
import { ROOT } from '../helpers/spawn-cli'

const KEY = 'vd_team_test_key_0123456789abcdef'
const AVA = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'
/** Enough for both instances to contend for the queue throughout (2,000 repeated it at 3 times the cost). */
const JOBS = 600

/** What the tests read of an answer: a job (or the job just queued). */
interface Answer {
  data: { id: string; status: string; jobResponse: { ttsMediaFile?: string } | null }
}

interface Instance {
  child: ChildProcess
  url: string
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Answer }>
}

const children: ChildProcess[] = []
afterEach(async () => {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve()
          child.once('exit', () => resolve())
          child.kill('SIGKILL')
        }),
    ),
  )
})

async function startInstance(databaseUrl: string, secretKey: string, env: Record<string, string> = {}): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/team/fixtures/team-instance.ts')], {
    cwd: ROOT,
    env: { ...process.env, TEAM_DATABASE_URL: databaseUrl, TEAM_SECRET_KEY: secretKey, TEAM_API_KEY: KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let output = ''
  let errors = ''
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 60 s: ${output}${errors}`)), 60_000)
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (\S+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}${errors}`)))
  })
  return {
    child,
    url,
    call: async (method, path, body) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Token ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Answer }
    },
  }
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function withDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

describe('two instances on one PostgreSQL database', () => {
  it('run 600 jobs exactly once between them, deliver webhooks with one webhook-id each, and answer for each other’s jobs', async () => {
    const databaseUrl = await createTestDatabase()
    const secretKey = randomBytes(32).toString('base64')
    const receiver = await startWebhookReceiver()
    const a = await startInstance(databaseUrl, secretKey)
    const b = await startInstance(databaseUrl, secretKey)

    // A finished source job for the AI-content jobs (cheap, offline work: the test is about sharing it).
    const source = await a.call('POST', '/v1/jobs/text-to-speech', {
      voiceId: AVA,
      text: 'The customer asked for a refund of the blue kettle and a new one.',
    })
    expect(source.status).toBe(200)
    const sourceId = source.json.data.id
    await waitFor(
      'the source job',
      async () => (await b.call('GET', `/v1/jobs?jobId=${sourceId}`)).json.data.status,
      (status) => status === 'COMPLETED',
    )

    // 600 jobs, queued half through each instance, 50 at a time: both instances' job loops
    // claim from the same queue all along (a double claim would count a second attempt).
    const ids: string[] = []
    for (let batch = 0; batch < JOBS / 50; batch += 1) {
      const queued = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          (index % 2 === 0 ? a : b).call('POST', `/v1/jobs/ai-content?jobId=${sourceId}`, { aiParts: ['summary'] }),
        ),
      )
      for (const response of queued) {
        expect(response.status).toBe(200)
        ids.push(response.json.data.id)
      }
    }
    expect(new Set(ids).size).toBe(JOBS)

    const rows = await waitFor(
      `all ${JOBS} jobs`,
      () =>
        withDatabase(
          databaseUrl,
          async (client) =>
            (
              await client.query(
                `SELECT status, attempts, count(*)::int AS jobs FROM jobs WHERE type = 'AI_CONTENT' GROUP BY status, attempts`,
              )
            ).rows,
        ),
      (groups: { status: string; jobs: number }[]) => groups.length === 1 && groups[0]!.status === 'COMPLETED' && groups[0]!.jobs === JOBS,
    )
    // Exactly once: every job was claimed once (a claim counts an attempt) and ended COMPLETED.
    expect(rows).toEqual([{ status: 'COMPLETED', attempts: 1, jobs: JOBS }])

    // Webhooks: at least once, with one webhook-id per job, whichever instance ran the job and sent it.
    const spoken: string[] = []
    for (let index = 0; index < 40; index += 1) {
      const queued = await (index % 2 === 0 ? a : b).call('POST', '/v1/jobs/text-to-speech', {
        voiceId: AVA,
        text: `Order ${index} has shipped.`,
        webhookUrl: `${receiver.url}/hook`,
      })
      expect(queued.status).toBe(200)
      spoken.push(queued.json.data.id)
    }
    await waitFor(
      '40 webhooks',
      async () => new Set(receiver.requests.map((request) => JSON.parse(request.body).data.id)).size,
      (count) => count === 40,
    )
    expect(new Set(receiver.requests.map((request) => JSON.parse(request.body).data.id))).toEqual(new Set(spoken))
    const idsPerJob = new Map<string, Set<string>>()
    for (const request of receiver.requests) {
      const jobId = JSON.parse(request.body).data.id as string
      if (!idsPerJob.has(jobId)) idsPerJob.set(jobId, new Set())
      idsPerJob.get(jobId)!.add(String(request.headers['webhook-id']))
    }
    expect([...idsPerJob.values()].every((webhookIds) => webhookIds.size === 1)).toBe(true)

    // Any instance answers for any job: read through the instance that did not queue it.
    for (const [index, id] of ids.slice(0, 20).entries()) {
      const read = await (index % 2 === 0 ? b : a).call('GET', `/v1/jobs?jobId=${id}`)
      expect(read.json.data).toMatchObject({ id, status: 'COMPLETED' })
    }
  }, 300_000)

  it('finishes the work of an instance that was SIGKILLed mid-job once its leases run out, and serves its media', async () => {
    const databaseUrl = await createTestDatabase()
    const secretKey = randomBytes(32).toString('base64')
    // Short leases (4 s try + 0.5 s), so the dead instance's jobs come back within the test.
    const leases = { TEAM_JOB_TIMEOUT_MS: '4000', TEAM_LEASE_MARGIN_MS: '500' }
    const a = await startInstance(databaseUrl, secretKey, leases)
    const b = await startInstance(databaseUrl, secretKey, leases)
    const ids: string[] = []
    for (let index = 0; index < 12; index += 1) {
      const queued = await a.call('POST', '/v1/jobs/text-to-speech', {
        voiceId: AVA,
        text: `Order ${index} has shipped. It arrives tomorrow between nine and twelve.`,
      })
      ids.push(queued.json.data.id)
    }
    const ownerOfA = `%:${a.child.pid}:%`
    const heldByA = await waitFor(
      'jobs leased by A',
      () =>
        withDatabase(databaseUrl, async (client) =>
          (await client.query(`SELECT id FROM jobs WHERE status = 'PENDING' AND lease_owner LIKE $1`, [ownerOfA])).rows.map(
            (row: { id: string }) => row.id,
          ),
        ),
      (held) => held.length > 0,
      30_000,
    )
    a.child.kill('SIGKILL')
    await new Promise((resolve) => a.child.once('exit', resolve))

    for (const id of ids) {
      const job = await waitFor(
        `job ${id}`,
        async () => (await b.call('GET', `/v1/jobs?jobId=${id}`)).json.data,
        (data: { status: string }) => data.status !== 'PENDING',
      )
      expect(job.status).toBe('COMPLETED')
    }
    // What A held when it died was claimed again (a second attempt) by B once the leases ran out.
    const attempts = await withDatabase(
      databaseUrl,
      async (client) => (await client.query('SELECT attempts FROM jobs WHERE id = ANY($1)', [heldByA])).rows,
    )
    expect(attempts.every((row: { attempts: number }) => row.attempts >= 2)).toBe(true)
    // The audio is in the database: B serves it, whoever made it.
    const first = await b.call('GET', `/v1/jobs?jobId=${heldByA[0]}`)
    const media = await fetch(first.json.data.jobResponse!.ttsMediaFile as string, { headers: { range: 'bytes=0-11' } })
    expect(media.status).toBe(206)
    const head = Buffer.from(await media.arrayBuffer())
    expect(head.subarray(0, 4).toString('latin1')).toBe('RIFF')
    expect(head.subarray(8, 12).toString('latin1')).toBe('WAVE')
  }, 300_000)
})

describe('a key revoked by another process (team mode)', () => {
  it('stops working on an instance that had it cached within a second (the commit notification), and stays refused', async () => {
    const databaseUrl = await createTestDatabase()
    const instance = await startInstance(databaseUrl, randomBytes(32).toString('base64'))
    // Many requests at once, so the key is answered from the instance's cache when it is revoked.
    const before = await Promise.all(Array.from({ length: 20 }, () => instance.call('GET', '/v1/voices')))
    expect(before.map((answer) => answer.status)).toEqual(Array(20).fill(200))
    // As `voicedesk keys revoke` on another machine would: a write on the shared database, not through this instance.
    await withDatabase(databaseUrl, (client) =>
      client.query('UPDATE api_keys SET revoked_at = now() WHERE key_hash = $1', [hashApiKey(KEY)]),
    )
    const revokedAt = Date.now()
    await waitFor(
      'the revoked key refused',
      async () => (await instance.call('GET', '/v1/voices')).status,
      (status) => status === 401,
      1_000,
    )
    expect(Date.now() - revokedAt).toBeLessThan(1_000)
    const after = await Promise.all(Array.from({ length: 20 }, () => instance.call('GET', '/v1/voices')))
    expect(after.map((answer) => answer.status)).toEqual(Array(20).fill(401))
  }, 120_000)
})
