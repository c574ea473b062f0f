import { ConversationStateSchema, type ConversationState } from '../shared/api/conversations'
import type { ServerFrame } from '../shared/api/stream-frames'
import type { OutcomeShape } from '../shared/api/outcome-shape'
import { fillPlaceholders } from '../shared/text/placeholders'
import type { DialogueEngine, DialogueTool } from '../engines/dialogue/dialogue-engine'
import type { SttEngine } from '../engines/stt/stt-engine'
import type { DiskFullCondition } from '../store/disk-full-condition'
import type { MediaStore, Store } from '../store/ports'
import type { JobRecord } from '../store/records'
import type { CallAudio } from './call-audio'
import { CallSession, type CallEventWriter, type CallLimits, type CallTransport } from './call-session'
import { DEFAULT_HELD_RECORDING_BYTES, RecordingsAwaitingRoom } from './recordings-awaiting-room'

export interface ConversationHostOptions {
  store: Pick<Store, 'jobs' | 'voiceAgents' | 'voiceDictionaries' | 'conversations' | 'transaction'>
  media: Pick<MediaStore, 'put'>
  /** The data disk's state: a recording that meets a full disk waits for room (RecordingsAwaitingRoom). */
  diskFull: DiskFullCondition
  /** Bytes of recordings that may wait for room at once (DEFAULT_HELD_RECORDING_BYTES). */
  heldRecordingBytes?: number
  /** The most calls this instance runs at once (DEFAULT_MAX_CALLS; `serve --max-calls`); the next is refused, TOO_MANY_CALLS. */
  maxCalls?: number
  audio: CallAudio
  /** The engines a call starting now uses (settings may change between calls); stt undefined when recognition is off. */
  engines: () => Promise<{ dialogue: DialogueEngine; stt: SttEngine | undefined }>
  writeEvent: CallEventWriter
  /** This instance's lease owner (see workers/lease-owner). */
  owner: string
  limits?: Partial<CallLimits>
  costOf: (seconds: number) => number
  now?: () => number
  timestamp?: () => string
  webhookQueued: () => void
  changed: (job: JobRecord) => void
  /** A recording that waited for room was stored, or lost: live views read call `jobId` again. */
  recordingChanged: (jobId: string) => void
  /** Calls of a dead instance went back to the queue: wake the job runner, which ends them. */
  jobsRequeued: () => void
  onError: (error: unknown, context: string) => void
}

/** Concurrent calls of one instance unless told otherwise (docs/api.md, "How many calls at once"). */
export const DEFAULT_MAX_CALLS = 50

/** A cap on concurrent calls: a whole number from 1 to 10,000; anything else is a mistake of the caller. */
export function maxCallsProblem(value: number): string | undefined {
  return Number.isSafeInteger(value) && value >= 1 && value <= 10_000
    ? undefined
    : `must be a whole number from 1 to 10000, not ${String(value)}`
}

export const DEFAULT_CALL_LIMITS: CallLimits = {
  leaseMs: 30_000,
  maxDurationMs: 60 * 60_000,
  toolTimeoutMs: 10_000,
  outcomeTimeoutMs: 10_000,
  startGraceMs: 2_000,
}

/**
 * The agent as its newest version holds it, with that version's number: one row that never
 * changes, so the number and the settings a call runs with always agree (reading the agent and
 * then its newest number could straddle a change). Undefined when the agent is gone.
 */
async function newestAgentVersion(store: Pick<Store, 'voiceAgents'>, agentId: string, projectId: string) {
  const number = await store.voiceAgents.latestVersion(agentId, projectId)
  const found = number === undefined ? undefined : await store.voiceAgents.findVersion(agentId, projectId, number)
  if (!found) return undefined
  const { version, source: _source, versionedAt: _versionedAt, ...agent } = found
  return { agent, version }
}

/**
 * Live calls of this instance: one CallSession per connected socket. A connection starts its
 * PENDING conversation once (a second socket, or one after the call ended, is told so and
 * closed). A sweep on the lease's rhythm hands calls whose instance died to the job runner.
 */
export class ConversationHost {
  private readonly sessions = new Set<CallSession>()
  private readonly recordings: RecordingsAwaitingRoom
  /** Aborted by stop: ends waiting for room give up. */
  private readonly stopController = new AbortController()
  private readonly limits: CallLimits
  private readonly now: () => number
  private readonly timestamp: () => string
  private readonly maxCalls: number
  /** Calls holding one of the maxCalls places: from the moment their connection passed the checks until their session finished. */
  private placesTaken = 0
  private sweepTimer: ReturnType<typeof setInterval> | undefined
  private stopping = false

