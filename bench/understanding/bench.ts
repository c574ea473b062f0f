/**
 * The understanding bench (issue 23's yardstick): every corpus scenario as a real call over the
 * `/stream` socket with typed turns, every corpus text through AI-content jobs over /v1, scored
 * against what the corpus expects. Part of `npm run bench` (bench/run.ts, `understanding`);
 * writes its per-scenario and per-text detail to bench/results/understanding.json.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createOfflineAiContentEngine } from '../../src/engines/ai-content/ai-content-engine'
import { createOfflineDialogueEngine } from '../../src/engines/dialogue/offline-dialogue-engine'
import type { DialogueEvent } from '../../src/engines/dialogue/dialogue-engine'
import { AI_PARTS } from '../../src/shared/api/ai-parts'
import { freePort, stopChild, waitForLine } from '../processes'
import { loadCorpus, type Corpus, type CorpusAgent, type CorpusText } from './corpus'
import { api, createAgent, runScenario, VOICE_OF, type BenchService, type ScenarioResult } from './run-calls'
import { carries, faqQuestions, holdsGreetingOrVocative, isTemplateQuestion, isTemplateTitle, percentile, titleLines } from './scorer'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const KEY = 'vd_bench_key_0123456789abcdef0123456789'
export const DETAIL_FILE = join(ROOT, 'bench/results/understanding.json')
const JOB_TIMEOUT_MS = 60_000
const AI_TIMING_RUNS = 10

export interface TextResult {
  id: string
  lang: 'ar' | 'en'
  factsCovered: number
  facts: number
  missedFacts: string[]
  /** Rejected values (a slot the caller turned down) the summary states. */
  rejectedStated: string[]
  templateTitles: string[]
  greetingOrVocativeQuestions: string[]
  templateQuestions: string[]
  greetingKeywordsOrHashtags: string[]
  summary: string
  titles: string
}

const ratio = (right: number, total: number) => ({ right, total, percent: total ? Math.round((right / total) * 1000) / 10 : 0 })
const round2 = (value: number) => Math.round(value * 100) / 100

