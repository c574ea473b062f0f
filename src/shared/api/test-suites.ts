import { z } from 'zod'
import { envelopeOf, TimestampSchema } from './common'
import { PLACEHOLDER_NAME } from './voice-agents'

/*
 * Agent test suites and runs (docs/api.md, "Test suites and runs"): scenarios a simulated
 * caller plays against an agent through the real call path, each scored against what was
 * expected of the call.
 */

/** `today`, `tomorrow`, `today+3`, `today-1`, `friday`, `next friday`: a day relative to the call's own date. */
export const RELATIVE_DATE = /^(today([+-]\d{1,3})?|tomorrow|(next )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday))$/i
/** 24-hour HH:MM. */
export const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/

const PatternSchema = z
  .string()
  .min(1)
  .max(1_000)
  .refine(
    (pattern) => {
      try {
        new RegExp(pattern, 'u')
        return true
      } catch {
        return false
      }
    },
    { message: 'Must be a valid regular expression (JavaScript, u flag)' },
  )

const JsonLiteralSchema = z.union([z.string().max(4_000), z.number(), z.boolean(), z.null(), z.array(z.unknown()).max(100)])

/** What an outcome field must be: a literal (equal as JSON), or one of the matcher objects. */
export const MatcherSchema = z.union([
  z.strictObject({ pattern: PatternSchema }),
  z.strictObject({ oneOf: z.array(JsonLiteralSchema).min(1).max(100) }),
  z.strictObject({ present: z.literal(true) }),
  z.strictObject({ absent: z.literal(true) }),
  z.strictObject({ date: z.string().regex(RELATIVE_DATE, 'A date is today, tomorrow, today+N, today-N, a weekday or next <weekday>') }),
  z.strictObject({ time: z.string().regex(CLOCK_TIME, 'A time is 24-hour HH:MM') }),
  JsonLiteralSchema,
])
export type Matcher = z.infer<typeof MatcherSchema>

const CallerLine = z.string().trim().min(1).max(4_000)
const FieldPath = z.string().min(1).max(200)

export const ScriptedCallerSchema = z.strictObject({ say: z.array(CallerLine).min(1).max(50) })
export const AdaptiveCallerSchema = z.strictObject({
  answers: z.record(FieldPath, CallerLine).refine((answers) => Object.keys(answers).length >= 1, { message: 'At least one answer' }),
  opening: CallerLine.optional(),
})

export const ScenarioExpectationSchema = z.strictObject({
  /** Field paths (`guestName`, `unit.bedrooms`) of the call's outcome, each with its matcher. */
  outcome: z.record(FieldPath, MatcherSchema).optional(),
  endReason: z.string().min(1).max(40).optional(),
  maxTurns: z.number().int().min(1).max(200).optional(),
  /** Agent webhook event types the call must have queued (`call.ended`, …). */
  webhooks: z.array(z.string().min(1).max(100)).max(20).optional(),
})
export type ScenarioExpectation = z.infer<typeof ScenarioExpectationSchema>

export const ScenarioSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  language: z.enum(['ar', 'en']).optional(),
  mode: z.enum(['typed', 'spoken']).optional(),
  params: z.record(z.string().regex(PLACEHOLDER_NAME, 'Must be a placeholder name'), z.string().max(2_000)).optional(),
  caller: z.union([ScriptedCallerSchema, AdaptiveCallerSchema]),
  expect: ScenarioExpectationSchema,
})
export type Scenario = z.infer<typeof ScenarioSchema>

/** The most scenarios one suite holds. */
export const MAX_SUITE_SCENARIOS = 200

export const TestSuiteSchema = z.strictObject({
  agentId: z.string().min(1).max(100).optional(),
  scenarios: z.array(ScenarioSchema).min(1).max(MAX_SUITE_SCENARIOS),
})
// No component id: suites and runs are admin (/_voicedesk) shapes, and an id would put them in /v1's OpenAPI document.
export type TestSuite = z.infer<typeof TestSuiteSchema>

