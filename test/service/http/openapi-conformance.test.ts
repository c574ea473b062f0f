/**
 * The OpenAPI document and the server, held against each other on generated requests, in both
 * directions. For every operation of GET /v1/openapi.json, requests are generated from its
 * parameters' and body's schemas (fast-check, seeded: the same requests every run):
 *  (a) a request the schema accepts is not refused with 400 (a 404 for an id that does not
 *      exist, a 409 for a state, are answers, not refusals); the few refusals a schema cannot
 *      express are listed in SEMANTIC_REFUSALS, each with its reason (docs/api.md says them too);
 *  (b) a request the schema rejects (one change next to a valid one: a wrong type, a missing
 *      required field, an unknown field, an out-of-pattern string) gets 400 in the envelope;
 *  (c) every answer's status is documented for that operation and its body validates against
 *      the documented schema for that status (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import fc, { type Arbitrary } from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { describe, expect, it } from 'vitest'
import { VOICES } from '../../../src/shared/voices'
import { mutantsOf, validValues, type ArbitraryOptions, type Schema } from '../../helpers/schema-arbitraries'
import { seedJob } from '../../helpers/seed-jobs'
import { startTestService, type TestService } from '../../helpers/test-service'

/** Generated requests per operation and direction: a few each, so the file stays cheap. */
const VALID_RUNS = 6
const INVALID_RUNS = 6
/** The seed of every run (each operation adds its index): the same requests, the same answers. */
const SEED = 2711

const METHODS = ['get', 'post', 'patch', 'delete'] as const
type Method = (typeof METHODS)[number]

/**
 * Operations left out, and why: the documents themselves (their 200 is the document this test
 * reads); realtime speech (each accepted request synthesizes or transcribes audio, seconds of
 * CPU: realtime-tts.test.ts and realtime-stt-json.test.ts hold them to their schemas).
 */
const SKIPPED = new Set(['getOpenApiDocument', 'getAsyncApiDocument', 'synthesizeSpeech', 'streamSpeech', 'transcribeSpeech'])

/**
 * Refusals of schema-valid requests that a JSON Schema cannot say: `operationId body.path` (or
 * `query.name`) and the detail message they carry. docs/api.md ("The OpenAPI document and the
 * server") lists the same.
 */
const SEMANTIC_REFUSALS: { where: RegExp; message: RegExp; why: string }[] = [
  {
    where: /^add(Provider)?PhoneNumber body\.phoneNumber$/,
    message: /is not a possible number for its country code/,
    why: "the country's numbering plan (libphonenumber) is beyond a pattern",
  },
  {
    where: /^createTranslationJob body\.fromLng$/,
    message: /must differ from toLng/,
    why: 'JSON Schema cannot compare two values',
  },
  {
    where: / query\.(endPeriod|endTime)$/,
    message: /^Must not be before start(Period|Time)$/,
    why: 'OpenAPI describes query parameters one by one: a rule between two cannot be stated',
  },
  {
    where: / query\.(endPeriod|startPeriod|period)$/,
    message: /^Required for a custom period$|make a custom period/,
    why: 'OpenAPI describes query parameters one by one: a rule between two cannot be stated',
  },
  {
    where: / body\.(outcomeResponseShape|.*\.outcomeResponseShape)\b.*\.required\.\d+$/,
    message: /^required names ".*", which is not in properties$/,
    why: 'JSON Schema cannot say that the names of one list are the keys of an object',
  },
]

interface Parameter {
  name: string
  in: 'path' | 'query' | 'header'
  required?: boolean
  schema: Schema
}

interface Operation {
  operationId: string
  method: Method
  path: string
  parameters: Parameter[]
  body?: { schema: Schema; required: boolean }
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>
}

interface GeneratedRequest {
  path: Record<string, unknown>
  query: Record<string, unknown>
  body?: unknown
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document is walked as plain JSON
type Json = any

function operationsOf(document: Json): Operation[] {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method]
      const json = operation.requestBody?.content?.['application/json']
      return {
        operationId: operation.operationId as string,
        method,
        path,
        parameters: ((operation.parameters ?? []) as Parameter[]).filter((parameter) => parameter.in !== 'header'),
        body: json ? { schema: json.schema, required: operation.requestBody.required === true } : undefined,
        responses: operation.responses,
      }
    }),
  )
}

/** The parameters of one place (path or query) as one object schema. */
function parametersSchema(operation: Operation, place: 'path' | 'query'): Schema {
  const parameters = operation.parameters.filter((parameter) => parameter.in === place)
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  }
}

function validators(document: Json) {
  const options = { strict: false, allErrors: true } as const
  const plain = new Ajv2020(options)
  // Query and path values travel as text: the server coerces them as ajv does here.
  const coercing = new Ajv2020({ ...options, coerceTypes: true })
  for (const ajv of [plain, coercing]) {
    addFormats(ajv)
    ajv.addSchema({ $id: 'openapi', components: document.components })
  }
  const cache = new Map<string, ValidateFunction>()
  return (schema: Schema, coerce = false): ValidateFunction => {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')
    const key = `${coerce}:${text}`
    let validate = cache.get(key)
    if (!validate) {
      validate = (coerce ? coercing : plain).compile(JSON.parse(text))
      cache.set(key, validate)
    }
    return validate
  }
}

