/**
 * Property-based fuzzing of every /v1 write endpoint with random and malformed bodies.
 *
 * For every request, whatever it carries:
 *  (a) the answer is never a 5xx;
 *  (b) every non-2xx answer is the contract's error envelope, with a code that matches the status;
 *  (c) an error answer leaves voice_agents and phone_numbers exactly as they were.
 * Some generated cases also know their outcome (a `__proto__` key is INVALID_JSON, a valid body
 * is accepted, ...): those are checked too, so the validators cannot pass by refusing everything.
 *
 * Each test starts its own service (the helper stops it after the test), so accepted requests
 * of one endpoint never leak into another's run. fast-check prints the seed of any failure.
 */
import type { LightMyRequestResponse } from 'fastify'
import fc from 'fast-check'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BODY_LIMIT_BYTES } from '../../../src/service/http/build-app'
import type { ErrorCode } from '../../../src/shared/api/errors'
import { OUTCOME_SHAPE_TYPES } from '../../../src/shared/api/outcome-shape'
import { VOICE_IDS } from '../../../src/shared/voices'
import {
  bodyCases,
  expectErrorEnvelope,
  isBodyError,
  lengthAround,
  nonBlank,
  oddString,
  parserSafe,
  pollutedBody,
  refused,
  safeKey,
  storedBodyCases,
  wrongValue,
  type BodyCase,
  type BodySpec,
} from '../../helpers/fuzz-arbitraries'
import { onPostgres } from '../../helpers/test-engine'
import { startTestService, type TestService } from '../../helpers/test-service'
import { testSqlOf, type TestSql } from '../../helpers/test-sql'

/**
 * Runs per property on SQLite: about 5,700 fuzzed requests in all, some 15 s on 2 cores
 * (app.inject, no socket). The counts follow the generators: a near-valid create body changes
 * one of 16 fields to one of its 2 to 6 kinds of value, about 60 pairs, and ~280 of 900 cases are
 * near-valid, so each pair is met four or five times; the smaller endpoints have fewer fields
 * and fewer runs. fast-check draws a new seed each run and prints it with any failure.
 */
const RUNS_ON_SQLITE = {
  create: 900,
  update: 1000,
  clone: 600,
  addNumber: 900,
  assign: 700,
  unassign: 500,
  deleteAgent: 400,
  deleteNumber: 400,
  poison: 300,
  sizeLimit: 30,
}
/**
 * On PostgreSQL only what reaches storage differs (NUL and lone surrogates in text and JSON
 * columns, uuid parameters, unique numbers): the bodies are storedBodyCases, so half the runs
 * still store about as many near-valid and valid bodies as the SQLite run does; the parser's
 * refusals (poison, size limit) run on SQLite only. Each request is two or three round trips
 * to the server there, ~15 ms each on a quiet machine.
 */
const RUNS = onPostgres
  ? {
      ...RUNS_ON_SQLITE,
      create: 450,
      update: 500,
      clone: 300,
      addNumber: 450,
      assign: 350,
      unassign: 250,
      deleteAgent: 200,
      deleteNumber: 200,
    }
  : RUNS_ON_SQLITE
/** On PostgreSQL, the cases that reach the store (see RUNS). */
const casesOf = onPostgres ? storedBodyCases : bodyCases
/** Every test here runs thousands of requests: give it room beyond the 30 s default. */
const TEST_TIMEOUT_MS = 120_000