/** `POST …/test-suite/scenarios`: a scenario, or a past call of the project to make one from. */
export const AddScenarioBodySchema = z.union([z.strictObject({ conversationId: z.string().min(1).max(100) }), ScenarioSchema])
export type AddScenarioBody = z.infer<typeof AddScenarioBodySchema>

export const MAX_RUN_CONCURRENCY = 20
export const MAX_RUN_SCENARIOS = 500

export const StartTestRunBodySchema = z.strictObject({
  suite: TestSuiteSchema.optional(),
  concurrency: z.number().int().min(1).max(MAX_RUN_CONCURRENCY).default(4),
  repeat: z.number().int().min(1).max(50).default(1),
})
export type StartTestRunBody = z.infer<typeof StartTestRunBodySchema>

export const AgentIdParamsSchema = z.object({ agentId: z.string().min(1).max(100) })
export const TestRunIdParamsSchema = z.object({ id: z.string().min(1).max(100) })
export const ListTestRunsQuerySchema = z.object({ take: z.coerce.number().int().min(1).max(100).default(20) })

/** One field's verdict: what was expected (the matcher), what the call gave (left out: the outcome has no such field). */
export const FieldDiffSchema = z.object({ field: z.string(), expected: z.unknown(), got: z.unknown().optional(), pass: z.boolean() })
export type FieldDiff = z.infer<typeof FieldDiffSchema>

export const ScenarioResultSchema = z.object({
  name: z.string(),
  /** 1-based, when the run repeats its scenarios. */
  round: z.number().int(),
  status: z.enum(['PENDING', 'RUNNING', 'PASSED', 'FAILED']),
  pass: z.boolean(),
  fields: z.array(FieldDiffSchema),
  /** Why the scenario could not be run or scored (a hang, a refusal); null when it ran. */
  error: z.string().nullable(),
  turns: z.number().int(),
  endReason: z.string().nullable(),
  /** From the socket's opening to the greeting's first audio, as the caller's client saw it. */
  firstAudioMs: z.number().nullable(),
  /** p50 of the caller turns: from a line sent to the answer's first audio. */
  voiceToVoiceMs: z.number().nullable(),
  conversationId: z.string().nullable(),
})
export type ScenarioResult = z.infer<typeof ScenarioResultSchema>

export const TestRunStatusSchema = z.enum(['RUNNING', 'PASSED', 'FAILED'])
export type TestRunStatus = z.infer<typeof TestRunStatusSchema>

const Percentiles = z.object({ p50: z.number().nullable(), p95: z.number().nullable(), p99: z.number().nullable() })

export const TestRunSummarySchema = z.object({
  scenarios: z.number().int(),
  finished: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  firstAudioMs: Percentiles,
  voiceToVoiceMs: Percentiles,
})
export type TestRunSummary = z.infer<typeof TestRunSummarySchema>

export const TestRunSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  agentVersion: z.number().int().nullable(),
  status: TestRunStatusSchema,
  /** Why the whole run failed (a service stop); null otherwise. */
  error: z.string().nullable(),
  concurrency: z.number().int(),
  repeat: z.number().int(),
  results: z.array(ScenarioResultSchema),
  summary: TestRunSummarySchema,
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
})
export type TestRun = z.infer<typeof TestRunSchema>

/** A suite as stored: GET/PUT …/test-suite's data, and the operator's tests.getSuite / tests.putSuite. */
export const StoredTestSuiteSchema = z.object({ agentId: z.string(), suite: TestSuiteSchema, updatedAt: TimestampSchema })
export const TestSuiteEnvelopeSchema = envelopeOf(StoredTestSuiteSchema)
export const StartedTestRunEnvelopeSchema = envelopeOf(z.object({ id: z.string(), status: TestRunStatusSchema }))
export const TestRunEnvelopeSchema = envelopeOf(TestRunSchema)
export const TestRunListEnvelopeSchema = envelopeOf(z.object({ runs: z.array(TestRunSchema) }))