  constructor(private readonly options: ConversationHostOptions) {
    this.limits = { ...DEFAULT_CALL_LIMITS, ...options.limits }
    this.now = options.now ?? Date.now
    this.timestamp = options.timestamp ?? (() => new Date().toISOString())
    this.maxCalls = options.maxCalls ?? DEFAULT_MAX_CALLS
    const problem = maxCallsProblem(this.maxCalls)
    if (problem) throw new Error(`The cap on concurrent calls (maxCalls) ${problem}`)
    this.recordings = new RecordingsAwaitingRoom({
      media: options.media,
      store: options.store,
      diskFull: options.diskFull,
      maxBytes: options.heldRecordingBytes ?? DEFAULT_HELD_RECORDING_BYTES,
      timestamp: this.timestamp,
      changed: options.recordingChanged,
      onError: options.onError,
    })
  }

  /** Live calls now. */
  get activeCalls(): number {
    return this.sessions.size
  }

  /** Places of the cap taken now: live calls and connections still starting. */
  get callPlacesTaken(): number {
    return this.placesTaken
  }

  /** Places of the cap free now (`--max-calls` less those taken): the SIP line answers busy at none, before it makes a conversation. */
  get callPlacesLeft(): number {
    return this.maxCalls - this.placesTaken
  }

  start(): void {
    void this.sweep()
    this.sweepTimer = setInterval(() => void this.sweep(), this.limits.leaseMs)
    this.sweepTimer.unref?.()
  }

  /**
   * Connects a socket to conversation `jobId` of `projectId`. Answers the call, or undefined
   * when there is none to connect (the transport was told why, in an `info` frame, and closed).
   */
  async connect(jobId: string, projectId: string, transport: CallTransport): Promise<CallSession | undefined> {
    const refuse = (code: string, message: string) => {
      const frame: ServerFrame = { event: 'info', code, message }
      transport.send(frame)
      transport.close()
      return undefined
    }
    if (this.stopping) return refuse('UNAVAILABLE', 'The service is stopping; start a new conversation once it is back')
    const { store } = this.options
    const job = await store.jobs.findInProject(jobId, projectId)
    if (!job || job.type !== 'CONVERSATION')
      return refuse('NOT_FOUND', `No conversation ${jobId} in this key's project (start one with POST /v1/voice-agents/conversation-init)`)
    if (job.status !== 'PENDING') {
      return refuse(
        'CONVERSATION_NOT_PENDING',
        `Conversation ${jobId} is ${job.status}: a conversation is connected once; start a new one with conversation-init`,
      )
    }
    const stored = ConversationStateSchema.safeParse(job.jobResponse)
    if (!stored.success) return refuse('INTERNAL', `Conversation ${jobId} has a damaged record`)
    // Taken and checked with no await between, so calls connecting at once never pass the cap together.
    if (this.placesTaken >= this.maxCalls) return this.refuseOverCap(job, projectId, stored.data, refuse)
    this.placesTaken += 1
    let session: CallSession | undefined
    try {
      session = await this.open(job, projectId, { ...stored.data, startedAt: this.timestamp() }, transport, refuse)
    } finally {
      if (!session) this.placesTaken -= 1
    }
    return session
  }