/** The only error answers a write endpoint may give, and the codes each status may carry. */
const CODES_BY_STATUS: Record<number, readonly ErrorCode[]> = {
  400: ['VALIDATION_ERROR', 'INVALID_JSON'],
  404: ['NOT_FOUND'],
  409: ['CONFLICT'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
}

// ---------------------------------------------------------------------------------------------
// Requests, answers and the invariants every answer must keep
// ---------------------------------------------------------------------------------------------

interface FuzzRequest extends BodyCase {
  method: 'POST' | 'PATCH' | 'DELETE'
  url: string
}

interface Fixture {
  service: TestService
  /** One connection for the whole test: on PostgreSQL a connection per snapshot cost ~35 ms, 400 s a run. */
  sql: TestSql
  /** The tables as the last error answer left them (an error changes nothing); unknown after an accepted request. */
  known?: string
  agentId: string
  otherAgentId: string
  /** A template id when templates are shipped, else the fixture agent: both are valid clone sources. */
  cloneSourceId: string
  /** Registered and assigned to the fixture agent. */
  assignedNumber: string
  /** Registered, not assigned. */
  spareNumber: string
}

let requestsSent = 0
afterAll(() => {
  console.info(`fuzz-bodies: ${requestsSent} fuzzed requests`)
})

/** Every row of the tables a write endpoint may touch, as one comparable string. */
async function snapshot(sql: TestSql): Promise<string> {
  return JSON.stringify({
    voice_agents: await sql.all('SELECT * FROM voice_agents ORDER BY id'),
    phone_numbers: await sql.all('SELECT * FROM phone_numbers ORDER BY id'),
  })
}

function send(fixture: Fixture, request: FuzzRequest): Promise<LightMyRequestResponse> {
  requestsSent += 1
  if (request.withoutContentType) {
    return fixture.service.runtime.app.inject({
      method: request.method,
      url: request.url,
      headers: { authorization: `Token ${fixture.service.key}` },
      payload: request.rawBody,
    })
  }
  return fixture.service.call(request.method, request.url, { body: request.body, rawBody: request.rawBody, headers: request.headers })
}

function describeRequest(request: FuzzRequest, response: LightMyRequestResponse): string {
  const sent = request.rawBody ?? (request.body === undefined ? '' : JSON.stringify(request.body)) ?? ''
  return `${request.method} ${request.url} ${JSON.stringify(request.headers ?? {})} body=${sent.slice(0, 300)} -> ${response.statusCode} ${response.body.slice(0, 500)}`
}

/** Sends one case and checks (a), (b), (c) and what the case expects. */
async function sendAndCheck(fixture: Fixture, request: FuzzRequest): Promise<LightMyRequestResponse> {
  const before = fixture.known ?? (await snapshot(fixture.sql))
  fixture.known = undefined
  const response = await send(fixture, request)
  // Each check is made in plain JavaScript and given to expect (with the request described) only
  // when it fails: for thousands of answers, expect and the descriptions cost more than the requests.
  const what = () => describeRequest(request, response)
  const status = response.statusCode

  if (!(status < 500)) expect(status, what()).toBeLessThan(500)
  if (request.expected && !request.expected.statuses.includes(status)) expect(request.expected.statuses, what()).toContain(status)

  if (status >= 200 && status < 300) {
    const body = response.json()
    if (body?.success !== true || body.message !== 'Success') expect(body, what()).toMatchObject({ success: true, message: 'Success' })
    return response
  }

  expectErrorEnvelope(response, CODES_BY_STATUS, what, request.expected?.code)

  const after = await snapshot(fixture.sql)
  fixture.known = after
  if (after !== before) expect(JSON.parse(after), `stored data changed on an error answer: ${what()}`).toEqual(JSON.parse(before))
  return response
}

async function fuzz(
  fixture: Fixture,
  requests: fc.Arbitrary<FuzzRequest>,
  numRuns: number,
  afterAccepted?: (response: LightMyRequestResponse) => Promise<void>,
) {
  await fc.assert(
    fc.asyncProperty(requests, async (request) => {
      const response = await sendAndCheck(fixture, request)
      if (afterAccepted && response.statusCode === 200) await afterAccepted(response)
    }),
    { numRuns },
  )
}

/** Accepted creates and clones are deleted again so the per-request snapshot stays small and fast. */
function deleteCreatedAgent(fixture: Fixture) {
  return async (response: LightMyRequestResponse) => {
    const removed = await fixture.service.call('DELETE', `/v1/voice-agents/${response.json().data.id}`)
    expect(removed.statusCode, removed.body).toBe(200)
  }
}

// ---------------------------------------------------------------------------------------------
// Value generators
// ---------------------------------------------------------------------------------------------

const boolish = fc.oneof(fc.boolean(), fc.constantFrom<unknown>('true', 'false', 0, 1, null))

// outcomeResponseShape ------------------------------------------------------------------------

const shapeType = fc.oneof(fc.constantFrom(...OUTCOME_SHAPE_TYPES), fc.constantFrom('Object', 'any', '', 'date'), wrongValue)
const shapePropertyName = fc.oneof(fc.constantFrom('name', 'email', '', 'a'.repeat(101), 'toString', 'hasOwnProperty'), fc.string())

/** Shape trees with the right key names but random types, values and extra keys at any level. */
const randomShape: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    wrongValue,
    fc
      .record({
        node: fc.record(
          {
            type: shapeType,
            description: fc.oneof(fc.string(), lengthAround(2000), wrongValue),
            enum: fc.oneof(
              fc.array(fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null), wrongValue), { maxLength: 5 }),
              fc.array(fc.integer(), { minLength: 199, maxLength: 201 }),
              wrongValue,
            ),
            properties: fc.oneof(fc.dictionary(shapePropertyName, tie('node'), { maxKeys: 4 }), wrongValue),
            required: fc.oneof(fc.array(shapePropertyName, { maxLength: 4 }), wrongValue),
            items: tie('node'),
          },
          { requiredKeys: [] },
        ),
        extra: fc.option(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 })),
      })
      .map(({ node, extra }) => ({ ...extra, ...node })),
  ),
})).node

