/**
 * fast-check generators for fuzzing JSON request bodies: values of every wrong type, strings on
 * both sides of a length limit, and whole bodies that are valid, near valid, mistyped, polluted
 * with `__proto__`, nested too deep, malformed, or sent with the wrong Content-Type.
 *
 * An endpoint is described by a BodySpec (its fields, each with values from valid to absurd, and
 * bodies it accepts); `bodyCases(spec)` then mixes every kind of body for it. Shared by the
 * agent and number fuzz test and the job fuzz test.
 */
import fc from 'fast-check'
import { MAX_BODY_DEPTH } from '../../src/service/http/json-body-parser'
import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import { ErrorEnvelopeSchema, type ErrorCode } from '../../src/shared/api/errors'

// ---------------------------------------------------------------------------------------------
// What a generated case knows about its answer
// ---------------------------------------------------------------------------------------------

/** What a generated case knows about its answer, beyond the invariants every answer keeps. */
export interface Expected {
  statuses: readonly number[]
  code?: ErrorCode
}

export interface BodyCase {
  /** Sent as JSON. */
  body?: unknown
  /** Sent as is (malformed JSON, raw `__proto__` keys, deep nesting, escapes such as "\ud800"). */
  rawBody?: string
  headers?: Record<string, string>
  /** A body with no Content-Type header at all. */
  withoutContentType?: boolean
  expected?: Expected
}

export const accepted = (statuses: readonly number[]): Expected => ({ statuses })
export const refused = (code: ErrorCode): Expected => ({ statuses: [code === 'UNSUPPORTED_MEDIA_TYPE' ? 415 : 400], code })

/** True when the case is known to be refused for its body alone (400, 413, 415), whatever the URL. */
export const isBodyError = (body: BodyCase): boolean =>
  body.expected !== undefined && body.expected.statuses.every((status) => status >= 400)

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/** Strings of exactly n-2 .. n+2 characters, to sit on both sides of a length limit. */
export const lengthAround = (n: number, char = 'a') =>
  fc.integer({ min: n - 2, max: n + 2 }).map((length) => char.repeat(Math.max(0, length)))

export const hugeString = fc.integer({ min: 2_000, max: 150_000 }).map((length) => 'x'.repeat(length))

/** Strings with lone surrogates and control characters, which survive JSON but not every store. */
export const oddString = fc.constantFrom('\ud800', 'a\udfffb', '\u0000', '\u202e\u200b', ' \t\n ', 'مرحبا {{name}}', '😀'.repeat(30))

/** A value of some JSON type, for a field that expects another. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  hugeString,
  oddString,
  fc.integer(),
  fc.integer({ max: -1 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
)

/** Printable text that is not blank (trimmed fields need at least one real character). */
export const nonBlank = (maxLength: number) => fc.string({ minLength: 1, maxLength }).filter((value) => value.trim().length > 0)

/** Object keys that are never refused by the JSON parser itself. */
export const safeKey = (key: string) => key !== '__proto__' && key !== 'constructor' && key !== 'prototype'

/** Random JSON may hold keys the parser refuses outright; valid bodies must not. */
export const parserSafe = <T>(values: fc.Arbitrary<T>) => values.filter((value) => !/"(__proto__|constructor)"/.test(JSON.stringify(value)))

/** Number literals JSON.stringify never writes: overflow to Infinity, exponents, -0, huge integers. */
export const numberLiteral = fc.constantFrom(
  '1e400',
  '-1e400',
  '1E3',
  '3.6e3',
  '1.0',
  '3600.0000000000001',
  '-0',
  '0.1e1',
  '12345678901234567890123',
  '1e-400',
  '0x10',
  '01',
  '+1',
  '.5',
)

// ---------------------------------------------------------------------------------------------
// Whole bodies, for any endpoint described by a BodySpec
// ---------------------------------------------------------------------------------------------

export interface BodySpec {
  /** The endpoint's real field names, each with values from valid to absurd. */
  fields: Record<string, fc.Arbitrary<unknown>>
  /** Bodies the endpoint accepts, with the statuses a valid body may get on the fixture. */
  valid: fc.Arbitrary<Record<string, unknown>>
  validStatuses: readonly number[]
  /** Fields that take numbers, for literal forms that JSON.stringify never writes. */
  numberFields?: string[]
}