/** Runs `work` over `items`, at most `limit` at a time, keeping the order. */
async function pooled<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++
        results[index] = await work(items[index]!)
      }
    }),
  )
  return results
}

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + JOB_TIMEOUT_MS
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A text through /v1: a TTS job carries it (the AI-content job's source must be a finished job with text), then all 12 parts. */
async function aiContentOf(service: BenchService, text: CorpusText): Promise<Record<string, string>> {
  const tts = await api<{ data?: { id: string }; id?: string }>(service, 'POST', '/v1/jobs/text-to-speech', {
    voiceId: VOICE_OF[text.lang],
    text: text.text,
  })
  const ttsId = tts.data?.id ?? tts.id!
  await until(async () => {
    const job = await api<{ status?: string; data?: { status: string } }>(service, 'GET', `/v1/jobs?jobId=${ttsId}`)
    const status = job.status ?? job.data?.status
    if (status === 'FAILED') throw new Error(`TTS job for ${text.id} failed`)
    return status === 'COMPLETED' ? true : undefined
  }, `the TTS job of ${text.id}`)
  const ai = await api<{ data: { id: string } }>(service, 'POST', `/v1/jobs/ai-content?jobId=${ttsId}`, { aiParts: [...AI_PARTS] })
  return until(async () => {
    const job = await api<{ data: { status: string; jobResponse: Record<string, string> | null } }>(
      service,
      'GET',
      `/v1/jobs/ai-content?jobId=${ai.data.id}`,
    )
    if (job.data.status === 'FAILED') throw new Error(`AI-content job for ${text.id} failed`)
    return job.data.jobResponse && job.data.status === 'COMPLETED' ? job.data.jobResponse : undefined
  }, `the AI-content job of ${text.id}`)
}

/** Scores one text's AI content against its key facts, and counts templates and greetings. */
export function scoreText(text: CorpusText, parts: Record<string, string>): TextResult {
  const summary = parts.summary ?? ''
  const covered = text.keyFacts.filter((fact) => carries(summary, fact.forms))
  const titles = titleLines(parts.titles ?? '')
  const questions = faqQuestions(parts.faq ?? '')
  const tags = [
    ...(parts.keywords ?? '').split(/[,،\n]/),
    ...(((parts.twitterThread ?? '') + ' ' + (parts.threadsByInstagram ?? '')).match(/#[\p{L}\p{N}_]+/gu) ?? []),
  ]
    .map((tag) => tag.trim())
    .filter(Boolean)
  return {
    id: text.id,
    lang: text.lang,
    factsCovered: covered.length,
    facts: text.keyFacts.length,
    missedFacts: text.keyFacts.filter((fact) => !covered.includes(fact)).map((fact) => fact.fact),
    rejectedStated: (text.rejected ?? []).filter((fact) => carries(summary, fact.forms)).map((fact) => fact.fact),
    templateTitles: titles.filter((title) => isTemplateTitle(title, text.text)),
    greetingOrVocativeQuestions: questions.filter(holdsGreetingOrVocative),
    templateQuestions: questions.filter(isTemplateQuestion),
    greetingKeywordsOrHashtags: tags.filter(holdsGreetingOrVocative),
    summary,
    titles: parts.titles ?? '',
  }
}

/** Engine time of every caller turn the calls had, replayed in this process through the offline engine (no socket, no speech). */
async function dialogueTurnTimes(agents: Map<string, CorpusAgent>, results: readonly ScenarioResult[]): Promise<number[]> {
  const engine = createOfflineDialogueEngine()
  const drain = async (events: AsyncIterable<DialogueEvent>) => {
    for await (const event of events) void event
  }
  const times: number[] = []
  for (const result of results) {
    const { body } = agents.get(result.agent)!
    const session = engine.startSession(
      {
        agentName: body.agentName,
        lang: body.lang,
        greeting: body.greetingMessage,
        preamble: body.preamble,
        outcome: body.outcome,
        outcomeShape: body.outcomeResponseShape,
        smartCallEnd: true,
      },
      [],
    )
    await drain(session.open())
    for (const turn of result.transcript.filter((entry) => entry.role === 'caller')) {
      const started = performance.now()
      await drain(session.respond(turn.content))
      times.push(performance.now() - started)
    }
  }
  return times
}

/** The corpus texts of a language joined and repeated to at least `words` words. */
export function longText(texts: readonly CorpusText[], lang: 'ar' | 'en', words: number): string {
  const pieces = texts.filter((text) => text.lang === lang).map((text) => text.text)
  const out: string[] = []
  let count = 0
  for (let round = 0; count < words; round++) {
    const piece = pieces[round % pieces.length]!
    out.push(piece)
    count += piece.split(/\s+/).length
  }
  return out.join('\n\n')
}

export async function aiContentTime(text: string, runs: number): Promise<{ p50: number; max: number; words: number }> {
  const engine = createOfflineAiContentEngine()
  await engine.generate({ text, parts: [...AI_PARTS] })
  const samples: number[] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    await engine.generate({ text, parts: [...AI_PARTS] })
    samples.push(performance.now() - started)
  }
  return { p50: round2(percentile(samples, 50)), max: round2(Math.max(...samples)), words: text.split(/\s+/).length }
}

export interface UnderstandingOptions {
  corpus?: Corpus
  /** Scenario ids to run (all when absent). */
  scenarioIds?: readonly string[]
  textIds?: readonly string[]
  /** Calls at once. */
  concurrency?: number
  /** Timed runs of AI content on 2,000 words (10; fewer in the smoke test). */
  aiTimingRuns?: number
  /** A running service whose process runs in `timeZone` (the bench starts one per time zone of the scenarios). */
  serviceFor: (timeZone: string) => Promise<BenchService>
}

export interface UnderstandingReport {
  summary: Record<string, unknown>
  scenarios: ScenarioResult[]
  texts: TextResult[]
}

export async function runUnderstanding(options: UnderstandingOptions): Promise<UnderstandingReport> {
  const corpus = options.corpus ?? loadCorpus()
  const scenarios = corpus.scenarios.filter((scenario) => !options.scenarioIds || options.scenarioIds.includes(scenario.id))
  const texts = corpus.texts.filter((text) => !options.textIds || options.textIds.includes(text.id))
  const now = new Date()
  const agentIds = new Map<string, Promise<string>>()
  const agentOn = (service: BenchService, agent: CorpusAgent) => {
    const key = `${service.base} ${agent.id}`
    if (!agentIds.has(key)) agentIds.set(key, createAgent(service, agent))
    return agentIds.get(key)!
  }
  const scenarioResults = await pooled(scenarios, options.concurrency ?? 8, async (scenario) => {
    const service = await options.serviceFor(scenario.timeZone)
    const agent = corpus.agents.get(scenario.agent)!
    return runScenario(service, await agentOn(service, agent), agent, scenario, now)
  })
  const textService = texts.length ? await options.serviceFor('UTC') : undefined
  const textResults = await pooled(texts, 4, async (text) => scoreText(text, await aiContentOf(textService!, text)))

  const fieldsOf = (pick: (result: ScenarioResult) => boolean) => {
    const fields = scenarioResults.filter(pick).flatMap((result) => Object.values(result.fields))
    return ratio(fields.filter((field) => field.right).length, fields.length)
  }
  const turnTimes = await dialogueTurnTimes(corpus.agents, scenarioResults)
  const sum = (pick: (result: TextResult) => number) => textResults.reduce((total, result) => total + pick(result), 0)
  const worst = [...scenarioResults]
    .sort((a, b) => b.wrong.length / Object.keys(b.fields).length - a.wrong.length / Object.keys(a.fields).length)
    .slice(0, 5)
    .map((result) => ({
      id: result.id,
      wrong: Object.fromEntries(
        result.wrong.map((name) => [name, { got: result.fields[name]!.got, expected: result.fields[name]!.expected }]),
      ),
    }))
  const summary = {
    measuredAt: now.toISOString(),
    method:
      'every corpus scenario (bench/corpus/scenarios) as a call over the /stream socket with typed turns, against `serve` with the offline engine and TZ set to the scenario time zone; relative dates resolved on the day of the run; every text (bench/corpus/texts) through a TTS job then an AI-content job of all 12 parts over /v1',
    scenarios: scenarioResults.length,
    fieldAccuracy: {
      answersWhatIsAsked: fieldsOf((result) => result.callerKind === 'answers-what-is-asked'),
      ownOrder: fieldsOf((result) => result.callerKind === 'own-order'),
      english: fieldsOf((result) => result.lang === 'en'),
      arabic: fieldsOf((result) => result.lang === 'ar'),
      byDialect: Object.fromEntries(
        (['english', 'gulf', 'egyptian', 'levantine'] as const).map((dialect) => [
          dialect,
          fieldsOf((result) => result.dialect === dialect),
        ]),
      ),
      all: fieldsOf(() => true),
      target: '>= 95 % answers-what-is-asked, >= 90 % own-order',
    },
    turnsPerCall: {
      median: percentile(
        scenarioResults.map((result) => result.turns),
        50,
      ),
      medianRequiredPlusTwo: percentile(
        scenarioResults.map((result) => result.requiredFields + 2),
        50,
      ),
      callsOverRequiredPlusTwo: scenarioResults.filter((result) => result.turns > result.requiredFields + 2).length,
      callsNotEndedByAgent: scenarioResults.filter((result) => result.endReason === 'caller-hangup').length,
      target: 'median <= required fields + 2',
    },
    worstScenarios: worst,
    dialogueEngineTurnMs: {
      p50: round2(percentile(turnTimes, 50)),
      p95: round2(percentile(turnTimes, 95)),
      turns: turnTimes.length,
      target: '< 20 ms',
      note: 'the calls’ caller turns replayed through the offline engine in this process',
    },
    texts: textResults.length,
    summaryFactCoverage: {
      ...ratio(
        sum((result) => result.factsCovered),
        sum((result) => result.facts),
      ),
      target: '>= 90 %',
    },
    summariesStatingARejectedValue: textResults.filter((result) => result.rejectedStated.length > 0).length,
    templateTitles: { count: sum((result) => result.templateTitles.length), target: 0 },
    greetingOrVocativeFaqQuestions: { count: sum((result) => result.greetingOrVocativeQuestions.length), target: 0 },
    templateFaqQuestions: { count: sum((result) => result.templateQuestions.length), target: 0 },
    greetingKeywordsOrHashtags: { count: sum((result) => result.greetingKeywordsOrHashtags.length), target: 0 },
    aiContentTwoThousandWordsMs: texts.length
      ? {
          english: await aiContentTime(longText(corpus.texts, 'en', 2_000), options.aiTimingRuns ?? AI_TIMING_RUNS),
          arabic: await aiContentTime(longText(corpus.texts, 'ar', 2_000), options.aiTimingRuns ?? AI_TIMING_RUNS),
          target: '< 300 ms',
          note: 'all 12 parts, the offline engine in this process, the corpus texts joined to 2,000 words',
        }
      : undefined,
  }
  return { summary, scenarios: scenarioResults, texts: textResults }
}

/** `serve` from the build, one process per time zone (TZ set), each on its own data folder. */
export async function benchUnderstanding(options: Partial<UnderstandingOptions> = {}): Promise<Record<string, unknown>> {
  const workDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-understanding-'))
  const children: ChildProcess[] = []
  const services = new Map<string, Promise<BenchService>>()
  const serviceFor = (timeZone: string) => {
    if (!services.has(timeZone)) {
      services.set(
        timeZone,
        (async () => {
          const port = await freePort()
          const child = spawn(
            process.execPath,
            [join(ROOT, 'out/main/cli.js'), 'serve', '--port', String(port), '--data-dir', join(workDir, timeZone.replace(/\W/g, '-'))],
            {
              env: { ...process.env, VOICEDESK_API_KEY: KEY, TZ: timeZone },
              stdio: ['ignore', 'pipe', 'inherit'],
            },
          )
          children.push(child)
          await waitForLine(child, /listening on (http:\/\/\S+)/)
          return { base: `http://127.0.0.1:${port}`, key: KEY }
        })(),
      )
    }
    return services.get(timeZone)!
  }
  try {
    const report = await runUnderstanding({ serviceFor, ...options })
    writeFileSync(
      DETAIL_FILE,
      `${JSON.stringify({ summary: report.summary, scenarios: report.scenarios, texts: report.texts }, null, 2)}\n`,
    )
    return { ...report.summary, detail: 'bench/results/understanding.json' }
  } finally {
    for (const child of children) await stopChild(child)
    rmSync(workDir, { recursive: true, force: true })
  }
}