function urlOf(operation: Operation, request: GeneratedRequest): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) => encodeURIComponent(String(request.path[name])))
  // An array parameter is repeated (OpenAPI's default style: form, exploded).
  const query = Object.entries(request.query)
    .filter(([, value]) => value !== undefined)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((item) => [name, item] as const))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`)
  return query.length > 0 ? `${path}?${query.join('&')}` : path
}

async function send(service: TestService, operation: Operation, request: GeneratedRequest): Promise<LightMyRequestResponse> {
  const method = operation.method.toUpperCase() as 'GET' | 'POST' | 'PATCH' | 'DELETE'
  const body = request.body === undefined || request.body === null ? {} : { body: request.body }
  return service.call(method, urlOf(operation, request), body)
}

interface Fixture {
  service: TestService
  hints: Record<string, readonly unknown[]>
}

/** One of each record the operations take ids of, so that generated requests reach real records too. */
async function fixture(): Promise<Fixture> {
  const service = await startTestService()
  const agent = (await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Conformance desk' } })).json().data
  const template = (await service.call('GET', '/v1/voice-agents/templates')).json().data[0]
  const phoneNumber = '+14155550123'
  const number = (
    await service.call('POST', '/v1/voice-agents/phone-number', {
      body: { type: 'TELEPHONY', phoneNumber, label: 'Desk', providerAccountSid: 'AC1', providerAuthToken: 'token' },
    })
  ).json().data
  const source = await seedJob(service.runtime, { title: 'Conformance source', text: 'We ship the billing page on Friday.' })
  const ai = (await service.call('POST', `/v1/jobs/ai-content?jobId=${source.id}`, { body: { aiParts: ['summary'] } })).json().data
  const call = (await service.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: agent.id } })).json().data
  const dictionary = (
    await service.call('POST', '/v1/voice-agents/voice-dictionaries', {
      body: { name: 'Conformance words', words: [{ word: 'ibuprofen', pronunciation: 'eye byoo pro fen' }] },
    })
  ).json().data
  for (const answer of [agent, template, number, ai, call, dictionary]) expect(answer?.id ?? answer?.jobId).toBeTruthy()
  const jobIds = [source.id, ai.id, call.jobId]
  return {
    service,
    hints: {
      voiceAgentId: [agent.id, template.id],
      jobId: jobIds,
      pid: [number.id],
      id: [dictionary.id],
      projectId: [service.runtime.bootstrap.projectId],
      phoneNumber: [phoneNumber],
      voiceId: [VOICES[0]!.id],
      version: [1],
    },
  }
}

function requestArbitrary(operation: Operation, options: ArbitraryOptions): Arbitrary<GeneratedRequest> {
  const body = operation.body
  // The generator follows the keywords it knows; the validator has the last word (`not`, dependentSchemas, formats).
  const bodyValues = body && validValues(body.schema, options).filter((value) => options.accepts?.(body.schema, value) ?? true)
  return fc.record({
    path: validValues(parametersSchema(operation, 'path'), options),
    query: validValues(parametersSchema(operation, 'query'), options),
    ...(body && bodyValues ? { body: body.required ? bodyValues : fc.option(bodyValues, { nil: undefined }) } : {}),
  }) as Arbitrary<GeneratedRequest>
}

/** The requests next to `request` that the document rejects, each with what was changed. */
function rejectedNeighbours(
  operation: Operation,
  request: GeneratedRequest,
  options: ArbitraryOptions,
  validatorOf: ReturnType<typeof validators>,
): { request: GeneratedRequest; change: string }[] {
  const found: { request: GeneratedRequest; change: string }[] = []
  if (operation.body) {
    const validate = validatorOf(operation.body.schema)
    for (const mutant of mutantsOf(operation.body.schema, request.body ?? {}, options)) {
      // A missing optional body is valid (null stands for none): only a present, rejected body counts.
      if (mutant.value === null && !operation.body.required) continue
      if (!validate(mutant.value)) found.push({ request: { ...request, body: mutant.value }, change: mutant.change })
    }
  }
  for (const place of ['query', 'path'] as const) {
    const schema = parametersSchema(operation, place)
    const validate = validatorOf(schema, true)
    for (const mutant of mutantsOf(schema, request[place], options, place)) {
      const value = mutant.value as Record<string, unknown>
      if (value === null || typeof value !== 'object' || Array.isArray(value)) continue
      // Every value travels as text; an empty path segment would be another route.
      if (place === 'path' && Object.values(value).some((item) => item === '' || item === undefined || typeof item === 'object')) continue
      if (place === 'path' && Object.keys(value).length !== Object.keys(request.path).length) continue
      if (Object.values(value).some((item) => item !== null && typeof item === 'object')) continue
      const asText = Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, typeof item === 'string' ? item : JSON.stringify(item)]),
      )
      if (!validate(structuredClone(asText))) found.push({ request: { ...request, [place]: asText }, change: mutant.change })
    }
  }
  return found
}

/** (c): the status is documented and the body is what the document says for it. */
function answerProblems(operation: Operation, response: LightMyRequestResponse, validatorOf: ReturnType<typeof validators>): string[] {
  const documented = operation.responses[String(response.statusCode)]
  if (!documented) return [`status ${response.statusCode} is not documented (${response.body.slice(0, 200)})`]
  const contentType = String(response.headers['content-type'] ?? '').split(';')[0]!
  const content = documented.content ?? {}
  if (Object.keys(content).length === 0) return []
  if (!Object.keys(content).includes(contentType))
    return [`status ${response.statusCode} answered ${contentType}, documented ${Object.keys(content).join(', ')}`]
  const schema = content[contentType]?.schema
  if (contentType !== 'application/json' || !schema) return []
  const validate = validatorOf(schema)
  if (validate(response.json())) return []
  return [`status ${response.statusCode} body departs from its schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`]
}

function semanticRefusal(operation: Operation, response: LightMyRequestResponse): boolean {
  const details = (response.json().error?.details ?? []) as { path: string; message: string }[]
  return (
    details.length > 0 &&
    details.every((detail) =>
      SEMANTIC_REFUSALS.some(
        (refusal) => refusal.where.test(`${operation.operationId} ${detail.path}`) && refusal.message.test(detail.message),
      ),
    )
  )
}

const describeRequest = (operation: Operation, request: GeneratedRequest): string =>
  `${operation.method.toUpperCase()} ${urlOf(operation, request)} ${JSON.stringify(request.body)?.slice(0, 300) ?? ''}`

describe('The OpenAPI document and the server, on generated requests', () => {
  it('agree in both directions for every operation, every answer as documented', async () => {
    const { service, hints } = await fixture()
    const document: Json = (await service.call('GET', '/v1/openapi.json')).json()
    const validatorOf = validators(document)
    const options: ArbitraryOptions = {
      resolve: (ref) => document.components.schemas[ref.split('/').pop()!],
      hints,
      accepts: (schema, value) => validatorOf(schema)(value),
    }
    // Deletions last, so that the records other operations take stay until then.
    const operations = operationsOf(document)
      .filter((operation) => !SKIPPED.has(operation.operationId))
      .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'))
    expect(operations.length).toBeGreaterThan(45)

    const problems: string[] = []
    const counts = { valid: 0, rejected: 0, accepted: 0 }
    for (const [index, operation] of operations.entries()) {
      const requests = fc.sample(requestArbitrary(operation, options), { seed: SEED + index, numRuns: VALID_RUNS })
      for (const request of requests) {
        const response = await send(service, operation, request)
        counts.valid += 1
        if (response.statusCode < 300) counts.accepted += 1
        const where = `${operation.operationId} (valid) ${describeRequest(operation, request)}`
        if (response.statusCode === 400 && !semanticRefusal(operation, response))
          problems.push(`${where}: refused with 400 ${response.body.slice(0, 300)}`)
        problems.push(...answerProblems(operation, response, validatorOf).map((problem) => `${where}: ${problem}`))
      }
      const neighbours = requests.flatMap((request) => rejectedNeighbours(operation, request, options, validatorOf))
      const picked = neighbours.length > 0 ? fc.sample(fc.constantFrom(...neighbours), { seed: SEED + index, numRuns: INVALID_RUNS }) : []
      for (const { request, change } of picked) {
        const response = await send(service, operation, request)
        counts.rejected += 1
        const where = `${operation.operationId} (${change}) ${describeRequest(operation, request)}`
        // A path that names nothing (a file name out of its pattern) is not found, as an unknown id is.
        const pathNotFound = change.startsWith('out-of-pattern string for path.') || change.startsWith('wrong type for path.')
        const notFound = pathNotFound && response.statusCode === 404 && response.json().error?.code === 'NOT_FOUND'
        if (notFound) {
          // Answered as an unknown id is: documented (checked below), not a refusal.
        } else if (response.statusCode !== 400)
          problems.push(`${where}: answered ${response.statusCode}, not 400: ${response.body.slice(0, 200)}`)
        else if (!['VALIDATION_ERROR', 'INVALID_JSON'].includes(response.json().error?.code))
          problems.push(`${where}: 400 without its code`)
        problems.push(...answerProblems(operation, response, validatorOf).map((problem) => `${where}: ${problem}`))
      }
    }
    // Not a run that refuses everything: many valid requests are answered with success.
    expect(counts.accepted, JSON.stringify(counts)).toBeGreaterThan(operations.length)
    expect(counts.rejected).toBeGreaterThan(operations.length * 2)
    expect(problems).toEqual([])
  })
})