/** Whole bodies of any shape: primitives, arrays, objects, nothing at all. */
export const wholeValueBody = fc.oneof(fc.anything(), fc.jsonValue()).map((body): BodyCase => ({ body }))

/** The real field names, every value of a wrong type. */
export const wrongTypedFields = (spec: BodySpec) =>
  fc
    .record(Object.fromEntries(Object.keys(spec.fields).map((name) => [name, wrongValue])), { requiredKeys: [] })
    .map((body): BodyCase => ({ body }))

/** A valid body with one field replaced by a value from that field's generator. */
export const nearValid = (spec: BodySpec) =>
  fc.oneof(
    ...Object.entries(spec.fields).map(([name, values]) =>
      fc.record({ valid: spec.valid, value: values }).map(({ valid, value }): BodyCase => ({ body: { ...valid, [name]: value } })),
    ),
  )

/** A valid body with unknown keys besides: strict bodies refuse them (or the parser does). */
export const unknownKeys = (spec: BodySpec) =>
  fc
    .record({
      valid: spec.valid,
      extra: fc.dictionary(
        fc.string().filter((key) => !Object.hasOwn(spec.fields, key) && key !== 'constructor'),
        fc.jsonValue({ maxDepth: 2 }),
        { minKeys: 1, maxKeys: 3 },
      ),
    })
    .map(({ valid, extra }): BodyCase => ({ body: { ...valid, ...extra }, expected: { statuses: [400] } }))

/** A valid body, sometimes with a numeric field written as an odd literal. */
export function validBody(spec: BodySpec): fc.Arbitrary<BodyCase> {
  const plain = spec.valid.map((body): BodyCase => ({ body, expected: accepted(spec.validStatuses) }))
  if (!spec.numberFields) return plain
  const marker = '@@number-literal@@'
  const literal = fc
    .record({ valid: spec.valid, field: fc.constantFrom(...spec.numberFields), literal: numberLiteral })
    .map(({ valid, field, literal }): BodyCase => ({
      rawBody: JSON.stringify({ ...valid, [field]: marker }).replace(JSON.stringify(marker), literal),
    }))
  return fc.oneof({ weight: 3, arbitrary: plain }, { weight: 1, arbitrary: literal })
}

/** A JSON string for `name` with some characters written as \u escapes, in either hex case. */
export const escapedKey = (name: string) =>
  fc.array(fc.constantFrom('plain', 'lower', 'upper'), { minLength: name.length, maxLength: name.length }).map((forms) => {
    const chars = [...name].map((char, index) => {
      const hex = char.charCodeAt(0).toString(16).padStart(4, '0')
      return forms[index] === 'plain' ? char : `\\u${forms[index] === 'upper' ? hex.toUpperCase() : hex}`
    })
    return `"${chars.join('')}"`
  })

/**
 * `__proto__` and `constructor.prototype` keys, spelled plainly or with escapes, at the top or one
 * level down in a real field: always INVALID_JSON. The poison goes last, so no later duplicate key
 * can replace it.
 */
export const pollutedBody = (spec: BodySpec) =>
  fc
    .record({
      valid: spec.valid,
      protoKey: escapedKey('__proto__'),
      constructorKey: escapedKey('constructor'),
      value: fc.jsonValue({ maxDepth: 2 }),
      constructorForm: fc.boolean(),
      inField: fc.option(fc.constantFrom(...Object.keys(spec.fields)), { nil: undefined }),
    })
    .map(({ valid, protoKey, constructorKey, value, constructorForm, inField }): BodyCase => {
      const poison = constructorForm ? `${constructorKey}:{"prototype":${JSON.stringify(value)}}` : `${protoKey}:${JSON.stringify(value)}`
      const member = inField === undefined ? poison : `"${inField}":{${poison}}`
      const head = JSON.stringify(valid).slice(0, -1)
      return { rawBody: `${head}${head === '{' ? '' : ','}${member}}`, expected: refused('INVALID_JSON') }
    })

