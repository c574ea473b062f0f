/**
 * The understanding corpus (bench/corpus/): agents, the calls made to them, and texts with their
 * key facts, each file checked against the schemas here when it is loaded (and by
 * test/bench/understanding-corpus.test.ts). Written from how callers talk, not from any engine's rules.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { OutcomeResponseShapeSchema } from '../../src/shared/api/outcome-shape'

export const CORPUS_DIR = fileURLToPath(new URL('../corpus', import.meta.url))

/** How a field's value is compared (see scorer.ts). */
export const FIELD_KINDS = ['name', 'identifier', 'integer', 'boolean', 'enum', 'date', 'time', 'text'] as const
export type FieldKind = (typeof FIELD_KINDS)[number]

/** A word or phrase, in either language, that a question about this field would contain (how the adaptive caller knows what it was asked). */
const CuesSchema = z.array(z.string().min(2)).min(1)

export const CorpusAgentSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    /** A /v1 agent body, as POST /v1/voice-agents takes it. */
    body: z
      .object({
        agentName: z.string().min(1),
        lang: z.enum(['ar', 'en']),
        greetingMessage: z.string().min(1),
        preamble: z.string().min(1),
        outcome: z.string().min(1),
        outcomeResponseShape: OutcomeResponseShapeSchema,
      })
      .loose(),
    fields: z.record(z.string(), z.object({ kind: z.enum(FIELD_KINDS), cues: CuesSchema })),
  })
  .strict()
  .superRefine((agent, context) => {
    const properties = agent.body.outcomeResponseShape.properties ?? {}
    for (const name of Object.keys(properties)) {
      if (!agent.fields[name])
        context.addIssue({ code: 'custom', path: ['fields', name], message: `field ${name} of the shape has no kind and cues` })
    }
    for (const name of Object.keys(agent.fields)) {
      if (!properties[name]) context.addIssue({ code: 'custom', path: ['fields', name], message: `${name} is not a property of the shape` })
      if (agent.fields[name]!.kind === 'enum' && !properties[name]?.enum)
        context.addIssue({ code: 'custom', path: ['fields', name], message: 'an enum field needs enum members' })
    }
  })
export type CorpusAgent = z.infer<typeof CorpusAgentSchema>

/**
 * A date as the scenario means it, resolved on the day the bench runs in the scenario's time
 * zone (a call cannot be given its own date: see docs/api.md): `today`, `today+N`, `today-N`, a weekday
 * (`fri`: the next one strictly after today; `fri+7`: the one after that), `MM-DD` (its next
 * occurrence from today on) or an absolute `YYYY-MM-DD`.
 */
export const DateSpecSchema = z.string().regex(/^(today([+-]\d{1,3})?|(mon|tue|wed|thu|fri|sat|sun)(\+7)?|\d{2}-\d{2}|\d{4}-\d{2}-\d{2})$/)

/** One expected value; a list means any of them is right. `null`: the field must stay empty. */
const ExpectedValueSchema = z.union([z.string().min(1), z.number(), z.boolean(), z.null(), z.array(z.string().min(1)).min(1)])

/** What a scenario exercises, for reading the results by behaviour. */
export const COVERS = [
  'two-in-one-turn',
  'correction-early',
  'correction-at-read-back',
  'off-topic',
  'does-not-know',
  'identifier-with-letters',
  'spelled-identifier',
  'number-in-words',
  'date-in-words',
  'relative-date',
  'time-in-words',
  'hesitation',
  'dialect-numerals',
  'own-order',
  'enum-by-meaning',
] as const

const AnswersCallerSchema = z
  .object({
    kind: z.literal('answers-what-is-asked'),
    /** Said first, before any question is answered (may hold several fields, or a question). */
    opening: z.string().min(1).optional(),
    /** Field to what the caller says each time it is asked about it, in order (the last one is repeated). */
    answers: z.record(z.string(), z.array(z.string().min(1)).min(1)),
    /** Said to each read-back (confirmation) in order; the last is repeated. */
    readBack: z.array(z.string().min(1)).min(1),
  })
  .strict()

const OwnOrderCallerSchema = z
  .object({
    kind: z.literal('own-order'),
    /** One line a turn, whatever the agent asked; then the caller hangs up if the agent has not. */
    lines: z.array(z.string().min(1)).min(1),
  })
  .strict()

export const ScenarioSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    agent: z.string(),
    dialect: z.enum(['english', 'gulf', 'egyptian', 'levantine']),
    /** The IANA time zone the call happens in: its service runs with TZ set to it. */
    timeZone: z.string().refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone })
        return true
      } catch {
        return false
      }
    }, 'an IANA time zone'),
    caller: z.discriminatedUnion('kind', [AnswersCallerSchema, OwnOrderCallerSchema]),
    expected: z.record(z.string(), ExpectedValueSchema),
    covers: z.array(z.enum(COVERS)),
    note: z.string().optional(),
  })
  .strict()