const validPropertyName = fc.string({ minLength: 1, maxLength: 20 }).filter(safeKey)

interface Shape {
  type: string
  [key: string]: unknown
}

/** Shapes the contract accepts: objects with properties and required names, arrays with items, scalars with enums. */
const validShape: fc.Arbitrary<Shape> = fc.letrec<{ node: Shape }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    fc.record(
      {
        type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'null'),
        description: fc.string({ maxLength: 60 }),
        enum: fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null)), {
          minLength: 1,
          maxLength: 5,
        }),
      },
      { requiredKeys: ['type'] },
    ),
    fc
      .record({
        properties: fc.dictionary(validPropertyName, tie('node'), { maxKeys: 4 }),
        requiredMask: fc.array(fc.boolean(), { maxLength: 4 }),
      })
      .map(({ properties, requiredMask }) => ({
        type: 'object',
        properties,
        required: Object.keys(properties).filter((_, index) => requiredMask[index]),
      })),
    tie('node').map((items) => ({ type: 'array', items })),
  ),
})).node

/** A valid chain of `levels` shape levels, through items or through properties: the limit is 16. */
const deepShape = fc
  .record({ levels: fc.integer({ min: 10, max: 24 }), via: fc.constantFrom('items', 'properties') })
  .map(({ levels, via }) => {
    let shape: Shape = { type: 'string' }
    for (let level = 1; level < levels; level++) {
      shape = via === 'items' ? { type: 'array', items: shape } : { type: 'object', properties: { next: shape }, required: ['next'] }
    }
    return shape
  })

// Voice agent fields --------------------------------------------------------------------------

const validParams = fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/).filter(safeKey), fc.string({ maxLength: 50 }), {
  maxKeys: 5,
})
const paramName = fc.oneof(
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/),
  fc.constantFrom('', '1abc', 'a-b', 'a b', 'toString', 'agentName', 'é'),
  fc.string(),
)