/** Nesting from 10 to 5,000 levels, whole or inside a field. Beyond 64 levels the parser refuses it. */
export const deeplyNested = (spec: BodySpec) =>
  fc
    .record({
      levels: fc.oneof(fc.integer({ min: 10, max: 5_000 }), fc.integer({ min: MAX_BODY_DEPTH - 4, max: MAX_BODY_DEPTH + 4 })),
      kind: fc.constantFrom('arrays', 'objects', 'constructors'),
      inField: fc.option(fc.constantFrom(...Object.keys(spec.fields)), { nil: undefined }),
    })
    .map(({ levels, kind, inField }): BodyCase => {
      const nested =
        kind === 'arrays'
          ? '['.repeat(levels) + ']'.repeat(levels)
          : // A key named constructor (without prototype) is legal but makes the parser scan the whole tree.
            `{"${kind === 'objects' ? 'a' : 'constructor'}":`.repeat(levels) + '{}' + '}'.repeat(levels)
      const depth = (kind === 'arrays' ? levels : levels + 1) + (inField === undefined ? 0 : 1)
      return {
        rawBody: inField === undefined ? nested : `{"${inField}":${nested}}`,
        expected: depth > MAX_BODY_DEPTH ? refused('VALIDATION_ERROR') : undefined,
      }
    })

