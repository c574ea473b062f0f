/**
 * Property-based fuzzing of the job write endpoints (POST /v1/jobs/text-to-speech,
 * /v1/jobs/ai-content?jobId=, /v1/jobs/all?projectId=) with random and malformed bodies.
 *
 * For every request, whatever it carries:
 *  (a) the answer is never a 5xx;
 *  (b) every non-2xx answer is exactly the contract's error envelope, with a code that matches
 *      the status (400 VALIDATION_ERROR or INVALID_JSON, 403 FORBIDDEN, 404 NOT_FOUND,
 *      409 CONFLICT, 413 PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE);
 *  (c) an error answer leaves every row of `jobs` and `job_counts` exactly as it was.
 * Accepted answers are checked too: a write adds exactly one PENDING job (the one answered, as
 * sent) and nothing else; a list changes nothing and answers a consistent page. Many generated
 * cases also know their status (a valid body on the valid source is 200, a 5,001-character text
 * is 400, ...), so the validators cannot pass by refusing everything.
 *
 * Each test starts its own service with `jobs: { concurrency: 0 }`: the job runner never takes a
 * job, so accepted jobs stay PENDING and the stored data changes only through the request under
 * test (no runner writing COMPLETED or FAILED between the two snapshots). Accepted jobs are then
 * deleted again, so the per-request snapshot stays small. fast-check prints the seed of any failure.
 */
import type { LightMyRequestResponse } from 'fastify'
import fc from 'fast-check'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { BODY_LIMIT_BYTES } from '../../../src/service/http/build-app'
import { AI_PARTS } from '../../../src/shared/api/ai-parts'
import type { ErrorCode } from '../../../src/shared/api/errors'
import {
  AiContentJobEnvelopeSchema,
  JOB_STATUSES,
  JOB_TYPES,
  JobListEnvelopeSchema,
  SORT_FIELDS,
  TtsJobEnvelopeSchema,
  type JobListItem,
} from '../../../src/shared/api/jobs'
import { VOICE_IDS } from '../../../src/shared/voices'
import { searchWords, type JobRecord } from '../../../src/store/records'
import {
  accepted,
  bodyCases,
  expectErrorEnvelope,
  isBodyError,
  lengthAround,
  nonBlank,
  oddString,
  parserSafe,
  refused,
  wrongValue,
  type BodyCase,
  type BodySpec,
  type Expected,
} from '../../helpers/fuzz-arbitraries'
import { seedJob } from '../../helpers/seed-jobs'
import { startTestService, type TestService, sqliteDatabaseOf } from '../../helpers/test-service'
import { onPostgres } from '../../helpers/test-engine'

/** Runs per property: about 2,800 requests in all, some 10 s on 2 cores (app.inject, no socket). */
const RUNS = { tts: 900, aiContent: 800, listShared: 700, listAlone: 350, sizeLimit: 16 }
/** Every test here runs hundreds of requests: give it room beyond the 30 s default. */
const TEST_TIMEOUT_MS = 120_000