/** For each agent field, values from valid to absurd, edges of every limit included. */
const agentFieldValues: Record<string, fc.Arbitrary<unknown>> = {
  agentName: fc.oneof(
    nonBlank(40),
    fc.constantFrom('', '   ', '\t\n'),
    lengthAround(100),
    fc.string({ unit: 'grapheme' }),
    oddString,
    wrongValue,
  ),
  greetingMessage: fc.oneof(fc.string(), fc.constant('Hi {{name}}, {{ unclosed'), lengthAround(2000), oddString, wrongValue),
  preamble: fc.oneof(
    fc.jsonValue(),
    fc.string(),
    lengthAround(100_000),
    // Two bytes each: the limit is in bytes, not characters.
    fc.integer({ min: 49_998, max: 50_002 }).map((count) => 'é'.repeat(count)),
    oddString,
  ),
  lang: fc.oneof(fc.constantFrom('ar', 'en'), fc.constantFrom('AR', 'EN', 'fr', '', ' en', 'english'), wrongValue),
  pokeMessages: fc.oneof(
    fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', '   '), lengthAround(500), oddString, wrongValue), {
      maxLength: 22,
    }),
    fc.array(fc.constant('Still there?'), { minLength: 19, maxLength: 22 }),
    wrongValue,
  ),
  realTime: fc.oneof(boolish, wrongValue),
  silenceThreshold: fc.oneof(
    fc.constantFrom(0, 1, 2, 3599, 3600, 3601, -1, 1.5, 3600.5, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, -0, 1e-9, 1e308, -1e308),
    fc.integer(),
    fc.double(),
    wrongValue,
  ),
  interrupt: fc.oneof(boolish, wrongValue),
  outcome: fc.oneof(fc.string(), lengthAround(20_000), oddString, wrongValue),
  outcomeResponseShape: fc.oneof(randomShape, validShape, deepShape, fc.constant(null)),
  webhookUrl: fc.oneof(
    fc.webUrl({ validSchemes: ['http', 'https', 'ftp', 'file'] }),
    fc.constantFrom(
      'http://',
      'https://localhost:99999',
      'javascript:alert(1)',
      'http://[::1]/',
      'http://例え.テスト/',
      'http://a b/',
      'HTTPS://X.TEST',
    ),
    fc.constant(`https://hooks.example.test/${'a'.repeat(2030)}`),
    fc.constant(null),
    wrongValue,
  ),
  webhookAuth: fc.oneof(
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
  ),
  voiceId: fc.oneof(
    fc.constantFrom(...VOICE_IDS),
    fc.constantFrom(...VOICE_IDS).map((id) => id.toUpperCase()),
    fc.uuid(),
    fc.string(),
    wrongValue,
  ),
  tools: fc.oneof(
    fc.record({ genderDetection: boolish, smartCallEnd: boolish, recordCalls: fc.boolean() }, { requiredKeys: [] }),
    wrongValue,
  ),
  params: fc.oneof(
    fc.dictionary(paramName, fc.oneof(fc.string(), lengthAround(10_000), wrongValue), { maxKeys: 6 }),
    // Around the limit of 100 params.
    fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.constant('v'), { minKeys: 99, maxKeys: 102 }),
    wrongValue,
  ),
}

/** Changes the contract accepts, for PATCH (all optional) and, with agentName, for create. */
const validAgentChanges = parserSafe(
  fc.record(
    {
      agentName: nonBlank(40),
      greetingMessage: fc.string({ maxLength: 80 }),
      preamble: fc.oneof(fc.string({ maxLength: 80 }), fc.jsonValue({ maxDepth: 3 })),
      lang: fc.constantFrom('ar', 'en'),
      pokeMessages: fc.array(nonBlank(40), { maxLength: 5 }),
      realTime: fc.boolean(),
      silenceThreshold: fc.integer({ min: 1, max: 3600 }),
      interrupt: fc.boolean(),
      outcome: fc.string({ maxLength: 80 }),
      outcomeResponseShape: fc.option(validShape),
      webhookUrl: fc.option(
        fc.constantFrom('https://hooks.example.test/calls', 'http://127.0.0.1:9000/hook', 'https://example.test/a?b=c'),
      ),
      webhookAuth: fc.option(fc.record({ authKey: nonBlank(20), authSecret: fc.string({ minLength: 1, maxLength: 40 }) })),
      voiceId: fc.constantFrom(...VOICE_IDS),
      tools: fc.record({ genderDetection: fc.boolean(), smartCallEnd: fc.boolean() }, { requiredKeys: [] }),
      params: validParams,
    },
    { requiredKeys: [] },
  ),
)
const validCreateBody = fc
  .record({ changes: validAgentChanges, agentName: nonBlank(40), description: fc.option(fc.string({ maxLength: 80 }), { nil: undefined }) })
  .map(({ changes, agentName, description }) => ({ ...changes, agentName, ...(description === undefined ? {} : { description }) }))

