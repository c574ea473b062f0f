/**
 * One corpus scenario as a real call: conversation-init over /v1, the `/stream` socket with typed
 * turns (`{"event":"text"}`), the caller answering as the scenario says, then the finished
 * conversation's outcome scored field by field.
 */
import { SdkCallClient } from '../../test/helpers/sdk-call-client'
import { callerKindOf, langOf, type CorpusAgent, type Scenario } from './corpus'
import { normaliseText, scoreField, type FieldScore } from './scorer'

export interface BenchService {
  base: string
  key: string
}

/** The catalogue voices the corpus agents speak with (docs/api.md#get-v1voices): Ava, Layla. */
export const VOICE_OF = { en: 'fe68337a-10d3-4648-99bb-2bb04554b6cf', ar: '16677e49-bcd2-4044-adb3-541626c49304' } as const

/** An agent turn not finished in this time (no mark, the socket still open) counts as an agent that did not answer. */
const TURN_TIMEOUT_MS = 30_000
/** How long the finished conversation may take to be COMPLETED after the socket closed. */
const END_TIMEOUT_MS = 15_000
/** Caller turns beyond the required fields before the caller gives up and hangs up. */
const EXTRA_TURNS = 6

/** Words of a read-back (the agent checking what it has), in either language. */
const READ_BACK_CUES = [
  'is that right',
  'is that correct',
  'correct?',
  'confirm',
  'did i get',
  'is everything',
  'صح',
  'صحيح',
  'تمام',
  'اكد',
  'نأكد',
  'أأكد',
  'مظبوط',
  'مزبوط',
  'مضبوط',
]
/** What the adaptive caller says to a question it cannot place. */
const UNCLEAR = { en: 'Sorry, what do you need from me?', ar: 'عفوًا، ما فهمت شو المطلوب؟' } as const
/** Asked about a field its scenario gives no answer for (an optional extra): a plain no. */
const NOTHING_TO_ADD = { en: 'No, thanks.', ar: 'لا، شكرًا.' } as const
/** "Anything else?" at the end of a call, in either language. */
const ANYTHING_ELSE_CUES = ['anything else', 'something else', 'أي شيء آخر', 'اي شي ثاني', 'أي حاجة تانية', 'شي تاني']
const ALL_DONE = { en: "No, that's all, thank you. Bye.", ar: 'لا، بس كذا، شكرًا. مع السلامة.' } as const

export interface ScenarioResult {
  id: string
  agent: string
  lang: 'ar' | 'en'
  dialect: Scenario['dialect']
  callerKind: Scenario['caller']['kind']
  covers: string[]
  /** Caller turns sent. */
  turns: number
  requiredFields: number
  status: string
  endReason: string | null
  fields: Record<string, FieldScore>
  wrong: string[]
  transcript: { role: string; content: string }[]
  /** Agent questions the adaptive caller could not place (it answered UNCLEAR). */
  unplacedQuestions: string[]
}