  /** Starts the conversation of a connection that has a place: answers its session, or undefined when refused. */
  private async open(
    job: JobRecord,
    projectId: string,
    initialState: ConversationState,
    transport: CallTransport,
    refuse: (code: string, message: string) => undefined,
  ): Promise<CallSession | undefined> {
    const { store } = this.options
    const jobId = job.id
    const newest = job.voiceAgentId ? await newestAgentVersion(store, job.voiceAgentId, projectId) : undefined
    const agent = newest?.agent
    // The call runs against the agent as it is now: the version it records is that one, not conversation-init's.
    const state: ConversationState = { ...initialState, agentVersion: newest?.version ?? initialState.agentVersion ?? null }
    const leaseUntil = () => this.now() + this.limits.leaseMs
    const progress = {
      text: '',
      jobResponse: state as unknown as Record<string, unknown>,
      usageSeconds: 0,
      totalCost: this.options.costOf(0),
    }
    if (!agent) {
      const ended = await store.transaction(async (tx) => {
        const started = await tx.conversations.start(job.id, this.options.owner, leaseUntil(), progress, this.timestamp())
        return (
          started &&
          (await tx.jobs.fail(
            job.id,
            this.options.owner,
            'AGENT_MISSING',
            'The voice agent of this conversation was deleted before the call started',
            this.timestamp(),
          ))
        )
      })
      if (ended) this.options.changed({ ...job, status: 'FAILED' })
      return refuse('AGENT_MISSING', 'The voice agent of this conversation was deleted')
    }
    let queued = false
    const started = await store.transaction(async (tx) => {
      const record = await tx.conversations.start(job.id, this.options.owner, leaseUntil(), progress, this.timestamp())
      if (record) queued = await this.options.writeEvent(tx, { job: record, agent }, 'call.started', { params: state.params })
      return record
    })
    if (!started) return refuse('CONVERSATION_NOT_PENDING', `Conversation ${jobId} was connected already`)
    if (queued) this.options.webhookQueued()
    this.options.changed(started)

    const params = state.params
    const tools: DialogueTool[] = state.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    }))
    const engines = await this.options.engines()
    // The agent's voice dictionaries as they are now: a change made during the call counts from the next one.
    const pronunciations = (await store.voiceDictionaries.findActiveForAgent(agent.id, projectId)).flatMap((dictionary) => dictionary.words)
    const dialogue = engines.dialogue.startSession(
      {
        agentName: agent.agentName,
        lang: agent.lang,
        greeting: fillPlaceholders(agent.greetingMessage, params),
        preamble: fillPlaceholders(agent.preamble, params),
        outcome: agent.outcome,
        outcomeShape: (agent.outcomeResponseShape as OutcomeShape | null) ?? null,
        smartCallEnd: agent.tools.smartCallEnd === true,
        keypad: state.channel === 'SIP',
      },
      tools,
    )
    const session = new CallSession({
      job: started,
      agent,
      pronunciations,
      owner: this.options.owner,
      state,
      store,
      recordings: this.recordings,
      diskFull: this.options.diskFull,
      stopping: this.stopController.signal,
      audio: this.options.audio,
      dialogue,
      tools,
      stt: engines.stt,
      transport,
      writeEvent: this.options.writeEvent,
      limits: this.limits,
      costOf: this.options.costOf,
      now: this.now,
      timestamp: this.timestamp,
      webhookQueued: this.options.webhookQueued,
      changed: this.options.changed,
      onError: this.options.onError,
    })
    this.sessions.add(session)
    void session.finished.then(() => {
      this.sessions.delete(session)
      this.placesTaken -= 1
    })
    return session
  }

  /**
   * A connection over the cap: its conversation ends FAILED (TOO_MANY_CALLS) with its
   * `call.ended` webhook, and the socket hears why. A call that never started takes no place.
   */
  private async refuseOverCap(
    job: JobRecord,
    projectId: string,
    state: ConversationState,
    refuse: (code: string, message: string) => undefined,
  ): Promise<undefined> {
    const { store, owner } = this.options
    const message = `All ${this.maxCalls} places for concurrent calls on this service are taken (--max-calls ${this.maxCalls}): start a new conversation when a call ends`
    const agent = job.voiceAgentId ? await store.voiceAgents.findInProject(job.voiceAgentId, projectId) : undefined
    const progress = {
      text: '',
      jobResponse: state as unknown as Record<string, unknown>,
      usageSeconds: 0,
      totalCost: this.options.costOf(0),
    }
    let queued = false
    const outcome = await store.transaction(async (tx) => {
      if (!(await tx.conversations.start(job.id, owner, this.now() + this.limits.leaseMs, progress, this.timestamp()))) return 'taken'
      if (!(await tx.jobs.fail(job.id, owner, 'TOO_MANY_CALLS', message, this.timestamp()))) return 'taken'
      if (agent) {
        const error = { code: 'TOO_MANY_CALLS', message }
        queued = await this.options.writeEvent(tx, { job, agent }, 'call.ended', {
          status: 'FAILED',
          endReason: 'error',
          duration: 0,
          transcription: [],
          outcomeResult: null,
          error,
        })
      }
      return 'failed'
    })
    if (queued) this.options.webhookQueued()
    if (outcome === 'taken') return refuse('CONVERSATION_NOT_PENDING', `Conversation ${job.id} was connected already`)
    this.options.changed({ ...job, status: 'FAILED' })
    return refuse('TOO_MANY_CALLS', message)
  }

  /**
   * Ends every live call (`service-stopped`), writing each; then no new call connects. Recordings
   * still waiting for room are tried once more, and marked lost when they still do not fit.
   */
  async stop(): Promise<void> {
    this.stopping = true
    this.stopController.abort()
    if (this.sweepTimer) clearInterval(this.sweepTimer)
    await Promise.all([...this.sessions].map((session) => session.end('service-stopped')))
    await this.recordings.stop()
  }

  private async sweep(): Promise<void> {
    try {
      if ((await this.options.store.conversations.requeueAbandoned(this.now())) > 0) this.options.jobsRequeued()
    } catch (error) {
      this.options.onError(error, 'looking for calls whose service died failed')
    }
  }
}