export type Scenario = z.infer<typeof ScenarioSchema>

export const ScenarioFileSchema = z.object({ scenarios: z.array(ScenarioSchema).min(1) }).strict()

export const CorpusTextSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    lang: z.enum(['ar', 'en']),
    kind: z.enum(['transcript', 'article']),
    text: z.string().min(200).max(5_000),
    /** Each fact a summary should carry, as the surface forms that count as carrying it. */
    keyFacts: z.array(z.object({ fact: z.string().min(1), forms: z.array(z.string().min(1)).min(1) }).strict()).min(3),
    /** Values the text gives up on (a rejected slot): a summary that says one is counted. */
    rejected: z.array(z.object({ fact: z.string().min(1), forms: z.array(z.string().min(1)).min(1) }).strict()).optional(),
  })
  .strict()
export type CorpusText = z.infer<typeof CorpusTextSchema>

export const TextFileSchema = z.object({ texts: z.array(CorpusTextSchema).min(1) }).strict()

export interface Corpus {
  agents: Map<string, CorpusAgent>
  scenarios: Scenario[]
  texts: CorpusText[]
}

function jsonFiles(directory: string): string[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(directory, name))
}

function parseFile<T>(file: string, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`)
  return parsed.data
}

/** Problems a scenario has against its agent: unknown fields, enum values that are not members, a date that is not a date spec. */
export function scenarioProblems(scenario: Scenario, agent: CorpusAgent | undefined): string[] {
  if (!agent) return [`agent ${scenario.agent} does not exist`]
  const problems: string[] = []
  const shape = agent.body.outcomeResponseShape
  const wantedLang = scenario.dialect === 'english' ? 'en' : 'ar'
  if (agent.body.lang !== wantedLang) problems.push(`a ${scenario.dialect} scenario on a ${agent.body.lang} agent`)
  const named = scenario.caller.kind === 'answers-what-is-asked' ? Object.keys(scenario.caller.answers) : []
  for (const name of [...Object.keys(scenario.expected), ...named]) {
    if (!agent.fields[name]) problems.push(`${name} is not a field of ${agent.id}`)
  }
  for (const name of shape.required ?? []) {
    if (!(name in scenario.expected)) problems.push(`required field ${name} has no expected value`)
  }
  for (const [name, expected] of Object.entries(scenario.expected)) {
    const field = agent.fields[name]
    if (!field || expected === null) continue
    const values = Array.isArray(expected) ? expected : [expected]
    if (field.kind === 'enum') {
      const members = shape.properties?.[name]?.enum ?? []
      for (const value of values)
        if (!members.includes(value)) problems.push(`${name}: ${String(value)} is not one of ${members.join(', ')}`)
    }
    if (field.kind === 'date')
      for (const value of values)
        if (!DateSpecSchema.safeParse(value).success) problems.push(`${name}: ${String(value)} is not a date spec`)
    if (field.kind === 'time')
      for (const value of values)
        if (typeof value !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(value)) problems.push(`${name}: ${String(value)} is not HH:MM`)
    if (field.kind === 'integer' && !values.every(Number.isInteger)) problems.push(`${name}: expected an integer`)
    if (field.kind === 'boolean' && !values.every((value) => typeof value === 'boolean')) problems.push(`${name}: expected a boolean`)
  }
  return problems
}

/** Reads and checks the whole corpus; throws naming the file and the problem. */
export function loadCorpus(directory = CORPUS_DIR): Corpus {
  const agents = new Map<string, CorpusAgent>()
  for (const file of jsonFiles(join(directory, 'agents'))) {
    const agent = parseFile(file, CorpusAgentSchema)
    if (agents.has(agent.id)) throw new Error(`${file}: agent ${agent.id} is defined twice`)
    agents.set(agent.id, agent)
  }
  const scenarios: Scenario[] = []
  const ids = new Set<string>()
  for (const file of jsonFiles(join(directory, 'scenarios'))) {
    for (const scenario of parseFile(file, ScenarioFileSchema).scenarios) {
      if (ids.has(scenario.id)) throw new Error(`${file}: scenario ${scenario.id} is defined twice`)
      ids.add(scenario.id)
      const problems = scenarioProblems(scenario, agents.get(scenario.agent))
      if (problems.length) throw new Error(`${file}: scenario ${scenario.id}: ${problems.join('; ')}`)
      scenarios.push(scenario)
    }
  }
  const texts = jsonFiles(join(directory, 'texts')).flatMap((file) => parseFile(file, TextFileSchema).texts)
  return { agents, scenarios, texts }
}

export const callerKindOf = (scenario: Scenario) => scenario.caller.kind
export const langOf = (scenario: Scenario): 'ar' | 'en' => (scenario.dialect === 'english' ? 'en' : 'ar')
