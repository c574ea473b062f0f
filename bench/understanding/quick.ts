/**
 * The understanding bench's dialogue part in this process, for the inner loop: every corpus
 * scenario driven straight through the offline engine (no service, no socket, no speech) by the
 * same callers and scored by the same scorer as the socket bench (run-calls.ts). Seconds, not
 * minutes; the socket bench (`npx tsx bench/run.ts understanding`) stays the number to report.
 *
 *   npx tsx bench/understanding/quick.ts [scenario-id-substring …] [--verbose]
 */
import { createOfflineDialogueEngine } from '../../src/engines/dialogue/offline-dialogue-engine'
import type { DialogueEvent, DialogueTurn } from '../../src/engines/dialogue/dialogue-engine'
import { callerKindOf, langOf, loadCorpus, type CorpusAgent, type Scenario } from './corpus'
import { scoreOutcome, talkAsCaller } from './run-calls'
import { percentile } from './scorer'

export interface QuickResult {
  id: string
  callerKind: Scenario['caller']['kind']
  lang: 'ar' | 'en'
  turns: number
  requiredFields: number
  fields: ReturnType<typeof scoreOutcome>
  transcript: DialogueTurn[]
  turnMs: number[]
}

/** One scenario through the offline engine; the process's TZ is set to the scenario's zone for the call, as `serve` runs with it. */
export async function runScenarioInProcess(agent: CorpusAgent, scenario: Scenario, now: Date): Promise<QuickResult> {
  const previousZone = process.env.TZ
  process.env.TZ = scenario.timeZone
  try {
    const { body } = agent
    const session = createOfflineDialogueEngine({ now: () => now }).startSession(
      {
        agentName: body.agentName,
        lang: body.lang,
        greeting: body.greetingMessage,
        preamble: body.preamble,
        outcome: body.outcome,
        outcomeShape: body.outcomeResponseShape,
        smartCallEnd: (body.tools as { smartCallEnd?: boolean } | undefined)?.smartCallEnd === true,
      },
      [],
    )
    const transcript: DialogueTurn[] = []
    const turnMs: number[] = []
    let ended = false
    const agentSays = async (events: AsyncIterable<DialogueEvent>) => {
      const said: string[] = []
      for await (const event of events) {
        if (event.type === 'say') said.push(event.text)
        else ended = true
      }
      if (said.length) transcript.push({ role: 'agent', text: said.join(' ') })
      return said.join(' ')
    }
    const talk = await talkAsCaller(agent, scenario, {
      opening: () => agentSays(session.open()),
      say: async (line) => {
        transcript.push({ role: 'caller', text: line })
        const started = performance.now()
        const said = await agentSays(session.respond(line))
        turnMs.push(performance.now() - started)
        return said
      },
      closed: () => ended,
    })
    const outcome = await session.outcome(transcript)
    return {
      id: scenario.id,
      callerKind: callerKindOf(scenario),
      lang: langOf(scenario),
      turns: talk.turns,
      requiredFields: body.outcomeResponseShape.required?.length ?? 0,
      fields: scoreOutcome(agent, scenario, (outcome.result ?? {}) as Record<string, unknown>, now),
      transcript,
      turnMs,
    }
  } finally {
    if (previousZone === undefined) delete process.env.TZ
    else process.env.TZ = previousZone
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const verbose = args.includes('--verbose')
  const filters = args.filter((arg) => !arg.startsWith('--'))
  const corpus = loadCorpus()
  const now = new Date()
  const scenarios = corpus.scenarios.filter((scenario) => filters.length === 0 || filters.some((filter) => scenario.id.includes(filter)))
  const results: QuickResult[] = []
  for (const scenario of scenarios) results.push(await runScenarioInProcess(corpus.agents.get(scenario.agent)!, scenario, now))
  const ratio = (pick: (result: QuickResult) => boolean) => {
    const fields = results.filter(pick).flatMap((result) => Object.values(result.fields))
    const right = fields.filter((field) => field.right).length
    return `${right}/${fields.length} (${fields.length ? ((right / fields.length) * 100).toFixed(1) : '0'} %)`
  }
  for (const result of results) {
    const wrong = Object.entries(result.fields).filter(([, field]) => !field.right)
    if (wrong.length === 0 && !verbose) continue
    console.log(`\n## ${result.id} (${result.turns} turns, ${result.requiredFields} required)`)
    for (const [name, field] of wrong)
      console.log(`  WRONG ${name}: got ${JSON.stringify(field.got)} expected ${JSON.stringify(field.expected)}`)
    for (const turn of result.transcript) console.log(`  ${turn.role === 'agent' ? 'A' : 'C'}: ${turn.text}`)
  }
  const times = results.flatMap((result) => result.turnMs)
  console.log('\nin-process (offline engine, no socket):')
  console.log(`  answers-what-is-asked ${ratio((result) => result.callerKind === 'answers-what-is-asked')}`)
  console.log(`  own-order             ${ratio((result) => result.callerKind === 'own-order')}`)
  console.log(`  english ${ratio((result) => result.lang === 'en')}   arabic ${ratio((result) => result.lang === 'ar')}`)
  console.log(
    `  median turns ${percentile(
      results.map((result) => result.turns),
      50,
    )} vs required+2 ${percentile(
      results.map((result) => result.requiredFields + 2),
      50,
    )}; engine ms/turn p50 ${percentile(times, 50).toFixed(2)} p95 ${percentile(times, 95).toFixed(2)}`,
  )
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) await main()