export async function api<T>(service: BenchService, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${service.base}${path}`, {
    method,
    headers: { authorization: `Token ${service.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`)
  return JSON.parse(text) as T
}

/** Creates the corpus agent on the service; answers its id. */
export async function createAgent(service: BenchService, agent: CorpusAgent): Promise<string> {
  const created = await api<{ data: { id: string } }>(service, 'POST', '/v1/voice-agents', {
    voiceId: VOICE_OF[agent.body.lang],
    ...agent.body,
  })
  return created.data.id
}

/** The question in an agent's turn: its last sentence that asks, else its last sentence. */
function questionOf(turn: string): string {
  const sentences = turn.split(/(?<=[.!?؟])\s+/).filter(Boolean)
  return [...sentences].reverse().find((sentence) => /[?؟]/.test(sentence)) ?? sentences.at(-1) ?? ''
}

/** Which field (or the read-back) the agent asks about, from the cue words of the corpus agent. */
export function placeQuestion(
  agent: CorpusAgent,
  turn: string,
  answered: ReadonlySet<string>,
): { field: string } | 'read-back' | 'anything-else' | undefined {
  const question = ` ${normaliseText(questionOf(turn))} `
  // Substrings, not words: Arabic joins clitics to the cue ("باسمك", "والوقت").
  const hits = (cue: string) => question.includes(normaliseText(cue))
  if (ANYTHING_ELSE_CUES.some(hits)) return 'anything-else'
  const scores = Object.entries(agent.fields)
    .map(([name, field]) => ({ name, score: field.cues.filter(hits).length }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || Number(answered.has(a.name)) - Number(answered.has(b.name)))
  const readBack = READ_BACK_CUES.some(hits)
  if (readBack && scores.length !== 1) return 'read-back'
  if (scores[0]) return { field: scores[0].name }
  return readBack ? 'read-back' : undefined
}

/** The next line of a list said once per ask: the last one is repeated. */
function nextOf(lines: readonly string[], counts: Map<string, number>, key: string): string {
  const used = counts.get(key) ?? 0
  counts.set(key, used + 1)
  return lines[Math.min(used, lines.length - 1)]!
}

interface Conversation {
  status: string
  endReason: string | null
  outcomeResult: Record<string, unknown> | null
  transcript: { role: string; content: string }[]
}

async function finished(service: BenchService, jobId: string): Promise<Conversation> {
  const deadline = Date.now() + END_TIMEOUT_MS
  for (;;) {
    const { data } = await api<{ data: Conversation }>(service, 'GET', `/v1/voice-agents/conversation/${jobId}`)
    if (data.status === 'COMPLETED' || data.status === 'FAILED') return data
    if (Date.now() > deadline) throw new Error(`conversation ${jobId} still ${data.status} ${END_TIMEOUT_MS} ms after the call ended`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** One side of a call as the caller sees it: the agent's turns, however they travel (the socket, or the engine in process). */
export interface CallLine {
  /** The agent's opening (greeting and first question). */
  opening(): Promise<string>
  /** Says one caller turn; answers what the agent said back. */
  say(line: string): Promise<string>
  /** Whether the agent has ended the call. */
  closed(): boolean
}

/** The scenario's caller talking over `line` (adaptive or scripted, as the scenario says); answers the caller turns and unplaced questions. */
export async function talkAsCaller(agent: CorpusAgent, scenario: Scenario, line: CallLine): Promise<{ turns: number; unplaced: string[] }> {
  const required = agent.body.outcomeResponseShape.required?.length ?? 0
  const unplaced: string[] = []
  let turns = 0
  const say = (text: string) => {
    turns += 1
    return line.say(text)
  }
  let said = await line.opening()
  const caller = scenario.caller
  if (caller.kind === 'own-order') {
    for (const text of caller.lines) {
      if (line.closed()) break
      said = await say(text)
    }
    return { turns, unplaced }
  }
  const asked = new Map<string, number>()
  if (caller.opening && !line.closed()) said = await say(caller.opening)
  while (!line.closed() && turns < required + EXTRA_TURNS) {
    const place = placeQuestion(agent, said, new Set(asked.keys()))
    let text: string
    if (place === 'anything-else') {
      // Said once; asked again, the caller hangs up as a person would.
      if (asked.has(place)) break
      asked.set(place, 1)
      text = ALL_DONE[agent.body.lang]
    } else if (place === 'read-back') text = nextOf(caller.readBack, asked, 'read-back')
    else if (place) {
      const answers = caller.answers[place.field]
      text = answers ? nextOf(answers, asked, place.field) : NOTHING_TO_ADD[agent.body.lang]
    } else {
      unplaced.push(said)
      text = UNCLEAR[agent.body.lang]
    }
    said = await say(text)
  }
  return { turns, unplaced }
}

/** A finished call's outcome scored field by field against the scenario. */
export function scoreOutcome(
  agent: CorpusAgent,
  scenario: Scenario,
  outcome: Record<string, unknown>,
  now: Date,
): Record<string, FieldScore> {
  const fields: Record<string, FieldScore> = {}
  for (const [name, expected] of Object.entries(scenario.expected)) {
    fields[name] = scoreField(agent.fields[name]!.kind, expected, outcome[name], { timeZone: scenario.timeZone, now })
  }
  return fields
}

/** Runs one scenario as a call and scores its outcome; `now` is the moment relative dates are resolved against. */
export async function runScenario(
  service: BenchService,
  agentId: string,
  agent: CorpusAgent,
  scenario: Scenario,
  now: Date,
): Promise<ScenarioResult> {
  const { data } = await api<{ data: { jobId: string } }>(service, 'POST', '/v1/voice-agents/conversation-init', {
    voiceAgentId: agentId,
    params: {},
    voiceEnablement: true,
    tools: [],
  })
  const client = await SdkCallClient.connect(service.base, data.jobId, service.key)
  let closed = false
  void client.closed.then(() => (closed = true))
  const required = agent.body.outcomeResponseShape.required?.length ?? 0
  let heardAnswers = 0
  /** Waits for the agent's n-th utterance to be heard (its mark) or the call's end; answers what it said. */
  const agentTurn = async (marks: number): Promise<string> => {
    await client
      .waitFor(() => closed || client.framesOf('mark').length >= marks, TURN_TIMEOUT_MS, `agent turn ${marks}`)
      .catch(() => undefined)
    const answers = client.framesOf('answer')
    const said = answers
      .slice(heardAnswers)
      .map((frame) => frame.content)
      .join(' ')
    heardAnswers = answers.length
    return said
  }
  let talk: { turns: number; unplaced: string[] }
  try {
    talk = await talkAsCaller(agent, scenario, {
      opening: () => agentTurn(1),
      say: (line) => {
        const marks = client.framesOf('mark').length
        client.send({ event: 'text', content: line })
        return agentTurn(marks + 1)
      },
      closed: () => closed,
    })
    if (!closed) await client.hangUp()
  } finally {
    client.close()
  }
  const call = await finished(service, data.jobId)
  const fields = scoreOutcome(agent, scenario, call.outcomeResult ?? {}, now)
  return {
    id: scenario.id,
    agent: scenario.agent,
    lang: langOf(scenario),
    dialect: scenario.dialect,
    callerKind: callerKindOf(scenario),
    covers: scenario.covers,
    turns: talk.turns,
    requiredFields: required,
    status: call.status,
    endReason: call.endReason,
    fields,
    wrong: Object.keys(fields).filter((name) => !fields[name]!.right),
    transcript: call.transcript.map(({ role, content }) => ({ role, content })),
    unplacedQuestions: talk.unplaced,
  }
}
