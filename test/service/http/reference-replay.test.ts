import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { STT_SETTING_KEY } from '../../../src/service/settings/stt-settings'
import { VOICES } from '../../../src/shared/voices'
import { seedJob } from '../../helpers/seed-jobs'
import { speechWav } from '../../helpers/speech-media'
import { startSpeechServerDouble } from '../../helpers/speech-server-double'
import { startTestService, type TestService } from '../../helpers/test-service'

/*
 * Replays, for each operation of the cloud's public reference, the example request its page
 * shows (ids adapted to ones made here) and checks the answer's shape (keys and types, not
 * values) against the example answer's. The operations are data: test/fixtures/reference/replay.json.
 */

type Shape = string | Shape[] | { [key: string]: Shape }

interface Operation {
  name: string
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  path: string
  body?: unknown
  answer?: Shape
  audio?: boolean
  /** The content type of an answer that is a file (an export), checked instead of a shape. */
  file?: string
  differences?: string[]
  excluded?: string
}

const fixture = JSON.parse(readFileSync(join(__dirname, '../../fixtures/reference/replay.json'), 'utf8')) as { operations: Operation[] }

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** Where `actual` departs from `expected`, as `path: what` lines (none when it conforms). */
export function shapeMismatches(expected: Shape, actual: unknown, path = '', skipped: ReadonlySet<string> = new Set()): string[] {
  const here = path || '(answer)'
  if (typeof expected === 'string') {
    const allowed = expected.split('|')
    return allowed.includes('any') || allowed.includes(typeOf(actual)) ? [] : [`${here}: expected ${expected}, got ${typeOf(actual)}`]
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${here}: expected an array, got ${typeOf(actual)}`]
    return actual.flatMap((item, index) => (index === 0 ? shapeMismatches(expected[0]!, item, path, skipped) : []))
  }
  if (typeOf(actual) !== 'object') return [`${here}: expected an object, got ${typeOf(actual)}`]
  const record = actual as Record<string, unknown>
  return Object.entries(expected).flatMap(([key, shape]) => {
    const child = path ? `${path}.${key}` : key
    if (skipped.has(child)) return []
    if (!Object.hasOwn(record, key)) return [`${child}: missing`]
    return shapeMismatches(shape, record[key], child, skipped)
  })
}

interface Ids {
  [name: string]: string
}

/** The example's placeholders, replaced by the ids this test made (in paths, queries and bodies). */
function filled<T>(value: T, ids: Ids): T {
  const text = JSON.stringify(value).replace(/\{(\w+)\}/g, (whole, name: string) => ids[name] ?? whole)
  return JSON.parse(text) as T
}

async function setUp(service: TestService): Promise<Ids> {
  const ava = VOICES.find((voice) => voice.name === 'Ava')!.id
  const agent = (await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Replay desk', params: { name: 'Sam' } } })).json()
    .data
  const phoneNumber = '+14155550199'
  const number = await service.call('POST', '/v1/voice-agents/phone-number', {
    body: { type: 'TELEPHONY', phoneNumber, label: 'Replay line', providerAccountSid: 'AC1', providerAuthToken: 'token' },
  })
  const source = await seedJob(service.runtime, { title: 'Recording of the replay', text: 'We agreed to ship the billing page on Friday.' })
  const ai = await service.call('POST', `/v1/jobs/ai-content?jobId=${source.id}`, { body: { aiParts: ['summary'] } })
  const call = await service.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: agent.id } })
  const dictionary = await service.call('POST', '/v1/voice-agents/voice-dictionaries', {
    body: { name: 'Replay words', words: [{ word: 'Rowe', pronunciation: 'roe' }] },
  })
  const { wav } = await speechWav([0.2, 'Please call me back tomorrow morning.', 0.2])
  return {
    agentId: agent.id,
    apiKeyId: agent.apiKeyId,
    projectId: service.runtime.bootstrap.projectId,
    numberId: number.json().data.id,
    phoneNumber,
    jobId: source.id,
    aiJobId: ai.json().data.id,
    callId: call.json().data.jobId,
    voiceId: ava,
    mediaUrl: 'https://example.com/interview.mp3',
    audioBase64: wav.toString('base64'),
    dictionaryId: dictionary.json().data.id,
    // A range of epoch milliseconds around now, so the calls made here are in it.
    weekAgoMs: String(Date.now() - 7 * 86_400_000),
    tomorrowMs: String(Date.now() + 86_400_000),
  }
}

describe('The public reference, replayed', () => {
  const replayed = fixture.operations.filter((operation) => !operation.excluded)

  it('lists every operation once, each replayed one with an answer shape or audio', () => {
    const keys = fixture.operations.map((operation) => `${operation.method} ${operation.path.split('?')[0]}`)
    expect(new Set(keys).size).toBe(keys.length)
    for (const operation of replayed)
      expect(operation.answer !== undefined || operation.audio === true || operation.file !== undefined, operation.name).toBe(true)
    expect(replayed.length).toBeGreaterThanOrEqual(43)
  })

  it("answers each example request in the reference's shape", async () => {
    const speech = await startSpeechServerDouble()
    const service = await startTestService()
    await service.runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: speech.url, model: 'whisper-1' })
    const ids = await setUp(service)
    const failures: string[] = []
    for (const operation of replayed) {
      const method = operation.method
      const response = await service.call(
        method,
        filled(operation.path, ids),
        operation.body === undefined ? {} : { body: filled(operation.body, ids) },
      )
      if (response.statusCode !== 200) {
        failures.push(`${operation.name}: ${response.statusCode} ${response.body.slice(0, 300)}`)
        continue
      }
      if (operation.audio) {
        if (!String(response.headers['content-type']).startsWith('audio/')) failures.push(`${operation.name}: not audio`)
        continue
      }
      if (operation.file !== undefined) {
        const type = String(response.headers['content-type'])
        if (!type.startsWith(operation.file) || response.body.length === 0)
          failures.push(`${operation.name}: ${type}, not ${operation.file}`)
        continue
      }
      const skipped = new Set((operation.differences ?? []).map((difference) => difference.split(' ')[0]!))
      failures.push(...shapeMismatches(operation.answer!, response.json(), '', skipped).map((line) => `${operation.name}: ${line}`))
    }
    expect(failures).toEqual([])
  })

  it('checks shapes for real: a wrong type, a missing key and a non-array are caught', () => {
    expect(shapeMismatches({ data: { jobId: 'string' } }, { data: { jobId: 7 } })).toEqual(['data.jobId: expected string, got number'])
    expect(shapeMismatches({ data: { jobId: 'string' } }, { data: {} })).toEqual(['data.jobId: missing'])
    expect(shapeMismatches({ data: ['string'] }, { data: 'x' })).toEqual(['data: expected an array, got string'])
    expect(shapeMismatches({ data: ['string'] }, { data: ['a', 2] })).toEqual([])
    expect(shapeMismatches({ data: { a: 'string' } }, { data: {} }, '', new Set(['data.a']))).toEqual([])
  })
})