const JSON_TWEAKS: Record<string, (text: string, spec: BodySpec) => string> = {
  trailingGarbage: (text) => `${text}x`,
  twoDocuments: (text) => `${text}${text}`,
  byteOrderMark: (text) => `\uFEFF${text}`,
  singleQuotes: (text) => text.replace(/"/g, "'"),
  trailingComma: (text) => text.replace(/}$/, ',}'),
  comment: (text) => `/* c */${text}`,
  nanValue: (text) => text.replace(/^\{/, '{"x":NaN,'),
  unquotedKey: (text) => text.replace(/^\{"(\w+)"/, '{$1'),
  // A real field twice: the first value is junk, a later one may win (JSON.parse keeps the last).
  duplicateKeys: (text, spec) => text.replace(/^\{/, `{"${Object.keys(spec.fields)[0]}":[1],`),
  rawControlChar: (text) => text.replace(/^\{/, '{"x":"a\u0001b",'),
  badEscape: (text) => text.replace(/^\{/, '{"x":"\\x41",'),
}

/** Broken JSON: valid text cut short or mangled, and random text. */
export const malformedJson = (spec: BodySpec) =>
  fc.oneof(
    fc.record({ valid: spec.valid, cut: fc.nat() }).map(({ valid, cut }): BodyCase => {
      const text = JSON.stringify(valid)
      return { rawBody: text.slice(0, cut % text.length) }
    }),
    fc
      .record({ valid: spec.valid, tweak: fc.constantFrom(...Object.keys(JSON_TWEAKS)) })
      .map(({ valid, tweak }): BodyCase => ({ rawBody: JSON_TWEAKS[tweak]!(JSON.stringify(valid), spec) })),
    fc
      .record({ valid: spec.valid, at: fc.nat(), junk: fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }) })
      .map(({ valid, at, junk }): BodyCase => {
        const text = JSON.stringify(valid)
        const index = at % (text.length + 1)
        return { rawBody: text.slice(0, index) + junk + text.slice(index) }
      }),
    fc.string({ unit: 'binary' }).map((rawBody): BodyCase => ({ rawBody })),
    fc.string().map((rawBody): BodyCase => ({ rawBody })),
  )

/** Media types that are not JSON must be 415 whatever the body; JSON look-alikes may go either way. */
export const wrongContentType = (spec: BodySpec) =>
  fc.oneof(
    fc
      .record({
        text: fc.oneof(
          spec.valid.map((valid) => JSON.stringify(valid)),
          fc.string({ minLength: 1 }),
        ),
        type: fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/xml',
          'text/json',
          '',
          'missing',
        ),
      })
      .map(({ text, type }): BodyCase => ({
        rawBody: text,
        ...(type === 'missing' ? { withoutContentType: true } : { headers: { 'content-type': type } }),
        expected: refused('UNSUPPORTED_MEDIA_TYPE'),
      })),
    fc
      .record({
        valid: spec.valid,
        type: fc.oneof(
          fc.constantFrom(
            'application/json; charset=utf-8',
            'APPLICATION/JSON',
            'application/json;',
            'application/json; charset=latin1',
            'application/jsonx',
            'application/vnd.api+json',
            'application/*',
            '*/*',
          ),
          fc.string(),
        ),
      })
      .map(({ valid, type }): BodyCase => ({ rawBody: JSON.stringify(valid), headers: { 'content-type': type } })),
  )

/** Bodies that say nothing: whether they are "no body" depends on the endpoint. */
export const emptyBody = fc.constantFrom('', ' ', '\n\t', 'null', '{}', '[]', '""', '0', 'true').map((rawBody): BodyCase => ({ rawBody }))

/** The whole mix for one endpoint; near-valid bodies weigh most, so validators are exercised deeply. */
export function bodyCases(spec: BodySpec): fc.Arbitrary<BodyCase> {
  return fc.oneof(
    { weight: 6, arbitrary: nearValid(spec) },
    { weight: 2, arbitrary: validBody(spec) },
    { weight: 2, arbitrary: wrongTypedFields(spec) },
    { weight: 2, arbitrary: wholeValueBody },
    { weight: 1, arbitrary: unknownKeys(spec) },
    { weight: 1, arbitrary: pollutedBody(spec) },
    { weight: 1, arbitrary: deeplyNested(spec) },
    { weight: 2, arbitrary: malformedJson(spec) },
    { weight: 1, arbitrary: wrongContentType(spec) },
    { weight: 1, arbitrary: emptyBody },
  )
}

/**
 * The cases that reach storage: valid bodies and valid bodies with one field changed. What
 * bodyCases adds (malformed JSON, wrong types, unknown or polluted keys, other content types)
 * is refused by the parser or the schema before any store is called, the same on every engine.
 */
export function storedBodyCases(spec: BodySpec): fc.Arbitrary<BodyCase> {
  return fc.oneof({ weight: 3, arbitrary: nearValid(spec) }, { weight: 1, arbitrary: validBody(spec) })
}

/**
 * An error answer is exactly the contract's envelope (no stack, no Fastify fields such as
 * statusCode), with a status this endpoint family may give and a code that status carries.
 */
export function expectErrorEnvelope(
  response: LightMyRequestResponse,
  codesByStatus: Record<number, readonly ErrorCode[]>,
  what: string | (() => string),
  expectedCode?: ErrorCode,
): void {
  // The checks below in plain JavaScript first: fuzz tests send thousands of requests, and
  // vitest's expect (and the request's description) cost more than the request. An answer they
  // refuse goes through expect, for its message.
  if (isErrorEnvelope(response, codesByStatus, expectedCode)) return
  const message = typeof what === 'string' ? what : what()
  const status = response.statusCode
  expect(Object.keys(codesByStatus), message).toContain(String(status))
  expect(response.headers['content-type'], message).toMatch(/^application\/json/)
  const body = response.json()
  expect(ErrorEnvelopeSchema.safeParse(body).error?.issues ?? [], message).toEqual([])
  expect(Object.keys(body).sort(), message).toEqual(['error', 'message', 'success'])
  expect(Object.keys(body.error).sort(), message).toEqual(['code', 'details'])
  for (const detail of body.error.details) expect(Object.keys(detail).sort(), message).toEqual(['message', 'path'])
  expect(body.message.length, message).toBeGreaterThan(0)
  expect(codesByStatus[status], message).toContain(body.error.code)
  if (expectedCode) expect(body.error.code, message).toBe(expectedCode)
  throw new Error(`isErrorEnvelope refused an answer the expectations take: ${message}`)
}

/** The checks of expectErrorEnvelope, as one boolean (never looser: an answer it takes passes every one of them). */
function isErrorEnvelope(
  response: LightMyRequestResponse,
  codesByStatus: Record<number, readonly ErrorCode[]>,
  expectedCode?: ErrorCode,
): boolean {
  const codes = Object.hasOwn(codesByStatus, String(response.statusCode)) ? codesByStatus[response.statusCode] : undefined
  const type = response.headers['content-type']
  if (!codes || typeof type !== 'string' || !/^application\/json/.test(type)) return false
  let body: unknown
  try {
    body = response.json()
  } catch {
    return false
  }
  const parsed = ErrorEnvelopeSchema.safeParse(body)
  if (!parsed.success || !hasKeys(body, ['error', 'message', 'success'])) return false
  const { error, message } = body as { error: { code: ErrorCode; details: unknown[] }; message: string }
  if (!hasKeys(error, ['code', 'details']) || !error.details.every((detail) => hasKeys(detail, ['message', 'path']))) return false
  return message.length > 0 && codes.includes(error.code) && (!expectedCode || error.code === expectedCode)
}

/** `value`'s own keys are exactly `sorted` (sorted). */
function hasKeys(value: unknown, sorted: string[]): boolean {
  if (typeof value !== 'object' || value === null) return false
  const keys = Object.keys(value).sort()
  return keys.length === sorted.length && keys.every((key, index) => key === sorted[index])
}