// Phone number fields -------------------------------------------------------------------------

const digits = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength })
/** Possible US numbers from a pool of 100, so repeats (409) are frequent. */
const possibleNumber = fc.integer({ min: 0, max: 99 }).map((n) => `+1415555${String(n).padStart(4, '0')}`)
const phoneNumberValue = fc.oneof(
  possibleNumber,
  digits(1, 18).map((value) => `+${value}`),
  fc
    .tuple(digits(1, 3), digits(3, 12), fc.constantFrom(' ', '-', '.', '(', ')', ''))
    .map(([country, rest, separator]) => `+${country}${separator}${rest}`),
  fc.constantFrom('+', '', '+0', '++1', '+1 (415) 555-0100', '00441234567', '+1\u0000415', '+١٢٣٤٥٦٧٨', '+14155550100\n'),
  lengthAround(32, '5').map((value) => `+${value}`),
  fc.string(),
  wrongValue,
)
const phoneFieldValues: Record<string, fc.Arbitrary<unknown>> = {
  type: fc.oneof(fc.constantFrom('TELEPHONY', 'telephony', 'TWILIO', ''), wrongValue),
  phoneNumber: phoneNumberValue,
  label: fc.oneof(nonBlank(30), fc.constantFrom('', '  '), lengthAround(100), oddString, wrongValue),
  providerAccountSid: fc.oneof(nonBlank(30), fc.constantFrom('', '  '), lengthAround(200), wrongValue),
  providerAuthToken: fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constant(''), lengthAround(2000), wrongValue),
}
const validAddNumberBody = parserSafe(
  fc.record({
    type: fc.constant('TELEPHONY'),
    phoneNumber: possibleNumber,
    label: nonBlank(30),
    providerAccountSid: nonBlank(30),
    providerAuthToken: fc.string({ minLength: 1, maxLength: 30 }),
  }),
)

/** The fixture's number as people write it: the service stores and compares E.164. */
const formattedNumber = (e164: string) =>
  fc.constantFrom(
    e164,
    `${e164.slice(0, 2)} ${e164.slice(2, 5)} ${e164.slice(5, 8)}-${e164.slice(8)}`,
    `${e164.slice(0, 2)} (${e164.slice(2, 5)}) ${e164.slice(5)}`,
    ` ${e164} `,
  )

// Ids in URLs ---------------------------------------------------------------------------------

/**
 * Random ids: mostly percent-encoded, sometimes raw (a malformed escape such as `%` or `%zz`
 * in the path), and sometimes far longer than the router's parameter limit.
 */
const randomId = fc.oneof(
  fc
    .oneof(
      fc.uuid(),
      fc.string(),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom('', 'templates', 'phone-number', 'list', '..', '%', '%25', 'null', 'a/b', '?x=1', '#', ' '),
      lengthAround(100, 'f'),
    )
    .map(encodeURIComponent),
  fc.constantFrom('%', '%zz', '%E0%A4%A', 'a%'),
  fc.integer({ min: 101, max: 2_000 }).map((length) => 'a'.repeat(length)),
)

// ---------------------------------------------------------------------------------------------
// Body generators, shared by every endpoint
// ---------------------------------------------------------------------------------------------

/**
 * Puts a body on a URL. A URL the handler refuses (unknown id, missing query) is never accepted,
 * but body errors (400, 413, 415) still come first.
 */
/** A query parameter given twice is refused before the body is read (docs/api.md, Network). */
const REPEATED_QUERY_PARAMETER = /[?&]([^=&]+)=[^&]*&(?:.*&)?\1=/

function onUrl(method: FuzzRequest['method'], url: string, body: BodyCase, urlIsValid: boolean): FuzzRequest {
  if (REPEATED_QUERY_PARAMETER.test(url)) return { method, url, ...body, expected: refused('VALIDATION_ERROR') }
  if (urlIsValid) return { method, url, ...body }
  return { method, url, ...body, expected: isBodyError(body) ? body.expected : { statuses: [400, 404, 413, 415] } }
}

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