/** The only error answers these endpoints may give, and the codes each status may carry. */
const CODES_BY_STATUS: Record<number, readonly ErrorCode[]> = {
  400: ['VALIDATION_ERROR', 'INVALID_JSON'],
  403: ['FORBIDDEN'],
  404: ['NOT_FOUND'],
  409: ['CONFLICT'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
}

const TTS_URL = '/v1/jobs/text-to-speech'

// ---------------------------------------------------------------------------------------------
// Fixture: a service that runs no job, and seeded jobs to write from and to list
// ---------------------------------------------------------------------------------------------

interface Fixture {
  service: TestService
  projectId: string
  /** A second project: its id is a 403 for jobs/all, its job a 404 for ai-content. */
  otherProjectId: string
  /** COMPLETED jobs with text (TRANSCRIPTION first, then TRANSLATION and TTS): valid AI-content sources. */
  sources: JobRecord[]
  /** FAILED, PENDING, AI_CONTENT and text-less jobs of the project: AI content from them is a 409. */
  conflictSources: JobRecord[]
  /** A COMPLETED transcription of the other project: a 404 from this key. */
  foreignSource?: JobRecord
  /** Every job of the caller's project. */
  seeded: JobRecord[]
}

/** Titles and texts for lists and searches: accents, Arabic, emoji, FTS5 words and punctuation. */
const LIST_SEEDS: { title: string; text: string | null }[] = [
  { title: 'Refund request', text: 'The customer asks for a refund of order 42.' },
  { title: 'Réfund follow-up', text: 'Café owner called again about the réfund.' },
  { title: 'طلب استرداد', text: 'يطلب العميل استرداد المبلغ للطلب رقم ٤٢' },
  { title: 'Order #42 — shipping', text: 'Where is my parcel? It shipped on Monday.' },
  { title: 'NEAR the AND OR NOT', text: 'Words FTS5 would read as operators: NEAR AND OR NOT.' },
  { title: '"Quoted" title: colon', text: 'title: text: scope: {title text}: "quote" * ^ -' },
  { title: 'Emoji 😀 call', text: 'Thanks 🙏 see you soon 👋' },
  { title: 'Refund request', text: 'Same title as another job, so title order ties.' },
  { title: 'مرحبا بكم', text: 'مرحبا بكم في خدمة العملاء، كيف يمكننا مساعدتكم اليوم؟' },
  { title: 'a', text: 'x y z' },
  { title: 'Booking for Dr. Müller', text: 'Appointment on Tuesday at 10:30, Straße 5.' },
  { title: 'Survey', text: null },
]

async function startFixture(options: { otherProjectHasJobs: boolean }): Promise<Fixture> {
  const service = await startTestService({ jobs: { concurrency: 0 } })
  const runtime = service.runtime
  const projectId = runtime.bootstrap.projectId
  const base = Date.parse('2025-01-01T00:00:00.000Z')
  let tick = 0
  const at = () => new Date(base + 1000 * tick++).toISOString()

  const transcription = await seedJob(runtime, {
    title: 'Support call',
    text: 'Hello, thanks for calling. I would like a refund for my order.',
    createdAt: at(),
  })
  const translation = await seedJob(runtime, {
    type: 'TRANSLATION',
    title: 'Translated call',
    text: 'مرحبا، شكرا لاتصالك.',
    toLng: 'ar',
    createdAt: at(),
  })
  const tts = await seedJob(runtime, {
    type: 'TTS',
    title: 'Welcome message',
    text: 'Welcome to VoiceDesk.',
    voiceId: VOICE_IDS[0],
    model: 'espeak-ng',
    systemModelKey: 'tts-espeak-ng',
    mediaFile: 'seededwelcomeaudio00000000000000.wav',
    usageSeconds: 1.5,
    totalCost: 1,
    createdAt: at(),
  })
  const failed = await seedJob(runtime, {
    status: 'FAILED',
    title: 'Failed call',
    errorCode: 'TIMEOUT',
    errorMessage: 'The last try ran out of time',
    createdAt: at(),
  })
  const pending = await seedJob(runtime, { status: 'PENDING', title: 'Pending call', jobResponse: null, attempts: 0, createdAt: at() })
  const aiContent = await seedJob(runtime, {
    type: 'AI_CONTENT',
    title: 'AI content: Support call',
    text: null,
    aiParts: ['summary'],
    jobResponse: { summary: 'A refund.', transcriptionJobId: transcription.id },
    relevantJobId: transcription.id,
    model: 'voicedesk-extractive',
    systemModelKey: 'ai-content-offline',
    totalCost: 2,
    createdAt: at(),
  })
  const blank = await seedJob(runtime, { title: 'Silent call', text: '   ', createdAt: at() })

  const seeded = [transcription, translation, tts, failed, pending, aiContent, blank]
  for (const [index, seed] of LIST_SEEDS.entries()) {
    seeded.push(
      await seedJob(runtime, {
        ...seed,
        type: JOB_TYPES[index % JOB_TYPES.length],
        status: JOB_STATUSES[index % JOB_STATUSES.length],
        totalCost: (index % 4) + 1,
        // Pairs of jobs share a creation time, so ties are broken by id.
        createdAt: new Date(base + 1000 * (tick + Math.floor(index / 2))).toISOString(),
        updatedAt: new Date(base + 1000 * (tick + 20 - (index % 5))).toISOString(),
      }),
    )
  }

  const other = await service.otherProject()
  let foreignSource: JobRecord | undefined
  if (options.otherProjectHasJobs) {
    foreignSource = await seedJob(runtime, {
      projectId: other.projectId,
      apiKeyId: (await runtime.store.accounts.listKeys(other.projectId))[0]!.id,
      title: 'Other project call',
      text: 'Refund request from another project.',
    })
  }
  return {
    service,
    projectId,
    otherProjectId: other.projectId,
    sources: [transcription, translation, tts],
    conflictSources: [failed, pending, aiContent, blank],
    foreignSource,
    seeded,
  }
}

// ---------------------------------------------------------------------------------------------
// Requests, answers and the invariants every answer must keep
// ---------------------------------------------------------------------------------------------

/** Every job endpoint here is a POST. */
interface FuzzRequest extends BodyCase {
  url: string
}

interface Snapshot {
  text: string
  jobs: Record<string, unknown>[]
  counts: Record<string, unknown>[]
}

/** What an endpoint checks on a 2xx answer: the answer itself and how the stored data changed. */
type AcceptedCheck = (request: FuzzRequest, response: LightMyRequestResponse, before: Snapshot, after: Snapshot, what: string) => void

let requestsSent = 0
/** Answers by status, so a run shows how many bodies got through to the handlers. */
const statusTally = new Map<number, number>()
afterAll(() => {
  const tally = [...statusTally].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`)
  console.info(`fuzz-job-bodies: ${requestsSent} fuzzed requests (${tally.join(', ')})`)
})

/** Every row of jobs (in insertion order) and of job_counts, as one comparable string. */
function snapshot(service: TestService): Snapshot {
  const db = sqliteDatabaseOf(service.runtime)
  const jobs = db.prepare('SELECT * FROM jobs ORDER BY seq').all() as Record<string, unknown>[]
  const counts = db.prepare('SELECT * FROM job_counts ORDER BY project_id, type, status').all() as Record<string, unknown>[]
  return { text: JSON.stringify({ jobs, counts }), jobs, counts }
}

function send(fixture: Fixture, request: FuzzRequest): Promise<LightMyRequestResponse> {
  requestsSent += 1
  if (request.withoutContentType) {
    return fixture.service.runtime.app.inject({
      method: 'POST',
      url: request.url,
      headers: { authorization: `Token ${fixture.service.key}` },
      payload: request.rawBody,
    })
  }
  return fixture.service.call('POST', request.url, { body: request.body, rawBody: request.rawBody, headers: request.headers })
}

function describeRequest(request: FuzzRequest, response: LightMyRequestResponse): string {
  const sent = request.rawBody ?? (request.body === undefined ? '' : JSON.stringify(request.body)) ?? ''
  return `POST ${request.url} ${JSON.stringify(request.headers ?? {})} body=${sent.slice(0, 300)} -> ${response.statusCode} ${response.body.slice(0, 500)}`
}

const UNPARSEABLE = Symbol('unparseable')

/**
 * The body as the service read it, when the test can tell: JSON text parsed the way JSON.parse
 * does, after the UTF-8 encoding of the request (which turns raw lone surrogates, not written as
 * escapes, into U+FFFD before the service sees them).
 */
function sentBody(request: FuzzRequest): unknown {
  try {
    if (request.rawBody !== undefined) {
      const received = Buffer.from(request.rawBody, 'utf8').toString('utf8')
      return received.trim() === '' ? undefined : JSON.parse(received)
    }
    return request.body === undefined ? undefined : JSON.parse(JSON.stringify(request.body))
  } catch {
    return UNPARSEABLE
  }
}

/** Sends one case and checks (a), (b), (c), what the case expects, and accepted answers. */
async function sendAndCheck(fixture: Fixture, request: FuzzRequest, onAccepted: AcceptedCheck): Promise<LightMyRequestResponse> {
  const before = snapshot(fixture.service)
  const response = await send(fixture, request)
  const what = describeRequest(request, response)
  const status = response.statusCode
  statusTally.set(status, (statusTally.get(status) ?? 0) + 1)

  expect(status, what).toBeLessThan(500)
  if (request.expected) expect(request.expected.statuses, what).toContain(status)

  if (status >= 200 && status < 300) {
    expect(status, what).toBe(200)
    expect(response.json(), what).toMatchObject({ success: true, message: 'Success' })
    onAccepted(request, response, before, snapshot(fixture.service), what)
    return response
  }

  expectErrorEnvelope(response, CODES_BY_STATUS, what, request.expected?.code)

  const after = snapshot(fixture.service)
  if (after.text !== before.text) expect(after, `stored data changed on an error answer: ${what}`).toEqual(before)
  return response
}

async function fuzz(fixture: Fixture, requests: fc.Arbitrary<FuzzRequest>, numRuns: number, onAccepted: AcceptedCheck) {
  await fc.assert(
    fc.asyncProperty(requests, async (request) => {
      await sendAndCheck(fixture, request, onAccepted)
    }),
    { numRuns },
  )
}

/**
 * A 2xx write must add exactly one job, the one it answered, PENDING, after every row there was
 * (which stays untouched), and count it once in job_counts. It is then deleted again (the runner
 * never runs, so nothing else refers to it) to keep the snapshots small.
 */
function expectOneNewPendingJob(
  fixture: Fixture,
  jobId: string,
  type: string,
  before: Snapshot,
  after: Snapshot,
  what: string,
): Record<string, unknown> {
  expect(after.jobs.length, `an accepted write adds one job: ${what}`).toBe(before.jobs.length + 1)
  expect(JSON.stringify(after.jobs.slice(0, -1)), `an accepted write changes no other job: ${what}`).toBe(JSON.stringify(before.jobs))
  const row = after.jobs.at(-1)!
  expect(row, what).toMatchObject({ id: jobId, project_id: fixture.projectId, type, status: 'PENDING', attempts: 0, lease_owner: null })
  const countOf = (snapshot: Snapshot) =>
    Number(
      snapshot.counts.find((count) => count.project_id === fixture.projectId && count.type === type && count.status === 'PENDING')?.count ??
        0,
    )
  expect(countOf(after), what).toBe(countOf(before) + 1)
  const otherCounts = (snapshot: Snapshot) =>
    snapshot.counts.filter((count) => !(count.project_id === fixture.projectId && count.type === type && count.status === 'PENDING'))
  expect(otherCounts(after), what).toEqual(otherCounts(before))
  sqliteDatabaseOf(fixture.service.runtime).prepare('DELETE FROM jobs WHERE id = ?').run(jobId)
  return row
}

/** Characters as the contract counts them: code points. */
const characters = (text: string) => [...text].length

function checkTtsAccepted(fixture: Fixture): AcceptedCheck {
  return (request, response, before, after, what) => {
    const parsed = TtsJobEnvelopeSchema.safeParse(response.json())
    expect(parsed.error?.issues ?? [], what).toEqual([])
    const job = parsed.data!.data
    expect(job.status, what).toBe('PENDING')
    expect(job.error, what).toBeUndefined()
    expect(job.mediaUrl, what).toBe(job.jobResponse.ttsMediaFile)
    expect(job.mediaUrl, what).toMatch(/\/media\/[A-Za-z0-9_-]{32}\.wav$/)
    expect(job.totalCost, what).toBe(Math.max(1, Math.ceil(characters(job.jobResponse.text) / 100)))
    const row = expectOneNewPendingJob(fixture, job.id, 'TTS', before, after, what)
    // What is stored is what is answered: no truncation, no replacement characters.
    expect(row.text, what).toBe(job.jobResponse.text)
    expect(row.voice_id, what).toBe(job.ttsVoiceId)
    const sent = sentBody(request) as
      { voiceId: string; text: string; webhookUrl?: string; webhookAuth?: { authKey: string; authSecret: string } } | typeof UNPARSEABLE
    if (sent === UNPARSEABLE) return
    expect(job.jobResponse.text, what).toBe(sent.text)
    expect(job.ttsVoiceId, what).toBe(sent.voiceId)
    // As given, but for surrounding white space, which the URL check trims.
    expect(job.webhookUrl, what).toBe(sent.webhookUrl?.trim() ?? null)
    expect(row.webhook_url, what).toBe(job.webhookUrl)
    expect(row.webhook_auth_key, what).toBe(sent.webhookAuth?.authKey ?? null)
    // The secret is sealed at rest, never stored as sent.
    if (sent.webhookAuth) expect(row.webhook_auth_secret, what).not.toBe(sent.webhookAuth.authSecret)
    else expect(row.webhook_auth_secret, what).toBeNull()
  }
}

function checkAiContentAccepted(fixture: Fixture): AcceptedCheck {
  return (request, response, before, after, what) => {
    const parsed = AiContentJobEnvelopeSchema.safeParse(response.json())
    expect(parsed.error?.issues ?? [], what).toEqual([])
    const job = parsed.data!.data
    expect(job.status, what).toBe('PENDING')
    expect(job.jobResponse, what).toBeNull()
    // Only the valid sources can ever be written from.
    expect(
      fixture.sources.map((source) => source.id),
      what,
    ).toContain(job.relevantJobId)
    expect(request.url.toLowerCase(), what).toContain(job.relevantJobId)
    const row = expectOneNewPendingJob(fixture, job.id, 'AI_CONTENT', before, after, what)
    expect(row.relevant_job_id, what).toBe(job.relevantJobId)
    const sent = sentBody(request) as { aiParts: string[] } | typeof UNPARSEABLE
    if (sent === UNPARSEABLE) return
    expect(JSON.parse(String(row.ai_parts)), what).toEqual(sent.aiParts)
    expect(job.totalCost, what).toBe(2 * sent.aiParts.length)
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Words the list search never finds: FTS5 scope tokens, which live in no title or text. */
const scopeTokens = (fixture: Fixture) => [
  `p${fixture.projectId.replaceAll('-', '')}`,
  'scompleted',
  'spending',
  'sfailed',
  'ttts',
  'taicontent',
  'ttranscription',
]

const SORT_KEYS: Record<(typeof SORT_FIELDS)[number], (item: JobListItem) => string | number> = {
  createdAt: (item) => item.createdAt,
  updatedAt: (item) => item.updatedAt,
  title: (item) => item.title,
  status: (item) => item.status,
  type: (item) => item.type,
  cost: (item) => item.cost,
}

/** SQLite's BINARY order: UTF-8 bytes for text. */
function compareSqlite(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)))
}

interface ListBody {
  take?: number
  skip?: number
  sort?: { field?: (typeof SORT_FIELDS)[number]; direction?: string }
  search?: string
  status?: string
  type?: string
}

/** A list never writes; its page is consistent with its counts, its filters and its order. */
function checkListAccepted(fixture: Fixture): AcceptedCheck {
  return (request, response, before, after, what) => {
    expect(after.text, `a list changed stored data: ${what}`).toBe(before.text)
    const parsed = JobListEnvelopeSchema.safeParse(response.json())
    expect(parsed.error?.issues ?? [], what).toEqual([])
    const { jobs, total, filtered } = parsed.data!.data
    const projectJobs = before.jobs.filter((row) => row.project_id === fixture.projectId)
    expect(total, what).toBe(projectJobs.length)
    expect(filtered, what).toBeLessThanOrEqual(total)
    expect(filtered, what).toBeGreaterThanOrEqual(0)
    for (const item of jobs)
      expect(
        projectJobs.some((row) => row.id === item.id),
        `a listed job of another project: ${what}`,
      ).toBe(true)

    const sent = sentBody(request)
    if (sent === UNPARSEABLE) {
      expect(jobs.length, what).toBeLessThanOrEqual(100)
      return
    }
    const body: ListBody = sent ?? {}
    const take = body.take ?? 10
    const skip = body.skip ?? 1
    expect(jobs.length, what).toBeLessThanOrEqual(take)
    // A page holds what is left after the pages before it, up to take.
    expect(jobs.length, what).toBe(Math.max(0, Math.min(take, filtered - (skip - 1) * take)))
    if (body.status) for (const item of jobs) expect(item.status, what).toBe(body.status)
    if (body.type) for (const item of jobs) expect(item.type, what).toBe(body.type)

    // The order: the sort field, then createdAt, then id, all in one direction. A word search
    // sorted by createdAt comes "in the order the jobs were created" (docs/api.md): by seq, so
    // jobs created in the same millisecond keep their creation order there instead of id order.
    const field = body.sort?.field ?? 'createdAt'
    const sign = (body.sort?.direction ?? 'desc').toLowerCase() === 'asc' ? 1 : -1
    const search = body.search?.trim()
    const wordSearch = Boolean(search) && !UUID.test(search!) && searchWords(search!).length > 0
    const seqOf = (item: JobListItem) => Number(projectJobs.find((row) => row.id === item.id)!.seq)
    for (let index = 1; index < jobs.length; index++) {
      const [a, b] = [jobs[index - 1]!, jobs[index]!]
      const order =
        wordSearch && field === 'createdAt'
          ? compareSqlite(a.createdAt, b.createdAt) || seqOf(a) - seqOf(b)
          : compareSqlite(SORT_KEYS[field](a), SORT_KEYS[field](b)) || compareSqlite(a.createdAt, b.createdAt) || compareSqlite(a.id, b.id)
      expect(Math.sign(order) * sign, `out of order at ${index}: ${what}`).toBeLessThanOrEqual(0)
    }

    if (search && scopeTokens(fixture).includes(search.toLowerCase())) expect(filtered, `a scope token matched: ${what}`).toBe(0)
    // A whole job id finds that job when the filters let it through, and counts it on every page.
    const byId = fixture.seeded.find((job) => job.id === search?.toLowerCase())
    if (byId) {
      const passes = (!body.status || body.status === byId.status) && (!body.type || body.type === byId.type)
      expect(filtered, what).toBe(passes ? 1 : 0)
      if (passes && skip === 1)
        expect(
          jobs.map((item) => item.id),
          what,
        ).toEqual([byId.id])
    }
  }
}

// ---------------------------------------------------------------------------------------------
// URLs: the query of each endpoint, and what a valid body gets there
// ---------------------------------------------------------------------------------------------

interface Target {
  query: string
  /** Statuses of a valid body on this URL. */
  validBody: readonly number[]
  /** Statuses of any body on this URL (undefined: anything the invariants allow). */
  anyBody?: readonly number[]
  /** Refused before the body is read (a query parameter given twice), whatever the body. */
  refusedFirst?: Expected
}

/**
 * Puts a body on a URL. A query parameter given twice is refused before anything else. Then body
 * errors (400, 413, 415) come first: the body is read, parsed and
 * validated before the query and before the handler looks at the id. A valid body gets what the
 * URL gets; any other body gets the URL's answer or a body error.
 */
function onTarget(path: string, body: BodyCase, target: Target): FuzzRequest {
  const url = `${path}${target.query}`
  if (target.refusedFirst) return { url, ...body, expected: target.refusedFirst }
  if (isBodyError(body)) return { url, ...body }
  if (body.expected) return { url, ...body, expected: { statuses: target.validBody } }
  return { url, ...body, expected: target.anyBody ? { statuses: target.anyBody } : undefined }
}

// ---------------------------------------------------------------------------------------------
// POST /v1/jobs/text-to-speech
// ---------------------------------------------------------------------------------------------

const VALID_WEBHOOK_URLS = [
  'https://hooks.example.test/jobs',
  'http://127.0.0.1:9000/hook',
  'https://example.test/a?b=c#d',
  'HTTPS://X.TEST',
  'http://localhost',
]
/** A URL of exactly `length` characters: the limit is 2,048. */
const urlOfLength = (length: number) => {
  const head = 'https://hooks.example.test/'
  return head + 'a'.repeat(length - head.length)
}
const INVALID_WEBHOOK_URLS = [
  'ftp://example.test/hook',
  'javascript:alert(1)',
  '/relative/hook',
  'hooks/relative',
  'example.test/hook',
  'http://',
  'file:///etc/passwd',
  'mailto:ops@example.test',
  'data:text/plain,hi',
  'ws://example.test/socket',
  'https://localhost:99999',
  'http://a b/',
  '',
  urlOfLength(2049),
]

const voiceIdValue = fc.oneof(
  fc.constantFrom(...VOICE_IDS),
  fc.constantFrom(...VOICE_IDS).map((id) => id.toUpperCase()),
  fc.constantFrom(...VOICE_IDS).map((id) => ` ${id}`),
  fc.uuid(),
  fc.constantFrom('', 'Ava', 'default'),
  fc.string(),
  wrongValue,
)

/** Texts the contract accepts: 1 to 5,000 characters (code points), not only spaces. */
const validText = fc.oneof(
  { weight: 4, arbitrary: nonBlank(200) },
  {
    weight: 2,
    arbitrary: fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
      .filter((text) => text.trim().length > 0 && characters(text) <= 5_000),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'مرحبا بكم في خدمة العملاء. كيف يمكننا مساعدتك؟',
      'Hello 👋 and welcome! 😀😀',
      'e\u0301 decomposed, é composed',
      'a\u0000b (a NUL inside)',
      '  padded text  ',
      '\u202eright-to-left override',
      'Line one\nLine two\r\n\tTabbed',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(5_000), 'ب'.repeat(5_000), '😀'.repeat(5_000), 'x') },
)

const webhookAuthValue = fc.oneof(
  fc.record(
    {
      authKey: fc.oneof(fc.string(), lengthAround(200), wrongValue),
      authSecret: fc.oneof(fc.string(), lengthAround(2000), wrongValue),
      extra: fc.string(),
    },
    { requiredKeys: [] },
  ),
  fc.constant(null),
  wrongValue,
)

const validWebhookAuth = fc.record({
  authKey: fc.string({ minLength: 1, maxLength: 40 }),
  authSecret: fc.string({ minLength: 1, maxLength: 80 }),
})

const ttsSpec: BodySpec = {
  fields: {
    voiceId: voiceIdValue,
    text: fc.oneof(
      validText,
      fc.constantFrom('', ' ', '\t\n', '\u00a0\u2003', '\u3000'),
      lengthAround(5_000),
      lengthAround(5_000, 'ب'),
      lengthAround(5_000, '😀'),
      fc.string({ unit: 'grapheme' }),
      oddString,
      wrongValue,
    ),
    webhookUrl: fc.oneof(
      fc.constantFrom(...VALID_WEBHOOK_URLS, ...INVALID_WEBHOOK_URLS),
      fc.webUrl({ validSchemes: ['http', 'https', 'ftp', 'file'] }),
      fc.constantFrom(' https://example.test', 'http:example.test', 'http://[::1]/', 'http://例え.テスト/'),
      fc.constant(urlOfLength(2048)),
      fc.constant(null),
      wrongValue,
    ),
    webhookAuth: webhookAuthValue,
  },
  valid: parserSafe(
    fc.record(
      {
        voiceId: fc.constantFrom(...VOICE_IDS),
        text: validText,
        webhookUrl: fc.oneof(fc.constantFrom(...VALID_WEBHOOK_URLS), fc.constant(urlOfLength(2048))),
        webhookAuth: validWebhookAuth,
      },
      { requiredKeys: ['voiceId', 'text'] },
    ),
  ),
  validStatuses: [200],
}

const VOICE = VOICE_IDS[0]

/** Cases that sit on a rule of the contract and know their answer. */
const ttsEdgeCases: fc.Arbitrary<BodyCase> = fc.oneof(
  // Text at the 5,000-character limit, in 1-, 2- and 4-byte characters: counted in code points.
  fc
    .record({
      voiceId: fc.constantFrom(...VOICE_IDS),
      length: fc.integer({ min: 4_998, max: 5_002 }),
      char: fc.constantFrom('a', 'ب', '😀', 'é'),
    })
    .map(({ voiceId, length, char }): BodyCase => ({
      body: { voiceId, text: char.repeat(length) },
      expected: length <= 5_000 ? accepted([200]) : refused('VALIDATION_ERROR'),
    })),
  // Blank text: empty or only (Unicode) spaces.
  fc
    .constantFrom('', ' ', '     ', '\t\r\n', '\u00a0', '\u2003\u3000')
    .map((text): BodyCase => ({ body: { voiceId: VOICE, text }, expected: refused('VALIDATION_ERROR') })),
  // Lone surrogates, written as JSON escapes (JSON.stringify would never send them).
  fc
    .record({
      escape: fc.constantFrom('\\ud800', '\\udfff', '\\uD83D', 'a\\ude00b', '\\ude00\\ud83d'),
      field: fc.constantFrom('text', 'webhookUrl', 'authKey'),
    })
    .map(({ escape, field }): BodyCase => {
      const rawBody =
        field === 'text'
          ? `{"voiceId":"${VOICE}","text":"${escape}"}`
          : field === 'webhookUrl'
            ? `{"voiceId":"${VOICE}","text":"hi","webhookUrl":"https://example.test/${escape}"}`
            : `{"voiceId":"${VOICE}","text":"hi","webhookAuth":{"authKey":"${escape}","authSecret":"s"}}`
      return { rawBody, expected: refused('VALIDATION_ERROR') }
    }),
  // A surrogate pair written as escapes is one emoji: fine.
  fc.constant<BodyCase>({ rawBody: `{"voiceId":"${VOICE}","text":"smile \\ud83d\\ude00"}`, expected: accepted([200]) }),
  fc
    .constantFrom(...INVALID_WEBHOOK_URLS, null, 42)
    .map((webhookUrl): BodyCase => ({ body: { voiceId: VOICE, text: 'hi', webhookUrl }, expected: refused('VALIDATION_ERROR') })),
  fc
    .constantFrom(...VALID_WEBHOOK_URLS, urlOfLength(2048))
    .map((webhookUrl): BodyCase => ({ body: { voiceId: VOICE, text: 'hi', webhookUrl }, expected: accepted([200]) })),
  fc
    .constantFrom<unknown>(
      { authKey: '', authSecret: 's' },
      { authKey: 'k\r\n', authSecret: 's' },
      { authSecret: 's\u0000' },
      { authKey: 'k', authSecret: '' },
      { authKey: 'k', authSecret: 's', extra: 1 },
      { authKey: 'k'.repeat(201), authSecret: 's' },
      { authKey: 'k', authSecret: 's'.repeat(2001) },
      { authKey: 1, authSecret: 's' },
      null,
      'Bearer secret',
      ['k', 's'],
    )
    .map((webhookAuth): BodyCase => ({
      body: { voiceId: VOICE, text: 'hi', webhookUrl: VALID_WEBHOOK_URLS[0], webhookAuth },
      expected: refused('VALIDATION_ERROR'),
    })),
  fc.constant<BodyCase>({
    body: { voiceId: VOICE, text: 'hi', webhookAuth: { authKey: 'k'.repeat(200), authSecret: 's'.repeat(2000) } },
    expected: accepted([200]),
  }),
  // A job's webhookAuth may give one part, or none (Pipedream sends each part optional).
  fc.constantFrom<unknown>({ authKey: 'k' }, { authSecret: 's' }, {}).map((webhookAuth): BodyCase => ({
    body: { voiceId: VOICE, text: 'hi', webhookUrl: VALID_WEBHOOK_URLS[0], webhookAuth },
    expected: accepted([200]),
  })),
  // The voice: one of the 14 ids, exactly as listed.
  fc
    .oneof(
      fc.uuid().filter((id) => !(VOICE_IDS as readonly string[]).includes(id)),
      fc.constantFrom(VOICE.toUpperCase(), ` ${VOICE}`, '', 'Ava', null, 7),
    )
    .map((voiceId): BodyCase => ({ body: { voiceId, text: 'hi' }, expected: refused('VALIDATION_ERROR') })),
  // Required fields left out.
  fc
    .constantFrom<unknown>({ text: 'hi' }, { voiceId: VOICE }, {})
    .map((body): BodyCase => ({ body, expected: refused('VALIDATION_ERROR') })),
)

// ---------------------------------------------------------------------------------------------
// POST /v1/jobs/ai-content?jobId=
// ---------------------------------------------------------------------------------------------

const validAiParts = fc.shuffledSubarray([...AI_PARTS], { minLength: 1 })
const aiPartName = fc.oneof(
  fc.constantFrom(...AI_PARTS),
  fc.constantFrom('Summary', 'summary ', 'SUMMARY', 'tldr', '', 'transcriptionJobId', 'toString'),
  fc.string(),
)

const aiContentSpec: BodySpec = {
  fields: {
    aiParts: fc.oneof(
      validAiParts,
      fc.array(aiPartName, { maxLength: 14 }),
      validAiParts.chain((parts) => fc.constantFrom(...parts).map((again) => [...parts, again])),
      fc.constant([...AI_PARTS, 'summary']),
      fc.array(wrongValue, { minLength: 1, maxLength: 3 }),
      wrongValue,
    ),
  },
  valid: validAiParts.map((aiParts) => ({ aiParts })),
  validStatuses: [200],
}

const aiContentEdgeCases: fc.Arbitrary<BodyCase> = fc.oneof(
  validAiParts.map((aiParts): BodyCase => ({ body: { aiParts }, expected: accepted([200]) })),
  fc.constant<BodyCase>({ body: { aiParts: [...AI_PARTS] }, expected: accepted([200]) }),
  // 1 to 12 distinct known parts; anything else is a 400.
  fc
    .oneof(
      fc.constant<unknown>([]),
      fc.constant<unknown>([...AI_PARTS, 'summary']),
      validAiParts.chain((parts) => fc.constantFrom(...parts).map((again): unknown => [...parts, again])),
      fc.constantFrom<unknown>(
        ['Summary'],
        ['summary', 'tldr'],
        [''],
        ['summary '],
        [['summary']],
        ['summary', null],
        'summary',
        null,
        {},
        { summary: true },
      ),
    )
    .map((aiParts): BodyCase => ({ body: { aiParts }, expected: refused('VALIDATION_ERROR') })),
  fc
    .constantFrom<unknown>({}, { parts: ['summary'] }, { aiParts: ['summary'], jobId: 'x' }, [['summary']])
    .map((body): BodyCase => ({ body, expected: refused('VALIDATION_ERROR') })),
)

function aiContentTargets(fixture: Fixture): fc.Arbitrary<Target> {
  const notFoundIds = fc.oneof(
    fc.uuid(),
    fc.constantFrom(
      ...(fixture.foreignSource ? [fixture.foreignSource.id] : []),
      'abc',
      '%',
      '%zz',
      'null',
      '00000000-0000-4000-8000-000000000000',
    ),
    fc.string({ minLength: 1 }).map(encodeURIComponent),
  )
  return fc.oneof(
    {
      weight: 12,
      arbitrary: fc
        .constantFrom(...fixture.sources.map((source) => source.id))
        .map((id): Target => ({ query: `?jobId=${id}`, validBody: [200] })),
    },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(...fixture.conflictSources.map((source) => source.id))
        .map((id): Target => ({ query: `?jobId=${id}`, validBody: [409], anyBody: [400, 409, 413, 415] })),
    },
    { weight: 2, arbitrary: notFoundIds.map((id): Target => ({ query: `?jobId=${id}`, validBody: [404], anyBody: [400, 404, 413, 415] })) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom('', '?', '?jobId=', '?jobid=x', '?jobId[]=x', '?job_id=x', '?id=1')
        .map((query): Target => ({ query, validBody: [400], anyBody: [400, 413, 415] })),
    },
    {
      weight: 1,
      arbitrary: fc.constant<Target>({
        query: `?jobId=${fixture.sources[0]!.id}&jobId=${fixture.sources[0]!.id}`,
        validBody: [400],
        refusedFirst: refused('VALIDATION_ERROR'),
      }),
    },
    // Ids as people might mangle them: the service decides (today an unknown id, 404), never a 5xx.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          fixture.sources[0]!.id.toUpperCase(),
          ` ${fixture.sources[0]!.id}`,
          `${fixture.sources[0]!.id}%00`,
          `${fixture.sources[0]!.id}&extra=1`,
        )
        .map((id): Target => ({ query: `?jobId=${id}`, validBody: [200, 404], anyBody: undefined })),
    },
  )
}

// ---------------------------------------------------------------------------------------------
// POST /v1/jobs/all?projectId=
// ---------------------------------------------------------------------------------------------

/** `asc` or `desc`, each letter in either case. */
const anyCaseDirection = fc
  .record({ direction: fc.constantFrom('asc', 'desc'), mask: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }) })
  .map(({ direction, mask }) => [...direction].map((char, index) => (mask[index] ? char.toUpperCase() : char)).join(''))

const FTS_SYNTAX = [
  'AND',
  'OR',
  'NOT',
  'NEAR(',
  'NEAR(a b, 2)',
  'NEAR',
  '"',
  '""',
  '"unterminated',
  '*',
  'a*',
  '"a" *',
  '-',
  '-refund',
  '^',
  '^refund',
  '+',
  ':',
  'title:',
  'text:',
  'scope:',
  '{title text}:',
  '{title',
  '(',
  ')',
  '()',
  "'",
  '\\',
  '%',
  '_',
  ';--',
  "' OR 1=1 --",
  'refund AND',
  'OR refund',
  'title:refund',
  'NOT NOT',
  '*refund*',
  'rowid',
  'MATCH',
  '\u0000',
] as const

/** Searches the contract accepts (up to 200 characters): FTS5 syntax, ids, words, random text. */
function validSearch(fixture: Fixture): fc.Arbitrary<string> {
  const ids = fixture.seeded.map((job) => job.id)
  const words = [
    'refund',
    'Refu',
    'REFUND',
    'réfund',
    'refund',
    'cafe',
    'استرداد',
    'مرحبا',
    'order',
    '42',
    '٤٢',
    'a',
    'x',
    'NEAR',
    'quoted',
    'Müller',
    'muller',
    'strasse',
    'straße',
    '😀',
    'thanks',
  ]
  const token = fc.oneof(fc.constantFrom(...FTS_SYNTAX), fc.constantFrom(...words), fc.constantFrom(...scopeTokens(fixture)))
  const values = fc.oneof(
    { weight: 3, arbitrary: fc.array(token, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(' ')) },
    { weight: 2, arbitrary: fc.array(token, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')) },
    { weight: 2, arbitrary: fc.constantFrom(...FTS_SYNTAX, ...words, ...scopeTokens(fixture)) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...ids)
        .chain((id) => fc.constantFrom(id, id.toUpperCase(), ` ${id} `, id.slice(0, 8), `${id} refund`, id.replaceAll('-', ''))),
    },
    { weight: 2, arbitrary: fc.string() },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'a'.repeat(199),
        'a'.repeat(200),
        'ب'.repeat(200),
        '😀'.repeat(200),
        'refund '.repeat(28) + 'abcd',
        '   ',
        '',
      ),
    },
  )
  return values.filter((value) => characters(value) <= 200 && !/[\uD800-\uDFFF]/u.test(value))
}

/** Any search: valid ones, 201 characters, lone surrogates, wrong types. */
function anySearch(fixture: Fixture): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 5, arbitrary: validSearch(fixture) },
    { weight: 1, arbitrary: fc.constantFrom('a'.repeat(201), 'ب'.repeat(201), '😀'.repeat(201)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    { weight: 1, arbitrary: oddString },
    { weight: 1, arbitrary: wrongValue },
  )
}

function listSpec(fixture: Fixture): BodySpec {
  const validSort = fc.record({ field: fc.constantFrom(...SORT_FIELDS), direction: anyCaseDirection }, { requiredKeys: [] })
  return {
    fields: {
      take: fc.oneof(
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom(0, 101, -1, 1.5, 99.9, 1e9, -0, 2 ** 31, Number.MAX_SAFE_INTEGER + 2),
        fc.constantFrom('10', '', 'all'),
        fc.double(),
        wrongValue,
      ),
      skip: fc.oneof(
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53 - 1, 2 ** 53, 1e300, -0),
        fc.constantFrom('1', '2'),
        wrongValue,
      ),
      sort: fc.oneof(
        validSort,
        fc.record(
          {
            field: fc.oneof(
              fc.constantFrom(...SORT_FIELDS),
              fc.constantFrom('created_at', 'CREATEDAT', 'cost ', 'id', 'seq', 'total_cost', '', 'title; DROP TABLE jobs'),
              wrongValue,
            ),
            direction: fc.oneof(
              anyCaseDirection,
              fc.constantFrom('ascending', 'DESCENDING', '', ' asc', 'asc ', 'up', '1', 'ASC; --', 'aſc'),
              wrongValue,
            ),
            extra: fc.jsonValue({ maxDepth: 1 }),
          },
          { requiredKeys: [] },
        ),
        fc.constant(null),
        wrongValue,
      ),
      search: anySearch(fixture),
      status: fc.oneof(fc.constantFrom(...JOB_STATUSES), fc.constantFrom('pending', 'DONE', '', 'COMPLETED ', 'ALL'), wrongValue),
      type: fc.oneof(fc.constantFrom(...JOB_TYPES), fc.constantFrom('tts', 'AI-CONTENT', 'AICONTENT', '', 'TTS '), wrongValue),
    },
    valid: parserSafe(
      fc.record(
        {
          take: fc.oneof(
            { weight: 3, arbitrary: fc.integer({ min: 1, max: 12 }) },
            { weight: 1, arbitrary: fc.integer({ min: 1, max: 100 }) },
          ),
          skip: fc.oneof(
            { weight: 5, arbitrary: fc.integer({ min: 1, max: 6 }) },
            { weight: 1, arbitrary: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }) },
          ),
          sort: validSort,
          search: validSearch(fixture),
          status: fc.constantFrom(...JOB_STATUSES),
          type: fc.constantFrom(...JOB_TYPES),
        },
        { requiredKeys: [] },
      ),
    ),
    validStatuses: [200],
    numberFields: ['take', 'skip'],
  }
}

function listEdgeCases(fixture: Fixture): fc.Arbitrary<BodyCase> {
  return fc.oneof(
    fc.constantFrom<unknown>(1, 100).map((take): BodyCase => ({ body: { take }, expected: accepted([200]) })),
    fc
      .constantFrom<unknown>(0, 101, -1, 1.5, '10', null, true)
      .map((take): BodyCase => ({ body: { take }, expected: refused('VALIDATION_ERROR') })),
    fc
      .constantFrom<unknown>(1, 2, 2 ** 31, Number.MAX_SAFE_INTEGER)
      .map((skip): BodyCase => ({ body: { skip, take: 100 }, expected: accepted([200]) })),
    fc.constantFrom<unknown>(0, -1, 1.5, '2', null).map((skip): BodyCase => ({ body: { skip }, expected: refused('VALIDATION_ERROR') })),
    fc
      .record({ field: fc.constantFrom(...SORT_FIELDS), direction: anyCaseDirection })
      .map((sort): BodyCase => ({ body: { sort, take: 100 }, expected: accepted([200]) })),
    fc
      .constantFrom<unknown>({}, { field: 'cost' }, { direction: 'ASC' })
      .map((sort): BodyCase => ({ body: { sort }, expected: accepted([200]) })),
    fc
      .constantFrom<unknown>(
        { field: 'id' },
        { field: 'created_at' },
        { direction: 'ascending' },
        { direction: '' },
        { field: 'title', direction: 'asc', extra: 1 },
        null,
        'createdAt',
        ['createdAt', 'asc'],
      )
      .map((sort): BodyCase => ({ body: { sort }, expected: refused('VALIDATION_ERROR') })),
    // FTS5 syntax, scope tokens and ids are plain words to search for: always a 200.
    validSearch(fixture).map((search): BodyCase => ({ body: { search, take: 100 }, expected: accepted([200]) })),
    fc
      .constantFrom('a'.repeat(201), 'ب'.repeat(201), '😀'.repeat(201))
      .map((search): BodyCase => ({ body: { search }, expected: refused('VALIDATION_ERROR') })),
    fc.constantFrom('pending', 'DONE', '', 'ALL').map((status): BodyCase => ({ body: { status }, expected: refused('VALIDATION_ERROR') })),
    fc.constantFrom('tts', 'AI-CONTENT', '').map((type): BodyCase => ({ body: { type }, expected: refused('VALIDATION_ERROR') })),
    // No body at all, or a JSON null: the first page.
    fc.constantFrom('', ' ', '\n', 'null', '{}').map((rawBody): BodyCase => ({ rawBody, expected: accepted([200]) })),
  )
}

function listTargets(fixture: Fixture): fc.Arbitrary<Target> {
  return fc.oneof(
    { weight: 14, arbitrary: fc.constant<Target>({ query: `?projectId=${fixture.projectId}`, validBody: [200] }) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constant(fixture.otherProjectId),
          fc.uuid(),
          fc.constantFrom('x', '%', 'default', `${fixture.projectId}x`),
          fc.string({ minLength: 1 }).map(encodeURIComponent),
        )
        .filter((id) => id !== fixture.projectId)
        .map((id): Target => ({ query: `?projectId=${id}`, validBody: [403], anyBody: [400, 403, 413, 415] })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('', '?', '?projectId=', '?projectid=x', '?projectId[a]=x', '?project_id=1')
        .map((query): Target => ({ query, validBody: [400], anyBody: [400, 413, 415] })),
    },
    {
      weight: 1,
      arbitrary: fc.constant<Target>({
        query: `?projectId=${fixture.projectId}&projectId=${fixture.projectId}`,
        validBody: [400],
        refusedFirst: refused('VALIDATION_ERROR'),
      }),
    },
    // The caller's id as people might mangle it: the service decides, never a 5xx.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(fixture.projectId.toUpperCase(), ` ${fixture.projectId}`, `${fixture.projectId}&extra=1`)
        .map((id): Target => ({ query: `?projectId=${id}`, validBody: [200, 403], anyBody: undefined })),
    },
  )
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

function overLimitBody(field: string): string {
  const frame = `{"${field}":""}`
  const body = `{"${field}":"${'a'.repeat(BODY_LIMIT_BYTES + 1 - frame.length)}"}`
  expect(Buffer.byteLength(body)).toBe(BODY_LIMIT_BYTES + 1)
  return body
}

// SQLite only: its no-change checks compare the raw jobs and job_counts rows of SQLite's schema.
// The PostgreSQL store's writes and counts are held to the same contract by test/store/store-contract.test.ts.
describe.skipIf(onPostgres)('job write endpoints under random and malformed bodies: no 5xx, the error envelope, no change on error', () => {
  describe('with another project holding a job', () => {
    let fixture: Fixture
    beforeEach(async () => {
      fixture = await startFixture({ otherProjectHasJobs: true })
    })

    it('POST /v1/jobs/text-to-speech', { timeout: TEST_TIMEOUT_MS }, async () => {
      const bodies = fc.oneof({ weight: 5, arbitrary: bodyCases(ttsSpec) }, { weight: 2, arbitrary: ttsEdgeCases })
      const requests = bodies.map((body) => onTarget(TTS_URL, body, { query: '', validBody: [200] }))
      await fuzz(fixture, requests, RUNS.tts, checkTtsAccepted(fixture))
    })

    it('POST /v1/jobs/ai-content?jobId=', { timeout: TEST_TIMEOUT_MS }, async () => {
      const bodies = fc.oneof({ weight: 5, arbitrary: bodyCases(aiContentSpec) }, { weight: 2, arbitrary: aiContentEdgeCases })
      const requests = fc
        .record({ target: aiContentTargets(fixture), body: bodies })
        .map(({ target, body }) => onTarget('/v1/jobs/ai-content', body, target))
      await fuzz(fixture, requests, RUNS.aiContent, checkAiContentAccepted(fixture))
    })

    it('POST /v1/jobs/all?projectId= (searches narrowed to the project by FTS5 scope tokens)', { timeout: TEST_TIMEOUT_MS }, async () => {
      const spec = listSpec(fixture)
      const bodies = fc.oneof({ weight: 5, arbitrary: bodyCases(spec) }, { weight: 3, arbitrary: listEdgeCases(fixture) })
      const requests = fc
        .record({ target: listTargets(fixture), body: bodies })
        .map(({ target, body }) => onTarget('/v1/jobs/all', body, target))
      await fuzz(fixture, requests, RUNS.listShared, checkListAccepted(fixture))
    })

    it(
      'text of 1 MiB around the body limit: 413 exactly when the body is over it, counted in bytes',
      { timeout: TEST_TIMEOUT_MS },
      async () => {
        const requests = fc
          .record({
            bytes: fc.integer({ min: BODY_LIMIT_BYTES - 6, max: BODY_LIMIT_BYTES + 6 }),
            twoByteChars: fc.integer({ min: 0, max: 100 }),
          })
          .map(({ bytes, twoByteChars }): FuzzRequest => {
            const frame = `{"voiceId":"${VOICE}","text":""}`
            const filler = 'é'.repeat(twoByteChars) + 'a'.repeat(bytes - frame.length - 2 * twoByteChars)
            const rawBody = `{"voiceId":"${VOICE}","text":"${filler}"}`
            // Under the limit the body is read and refused for its text of far more than 5,000 characters.
            return {
              url: TTS_URL,
              rawBody,
              expected: bytes > BODY_LIMIT_BYTES ? { statuses: [413], code: 'PAYLOAD_TOO_LARGE' } : refused('VALIDATION_ERROR'),
            }
          })
        await fuzz(fixture, requests, RUNS.sizeLimit, checkTtsAccepted(fixture))
      },
    )

    it('a body of 1 MiB + 1 byte is 413 PAYLOAD_TOO_LARGE on each job write endpoint', async () => {
      const cases: [string, string, AcceptedCheck][] = [
        [TTS_URL, overLimitBody('text'), checkTtsAccepted(fixture)],
        [`/v1/jobs/ai-content?jobId=${fixture.sources[0]!.id}`, overLimitBody('aiParts'), checkAiContentAccepted(fixture)],
        [`/v1/jobs/all?projectId=${fixture.projectId}`, overLimitBody('search'), checkListAccepted(fixture)],
      ]
      for (const [url, rawBody, check] of cases) {
        const response = await sendAndCheck(fixture, { url, rawBody, expected: { statuses: [413], code: 'PAYLOAD_TOO_LARGE' } }, check)
        expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE')
      }
    })

    it('the raw body {"__proto__":{}} is 400 INVALID_JSON on each job write endpoint', async () => {
      const cases: [string, AcceptedCheck][] = [
        [TTS_URL, checkTtsAccepted(fixture)],
        [`/v1/jobs/ai-content?jobId=${fixture.sources[0]!.id}`, checkAiContentAccepted(fixture)],
        [`/v1/jobs/all?projectId=${fixture.projectId}`, checkListAccepted(fixture)],
      ]
      for (const [url, check] of cases) {
        const response = await sendAndCheck(fixture, { url, rawBody: '{"__proto__":{}}', expected: refused('INVALID_JSON') }, check)
        expect(response.json().error.code).toBe('INVALID_JSON')
      }
    })

    it('jobs/all takes no body at all: the first page, newest first', async () => {
      const url = `/v1/jobs/all?projectId=${fixture.projectId}`
      requestsSent += 1
      const bare = await fixture.service.runtime.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Token ${fixture.service.key}` },
      })
      expect(bare.statusCode, bare.body).toBe(200)
      const check = checkListAccepted(fixture)
      for (const rawBody of ['', 'null', '{}']) {
        const response = await sendAndCheck(fixture, { url, rawBody, expected: accepted([200]) }, check)
        expect(response.json().data, rawBody).toEqual(bare.json().data)
      }
      const { jobs, total, filtered } = bare.json().data
      expect(total).toBe(fixture.seeded.length)
      expect(filtered).toBe(total)
      expect(jobs).toHaveLength(10)
      expect(jobs.map((job: JobListItem) => job.createdAt)).toEqual(
        jobs
          .map((job: JobListItem) => job.createdAt)
          .sort()
          .reverse(),
      )
    })
  })

  describe('with no other project holding jobs', () => {
    it('POST /v1/jobs/all?projectId= (searches without the project scope token)', { timeout: TEST_TIMEOUT_MS }, async () => {
      const fixture = await startFixture({ otherProjectHasJobs: false })
      const spec = listSpec(fixture)
      const bodies = fc.oneof({ weight: 5, arbitrary: bodyCases(spec) }, { weight: 3, arbitrary: listEdgeCases(fixture) })
      const requests = fc
        .record({ target: listTargets(fixture), body: bodies })
        .map(({ target, body }) => onTarget('/v1/jobs/all', body, target))
      await fuzz(fixture, requests, RUNS.listAlone, checkListAccepted(fixture))
    })
  })
})