const createSpec: BodySpec = {
  fields: { ...agentFieldValues, description: fc.oneof(fc.string(), lengthAround(1000), wrongValue) },
  valid: validCreateBody,
  validStatuses: [200],
  numberFields: ['silenceThreshold'],
}
const updateSpec: BodySpec = {
  fields: agentFieldValues,
  valid: validAgentChanges,
  validStatuses: [200],
  numberFields: ['silenceThreshold'],
}
const cloneSpec: BodySpec = {
  fields: { agentName: agentFieldValues.agentName! },
  valid: parserSafe(fc.record({ agentName: nonBlank(40) }, { requiredKeys: [] })),
  validStatuses: [200],
}
const addNumberSpec: BodySpec = { fields: phoneFieldValues, valid: validAddNumberBody, validStatuses: [200, 409] }

function assignSpec(fixture: Fixture): BodySpec {
  const numbers = fc.oneof(formattedNumber(fixture.assignedNumber), formattedNumber(fixture.spareNumber))
  return {
    fields: {
      voiceAgentId: fc.oneof(
        fc.constantFrom(fixture.agentId, fixture.otherAgentId, fixture.agentId.toUpperCase(), ` ${fixture.agentId}`),
        fc.uuid(),
        fc.string(),
        wrongValue,
      ),
      phoneNumber: fc.oneof(numbers, phoneNumberValue),
    },
    valid: fc.record({ voiceAgentId: fc.constantFrom(fixture.agentId, fixture.otherAgentId), phoneNumber: numbers }),
    validStatuses: [200],
  }
}

function unassignSpec(fixture: Fixture): BodySpec {
  const numbers = fc.oneof(formattedNumber(fixture.assignedNumber), formattedNumber(fixture.spareNumber))
  return { fields: { phoneNumber: fc.oneof(numbers, phoneNumberValue) }, valid: fc.record({ phoneNumber: numbers }), validStatuses: [200] }
}

async function startFixture(): Promise<Fixture> {
  const service = await startTestService()
  const ok = async (response: Promise<LightMyRequestResponse>) => {
    const answer = await response
    expect(answer.statusCode, answer.body).toBe(200)
    return answer.json().data
  }
  const agent = await ok(
    service.call('POST', '/v1/voice-agents', {
      body: {
        agentName: 'Fuzz fixture',
        params: { name: 'Sam' },
        outcomeResponseShape: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      },
    }),
  )
  const templates = await ok(service.call('GET', '/v1/voice-agents/templates'))
  const cloneSourceId: string = templates[0]?.id ?? agent.id
  const other = await ok(
    service.call('POST', `/v1/voice-agents/clone?voiceAgentId=${cloneSourceId}`, { body: { agentName: 'Second fixture' } }),
  )
  const numberBody = { type: 'TELEPHONY', label: 'Fixture', providerAccountSid: 'AC123', providerAuthToken: 'token-123' }
  const assigned = await ok(service.call('POST', '/v1/voice-agents/phone-number', { body: { ...numberBody, phoneNumber: '+14155550100' } }))
  const spare = await ok(service.call('POST', '/v1/voice-agents/phone-number', { body: { ...numberBody, phoneNumber: '+442079460000' } }))
  await ok(service.call('POST', '/v1/voice-agents/assign-number', { body: { voiceAgentId: agent.id, phoneNumber: assigned.number } }))
  return {
    service,
    sql: await testSqlOf(service.runtime),
    agentId: agent.id,
    otherAgentId: other.id,
    cloneSourceId,
    assignedNumber: assigned.number,
    spareNumber: spare.number,
  }
}

describe('write endpoints under random and malformed bodies: no 5xx, the error envelope, no change on error', () => {
  let fixture: Fixture
  beforeEach(async () => {
    fixture = await startFixture()
  })
  afterEach(async () => {
    await fixture.sql.close()
  })

  it('POST /v1/voice-agents', { timeout: TEST_TIMEOUT_MS }, async () => {
    const requests = casesOf(createSpec).map((body) => onUrl('POST', '/v1/voice-agents', body, true))
    await fuzz(fixture, requests, RUNS.create, deleteCreatedAgent(fixture))
  })

  it('PATCH /v1/voice-agents/{id}', { timeout: TEST_TIMEOUT_MS }, async () => {
    // Mostly the fixture agent, so bodies reach the update; sometimes an id that does not exist.
    const target = fc.oneof(
      { weight: 9, arbitrary: fc.constant({ id: fixture.agentId, real: true }) },
      { weight: 1, arbitrary: fc.uuid().map((id) => ({ id, real: false })) },
    )
    const requests = fc
      .record({ target, body: casesOf(updateSpec) })
      .map(({ target, body }) => onUrl('PATCH', `/v1/voice-agents/${target.id}`, body, target.real))
    await fuzz(fixture, requests, RUNS.update)
  })

  it('POST /v1/voice-agents/clone', { timeout: TEST_TIMEOUT_MS }, async () => {
    const query = fc.oneof(
      {
        weight: 8,
        arbitrary: fc.constantFrom(fixture.cloneSourceId, fixture.agentId).map((id) => ({ query: `?voiceAgentId=${id}`, real: true })),
      },
      {
        weight: 2,
        arbitrary: fc
          .oneof(
            randomId.map((id) => `?voiceAgentId=${id}`),
            fc.constantFrom(
              '',
              '?voiceAgentId=',
              `?voiceAgentId=${fixture.agentId}&voiceAgentId=${fixture.agentId}`,
              '?voiceAgentId=%',
              '?voiceagentid=x',
            ),
          )
          .map((query) => ({ query, real: false })),
      },
    )
    const requests = fc
      .record({ query, body: casesOf(cloneSpec) })
      .map(({ query, body }) => onUrl('POST', `/v1/voice-agents/clone${query.query}`, body, query.real))
    await fuzz(fixture, requests, RUNS.clone, deleteCreatedAgent(fixture))
  })

  it('POST /v1/voice-agents/phone-number', { timeout: TEST_TIMEOUT_MS }, async () => {
    const requests = casesOf(addNumberSpec).map((body) => onUrl('POST', '/v1/voice-agents/phone-number', body, true))
    await fuzz(fixture, requests, RUNS.addNumber)
  })

  it('POST /v1/voice-agents/assign-number', { timeout: TEST_TIMEOUT_MS }, async () => {
    const requests = casesOf(assignSpec(fixture)).map((body) => onUrl('POST', '/v1/voice-agents/assign-number', body, true))
    await fuzz(fixture, requests, RUNS.assign)
  })

  it('POST /v1/voice-agents/unassign', { timeout: TEST_TIMEOUT_MS }, async () => {
    const requests = casesOf(unassignSpec(fixture)).map((body) => onUrl('POST', '/v1/voice-agents/unassign', body, true))
    await fuzz(fixture, requests, RUNS.unassign)
  })

  it('DELETE /v1/voice-agents/{id} with random ids never deletes anything', { timeout: TEST_TIMEOUT_MS }, async () => {
    const requests = randomId
      .filter((id) => id !== fixture.agentId && id !== fixture.otherAgentId)
      .map((id): FuzzRequest => ({ method: 'DELETE', url: `/v1/voice-agents/${id}`, expected: { statuses: [400, 404] } }))
    await fuzz(fixture, requests, RUNS.deleteAgent)
  })

  it('DELETE /v1/voice-agents/phone-number with random pids never deletes anything', { timeout: TEST_TIMEOUT_MS }, async () => {
    const query = fc.oneof(
      randomId.map((id) => `?pid=${id}`),
      fc.record({ id: randomId, junk: fc.string() }).map(({ id, junk }) => `?pid=${id}&${encodeURIComponent(junk)}=1`),
      fc.constantFrom('', '?', '?pid', '?pid=', '?pid=a&pid=b', '?PID=x', '?pid[]=x', '?pid[a]=1', '?pid=%', '?pid=%zz', '?pid=%E0%A4%A'),
    )
    const requests = query.map((query): FuzzRequest => ({
      method: 'DELETE',
      url: `/v1/voice-agents/phone-number${query}`,
      expected: { statuses: [400, 404] },
    }))
    await fuzz(fixture, requests, RUNS.deleteNumber)
  })

  it.skipIf(onPostgres)(
    'a __proto__ or constructor.prototype key is INVALID_JSON on every body endpoint',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const endpoints: [FuzzRequest['method'], string, BodySpec][] = [
        ['POST', '/v1/voice-agents', createSpec],
        ['PATCH', `/v1/voice-agents/${fixture.agentId}`, updateSpec],
        ['POST', `/v1/voice-agents/clone?voiceAgentId=${fixture.cloneSourceId}`, cloneSpec],
        ['POST', '/v1/voice-agents/phone-number', addNumberSpec],
        ['POST', '/v1/voice-agents/assign-number', assignSpec(fixture)],
        ['POST', '/v1/voice-agents/unassign', unassignSpec(fixture)],
      ]
      const requests = fc.oneof(...endpoints.map(([method, url, spec]) => pollutedBody(spec).map((body) => onUrl(method, url, body, true))))
      await fuzz(fixture, requests, RUNS.poison)
    },
  )

  it.skipIf(onPostgres)(
    'bodies around 1 MiB are 413 exactly when they are over it, counted in bytes',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const requests = fc
        .record({
          bytes: fc.integer({ min: BODY_LIMIT_BYTES - 8, max: BODY_LIMIT_BYTES + 8 }),
          twoByteChars: fc.integer({ min: 0, max: 100 }),
        })
        .map(({ bytes, twoByteChars }): FuzzRequest => {
          const frame = '{"agentName":""}'
          const filler = 'é'.repeat(twoByteChars) + 'a'.repeat(bytes - frame.length - 2 * twoByteChars)
          const rawBody = `{"agentName":"${filler}"}`
          return {
            method: 'POST',
            url: '/v1/voice-agents',
            rawBody,
            // Under the limit the body is read and refused for its 1 MiB agentName.
            expected: bytes > BODY_LIMIT_BYTES ? { statuses: [413], code: 'PAYLOAD_TOO_LARGE' } : refused('VALIDATION_ERROR'),
          }
        })
      await fuzz(fixture, requests, RUNS.sizeLimit)
    },
  )

  it('a body of 1 MiB + 1 byte is 413 PAYLOAD_TOO_LARGE on every body endpoint', async () => {
    const overLimit = `{"agentName":"${'a'.repeat(BODY_LIMIT_BYTES + 1 - '{"agentName":""}'.length)}"}`
    expect(Buffer.byteLength(overLimit)).toBe(BODY_LIMIT_BYTES + 1)
    for (const [method, url] of bodyEndpoints(fixture)) {
      const response = await sendAndCheck(fixture, { method, url, rawBody: overLimit })
      expect(response.statusCode).toBe(413)
      expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE')
    }
  })

  it('the raw body {"__proto__": {"x": 1}} is 400 INVALID_JSON on every body endpoint', async () => {
    for (const [method, url] of bodyEndpoints(fixture)) {
      const response = await sendAndCheck(fixture, { method, url, rawBody: '{"__proto__": {"x": 1}}' })
      expect(response.statusCode).toBe(400)
      expect(response.json().error.code).toBe('INVALID_JSON')
    }
  })
})

function bodyEndpoints(fixture: Fixture): [FuzzRequest['method'], string][] {
  return [
    ['POST', '/v1/voice-agents'],
    ['PATCH', `/v1/voice-agents/${fixture.agentId}`],
    ['POST', `/v1/voice-agents/clone?voiceAgentId=${fixture.cloneSourceId}`],
    ['POST', '/v1/voice-agents/phone-number'],
    ['POST', '/v1/voice-agents/assign-number'],
    ['POST', '/v1/voice-agents/unassign'],
  ]
}
