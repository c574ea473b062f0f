import type { Readable } from 'node:stream'
import type { z } from 'zod'
import type { ConversationState } from '../shared/api/conversations'
import type { JobErrorCode } from '../shared/api/job-error-codes'
import type { JobType } from '../shared/api/jobs'
import type {
  ApiKeyRecord,
  AttemptOutcome,
  ConversationAnalyticsQuery,
  ConversationExportRow,
  ConversationFactsRow,
  AttemptRecord,
  ConversationProgress,
  DeliveryListQuery,
  DeliveryRecord,
  JobListQuery,
  JobOutcome,
  JobRecord,
  JobsByDayRow,
  JobStatisticsRow,
  KeyIdentity,
  NewDelivery,
  OutcomeFieldCount,
  ProjectCounts,
  ProjectRow,
  PhoneNumberFilter,
  PhoneNumberRecord,
  SipUserRecord,
  PhoneNumberView,
  ProjectRecord,
  RatingValueCount,
  TestRunProgress,
  TestRunRecord,
  TestSuiteRecord,
  VoiceAgentFilter,
  VoiceAgentRecord,
  VoiceAgentVersionRecord,
  VoiceDictionaryFilter,
  VoiceDictionaryRecord,
  VoiceDictionaryView,
} from './records'

/*
 * The storage port: what use cases, the job runner and the webhook sender may ask of a store.
 * Plain interfaces, no driver types; src/store/sqlite and src/store/postgres implement them,
 * each with its own SQL. Every call is async (PostgreSQL answers over a socket); SQLite answers
 * at once. A write that has to commit with another takes the transaction handle (`tx`) that
 * `Store.transaction` passes to its work, and uses the handle's repositories.
 */

/** Which calls a minimal call list keeps; bounds are ISO 8601 UTC, both included. */
export interface CallListFilter {
  voiceAgentId?: string
  statuses?: readonly string[]
  createdFrom?: string
  createdTo?: string
}

/** A page of records with the counts a list shows. */
export interface Page<T> {
  records: T[]
  /** Everything in the project, whatever the filter. */
  total: number
  /** What the filter keeps. */
  filtered: number
}

/** Projects, the local user and API keys: who may call the service and what they see. */
export interface AccountsRepository {
  findDefaultProject(): Promise<ProjectRecord | undefined>
  findProject(id: string): Promise<ProjectRecord | undefined>
  insertProject(project: ProjectRecord): Promise<void>
  findLocalUserId(): Promise<string | undefined>
  insertLocalUser(id: string, name: string, createdAt: string): Promise<void>
  insertKey(key: Omit<ApiKeyRecord, 'lastUsedAt' | 'revokedAt'>): Promise<void>
  /** The hot path of every request: one indexed lookup. */
  findActiveKeyByHash(keyHash: string): Promise<KeyIdentity | undefined>
  findKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>
  findKey(id: string): Promise<ApiKeyRecord | undefined>
  listKeys(projectId: string): Promise<ApiKeyRecord[]>
  touchKey(id: string, at: string): Promise<void>
  /** False when the key was already revoked (or is unknown). */
  revokeKey(id: string, at: string): Promise<boolean>
  restoreKey(id: string): Promise<void>
}

export interface VoiceAgentsRepository {
  insert(record: VoiceAgentRecord): Promise<void>
  replace(record: VoiceAgentRecord): Promise<void>
  findInProject(id: string, projectId: string): Promise<VoiceAgentRecord | undefined>
  /**
   * findInProject, holding the agent's row until the transaction ends (PostgreSQL: FOR UPDATE;
   * SQLite's transaction holds the write lock already): a read-modify-write of two changes at
   * once then applies both, the second on top of the first.
   */
  findForChange(id: string, projectId: string): Promise<VoiceAgentRecord | undefined>
  list(projectId: string, filter: VoiceAgentFilter, limit: number, offset: number): Promise<Page<VoiceAgentRecord>>
  /** Deletes the agent and its versions. */
  remove(id: string, projectId: string): Promise<boolean>
  /**
   * Writes `record` as its agent's next version (1 for an agent with none) and answers its
   * number. Call it with the transaction that wrote the agent: the number is taken under that
   * write's lock, so two changes at once get two consecutive numbers.
   */
  addVersion(record: VoiceAgentRecord, source: string, versionedAt: string): Promise<number>
  /** Newest first. `total` and `filtered` are both the agent's count of versions. */
  listVersions(id: string, projectId: string, limit: number, offset: number): Promise<Page<VoiceAgentVersionRecord>>
  findVersion(id: string, projectId: string, version: number): Promise<VoiceAgentVersionRecord | undefined>
  /** The agent's newest version number, undefined when it has none (or is no agent of the project). */
  latestVersion(id: string, projectId: string): Promise<number | undefined>
}

/**
 * Voice dictionaries of a project, and which agents each is active for (docs/api.md, "Voice
 * dictionaries"). Deleting a dictionary or an agent ends its activations.
 */
export interface VoiceDictionariesRepository {
  insert(record: VoiceDictionaryRecord): Promise<void>
  /** Writes the name and words; false when there is no such dictionary in the project. */
  update(record: VoiceDictionaryRecord): Promise<boolean>
  findInProject(id: string, projectId: string): Promise<VoiceDictionaryView | undefined>
  /** Newest first, ties broken by id. */
  list(projectId: string, filter: VoiceDictionaryFilter, limit: number, offset: number): Promise<Page<VoiceDictionaryView>>
  remove(id: string, projectId: string): Promise<boolean>
  /**
   * Activates (or deactivates) the dictionary for the agent, both of the project (the caller
   * checked); activating it again keeps its first activation's place. False when nothing changed.
   */
  setActive(id: string, voiceAgentId: string, projectId: string, active: boolean, at: string): Promise<boolean>
  /** The dictionaries active for the agent, in the order they were activated. */
  findActiveForAgent(voiceAgentId: string, projectId: string): Promise<VoiceDictionaryView[]>
}

/** The SIP line's users (service-wide, not a project's): names and digest HA1s, never passwords. */
export interface SipUsersRepository {
  /** False when a user of that name exists (nothing written). */
  insert(record: SipUserRecord): Promise<boolean>
  get(name: string): Promise<SipUserRecord | undefined>
  /** Every user, by name. */
  list(): Promise<SipUserRecord[]>
  count(): Promise<number>
  /** A new password's HA1; false when there is no such user. */
  setPassword(name: string, ha1Md5: string, updatedAt: string): Promise<boolean>
  remove(name: string): Promise<boolean>
}

export interface PhoneNumbersRepository {
  insert(record: PhoneNumberRecord): Promise<void>
  findInProject(id: string, projectId: string): Promise<PhoneNumberView | undefined>
  findByNumber(number: string, projectId: string): Promise<PhoneNumberView | undefined>
  /**
   * Every registration of `number` in any project, oldest first: the SIP line answers a call to
   * a number by its one registration (a number registered in two projects is ambiguous, 485).
   */
  findEverywhere(number: string): Promise<PhoneNumberView[]>
  setAgent(id: string, voiceAgentId: string | null, updatedAt: string): Promise<void>
  list(projectId: string, filter: PhoneNumberFilter, limit: number, offset: number): Promise<Page<PhoneNumberView>>
  remove(id: string, projectId: string): Promise<boolean>
}

/**
 * What a claim of one of the runner's lanes may take (docs/api.md, "Jobs"): jobs of `types`, and
 * at most `perProject` of one project under the claiming owner, so one project's jobs never
 * hold every slot of the lane while another project waits.
 */
export interface JobClaimLane {
  types: readonly JobType[]
  perProject: number
}

/**
 * Jobs and their queue. A job is claimed under a lease (`owner` until `leaseUntil`, epoch ms):
 * the claim is one atomic compare-and-swap, so two workers (two processes, two instances) never
 * hold the same job, and a job whose worker died is claimed again once its lease ran out.
 */
export interface JobsRepository {
  insert(record: JobRecord): Promise<void>
  findInProject(id: string, projectId: string): Promise<JobRecord | undefined>
  findById(id: string): Promise<JobRecord | undefined>
  findByPreviewToken(token: string): Promise<JobRecord | undefined>
  /** The newest AI-content job made from `sourceId`. */
  newestFromSource(sourceId: string, projectId: string): Promise<JobRecord | undefined>
  /**
   * Leases a runnable job to `owner` until `leaseUntil` (ms), counting its attempt, or answers
   * undefined. Without a lane: the oldest of any type. With one: a job of the lane's types, the
   * oldest of a project that has none of them running (on any runner); else the oldest of a
   * project that holds fewer than `lane.perProject` of them under `owner`; else none.
   */
  claimNext(owner: string, now: number, leaseUntil: number, lane?: JobClaimLane): Promise<JobRecord | undefined>
  /**
   * Ends a job the owner still holds and answers it as ended (read in the same statement: no
   * second round trip); undefined when the lease was lost (the job is someone else's now).
   */
  complete(id: string, owner: string, outcome: JobOutcome, updatedAt: string): Promise<JobRecord | undefined>
  fail(id: string, owner: string, code: JobErrorCode, message: string, updatedAt: string): Promise<JobRecord | undefined>
  /** Gives the job back to the queue, to run again from `runAfter` (ms). */
  retryLater(id: string, owner: string, runAfter: number, code: JobErrorCode, message: string): Promise<boolean>
  /**
   * A long job's sign of life: extends the lease the owner holds to `leaseUntil` (ms) and
   * records how far it got (0 to 1, when given). False when the owner no longer holds it.
   */
  heartbeat(id: string, owner: string, leaseUntil: number, progress?: number): Promise<boolean>
  /** Gives the job back without counting the attempt (the runner stopped, the job did not fail). */
  release(id: string, owner: string): Promise<void>
  pendingLeaseOwners(): Promise<string[]>
  /** Those of `names` (MediaStore names) that a job of any project names as its `mediaFile`. */
  namingMedia(names: readonly string[]): Promise<Set<string>>
  releaseLeasesOf(owner: string): Promise<number>
  /**
   * When the earliest waiting job may run (ms), if any waits; a leased job may run again once its
   * lease ran out. `types`: jobs of those types only; `after`: the earliest time later than it
   * (a lane whose due jobs wait for its own slots needs no wake before then).
   */
  nextRunAfter(types?: readonly JobType[], after?: number): Promise<number | undefined>
  /** Unfinished jobs of every project: those a runner holds now, and those waiting for one. */
  queueCounts(): Promise<{ running: number; waiting: number }>
  /** Jobs, credits and media seconds of a project's jobs created since `since` (ISO 8601; '' for all), per type and status. */
  statistics(projectId: string, since: string, until?: string): Promise<JobStatisticsRow[]>
  /** A page of a project's calls (CONVERSATION jobs), newest first; `total` counts all of them. */
  listCalls(projectId: string, filter: CallListFilter, limit: number, offset: number): Promise<Page<JobRecord>>
  /** A page of a project's jobs. `words` must all appear in the title or text, each as a word or a word's start. */
  list(projectId: string, query: JobListQuery): Promise<Page<JobRecord>>
}

/**
 * Live calls, which are jobs of type CONVERSATION: the instance whose socket carries a call
 * holds the job under a lease it renews while the call runs, so a call whose instance died is
 * found (its lease ran out) and ended by whoever sees it first. A call ends through
 * `JobsRepository.complete` or `fail`, with the owner that started it.
 */
export interface ConversationsRepository {
  /**
   * PENDING → IN_PROGRESS for `owner`, leased until `leaseUntil` (ms), with its first state.
   * Undefined when the conversation is not PENDING or another holds it (a second socket, the
   * runner ending a conversation whose socket never opened): one atomic compare-and-swap.
   */
  start(id: string, owner: string, leaseUntil: number, progress: ConversationProgress, updatedAt: string): Promise<JobRecord | undefined>
  /** Writes a running call's progress and extends its lease; false when the owner no longer holds it. */
  save(id: string, owner: string, progress: ConversationProgress, leaseUntil: number, updatedAt: string): Promise<boolean>
  /**
   * Calls whose lease ran out before `now` (their instance died mid-call) go back to the queue,
   * due at once and unleased, where the job runner ends them FAILED (CALL_INTERRUPTED). Answers how many.
   */
  requeueAbandoned(now: number): Promise<number>
  /**
   * Sets the `recording` of a conversation's state (`jobResponse.recording`), or removes it
   * (undefined: the recording is stored), whatever the call's status: a recording waits for
   * room after its call ended. False when there is no such conversation.
   */
  setRecording(id: string, recording: ConversationState['recording'], updatedAt: string): Promise<boolean>
}

/**
 * Analytics of a project's calls and jobs, aggregated in SQL (docs/api.md, "Agent analytics").
 * What a call kept (end reason, duration, turns, barge-ins, pokes, tool calls, answer delays,
 * outcome) is read from columns the database derives from `jobResponse` as it is written, and
 * indexed with the project and creation time, so a read never parses the calls' JSON again
 * (the outcome's fields and ratings excepted: those read one agent's outcomes).
 */
export interface AnalyticsRepository {
  /** The calls of the query's range, grouped by bucket, status and end reason (empty groups left out). */
  conversationFacts(projectId: string, query: ConversationAnalyticsQuery): Promise<ConversationFactsRow[]>
  /** For each of `fields` (top-level outcome fields), how many of the agent's calls in range had it. */
  outcomeFields(projectId: string, voiceAgentId: string, fields: readonly string[], from: string, to: string): Promise<OutcomeFieldCount[]>
  /** The numeric values the agent's calls in range gave the outcome field `field`, with their counts. */
  ratingValues(projectId: string, voiceAgentId: string, field: string, from: string, to: string): Promise<RatingValueCount[]>
  /** The calls of the range (of the agent when given; of `status` when given), oldest first, at most `limit`. */
  exportConversations(
    projectId: string,
    query: { voiceAgentId?: string; status?: string; from: string; to: string; limit: number },
  ): Promise<ConversationExportRow[]>
  /** The project's jobs (calls included) created in [from, to), by local day. */
  jobsByDay(projectId: string, from: string, to: string, offsetMinutes: number): Promise<JobsByDayRow[]>
}

/** Operator settings as JSON values under stable keys. */
export interface SettingsRepository {
  /** The stored value, validated by `schema` (a stored value that fails it throws). */
  get<T extends z.ZodType>(key: string, schema: T): Promise<z.infer<T> | undefined>
  set(key: string, value: unknown): Promise<void>
  delete(key: string): Promise<void>
}

/** The webhook outbox (deliveries waiting or done) and the journal of every attempt. Leased like jobs. */
export interface WebhookDeliveriesRepository {
  /** Stores a delivery. Call it with the transaction that makes its event true. */
  insert(delivery: NewDelivery): Promise<void>
  findById(id: string): Promise<DeliveryRecord | undefined>
  findInProject(id: string, projectId: string): Promise<DeliveryRecord | undefined>
  /** Leases up to `limit` due deliveries to `owner` until `leaseUntil` (ms), counting their attempt. */
  claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<DeliveryRecord[]>
  /**
   * Journals attempts and moves their deliveries on, all in one transaction (one commit for
   * a burst of answers). A delivery whose lease was lost meanwhile keeps its state; its
   * attempt is journaled all the same.
   */
  recordAttempts(owner: string, entries: { attempt: AttemptRecord; outcome: AttemptOutcome }[], updatedAt: string): Promise<void>
  /** Gives a delivery back, due at `now`, without counting its attempt (the sender stopped mid-way). */
  release(id: string, owner: string, now: number): Promise<void>
  /** Ends a claimed delivery EXHAUSTED without an attempt (its tries were used up by attempts a crash cut off). */
  giveUp(id: string, owner: string, error: string, updatedAt: string): Promise<void>
  pendingLeaseOwners(): Promise<string[]>
  releaseLeasesOf(owner: string, now: number): Promise<number>
  /** When the earliest waiting delivery falls due, or a lease runs out (ms), if any waits. */
  nextDueAt(): Promise<number | undefined>
  attemptsOf(deliveryId: string): Promise<AttemptRecord[]>
  /**
   * Queues a delivery of the project for a new round of attempts from now, whatever its state,
   * unless an attempt is in flight. Answers the delivery, 'in-flight', or undefined when unknown.
   */
  redeliver(id: string, projectId: string, now: number, updatedAt: string): Promise<DeliveryRecord | 'in-flight' | undefined>
  list(projectId: string, query: DeliveryListQuery): Promise<Page<DeliveryRecord>>
}

/**
 * A project's data as a stream of engine-neutral rows, and back: what export, import,
 * snapshots and reset stand on (see ProjectRow in records.ts for the row format).
 *
 * What a project's data is: its voice agents, phone numbers, jobs (conversations are jobs of
 * type CONVERSATION: their transcript, state and progress are the job's text and jobResponse),
 * webhook deliveries and their attempts. Not part of it: the project row, users, API keys and
 * settings (per data folder), and derived data (job counts, search words and indexes), which
 * replaceProject rebuilds from the rows. Media bytes are not rows: a job names its media in
 * `JobRecord.mediaFile` (the only field that names media, a MediaStore name); the caller copies
 * those through the MediaStore.
 */
export interface ProjectDataRepository {
  /**
   * Every row of the project as of one point in time, in insert order: agents, phone
   * numbers, jobs, deliveries, attempts (each in the order it was written, so lists that
   * tie-break on write order read the same after an import). Streams in batches: a large project
   * never sits in memory. Writers are not held up for more than a moment: SQLite copies the
   * database with the online backup API into a temporary file and reads the copy (deleted when
   * the iteration ends, or is abandoned); PostgreSQL reads through a cursor in one REPEATABLE
   * READ READ ONLY transaction (which holds one pooled connection until the iteration ends:
   * iterate to the end, or `return()` early, as for-await does on break and throw).
   */
  exportProject(projectId: string): AsyncIterable<ProjectRow>
  /**
   * In one transaction: deletes every row of the project's data (see above; the project, its
   * users and API keys stay), inserts `rows`, and rebuilds the derived data; answers the counts
   * inserted, and the media the project's jobs named before (read in the same transaction: the
   * caller deletes those no new row names). Other projects are untouched. Every row is validated (zod) as it comes: a bad row
   * (or any other failure: a full disk, a duplicate id) rejects with an error naming the row's
   * number and kind, and leaves the project exactly as it was.
   *
   * On the way in: `record.projectId` becomes `projectId` (an archive may come from another
   * project or data folder). An `apiKeyId` that is not a key of the project, or a `userId` that
   * is no user, becomes `options.owner`'s (without `owner`, such a row is an error).
   * Unfinished work comes back abandoned: a PENDING job's lease is cleared (the runner claims it
   * again), an IN_PROGRESS call gets an expired lease held by no runner (the sweep ends it
   * CALL_INTERRUPTED), a PENDING delivery's lease is cleared; so work of the old timeline still
   * running loses its compare-and-swap (complete, fail, heartbeat, save) and writes nothing.
   *
   * `replaceProject(id, [])` is the reset.
   */
  replaceProject(
    projectId: string,
    rows: AsyncIterable<ProjectRow> | Iterable<ProjectRow>,
    options?: ReplaceProjectOptions,
  ): Promise<ReplacedProject>
  /** How many rows of each kind the project has (an import wants an empty project: agents, phone numbers and jobs all 0). */
  projectCounts(projectId: string): Promise<ProjectCounts>
}

export interface ReplacedProject {
  counts: ProjectCounts
  /** `JobRecord.mediaFile` of every job the project had before. */
  mediaBefore: string[]
}

export interface ReplaceProjectOptions {
  /** Whom rows naming an unknown key or user are written as: the importing caller's identity. */
  owner?: KeyIdentity
}

/**
 * Agent test suites (one per agent) and test runs with their results (docs/api.md, "Test suites
 * and runs"). Both belong to the project; deleting the agent deletes them.
 */
export interface TestRunsRepository {
  /** Stores the agent's suite, replacing the one it had. */
  putSuite(record: TestSuiteRecord): Promise<void>
  findSuite(agentId: string, projectId: string): Promise<TestSuiteRecord | undefined>
  insertRun(record: TestRunRecord): Promise<void>
  /** Writes a run's progress; false when it is no longer RUNNING (it was ended as abandoned meanwhile). */
  saveRun(id: string, progress: TestRunProgress): Promise<boolean>
  findRun(id: string, projectId: string): Promise<TestRunRecord | undefined>
  /** The agent's runs, newest first. */
  listRuns(agentId: string, projectId: string, limit: number): Promise<TestRunRecord[]>
  /** Ends FAILED, with `error`, every RUNNING run whose lease ran out before `now` (ms); answers how many. */
  failAbandonedRuns(now: number, error: string, updatedAt: string): Promise<number>
}

/** Every repository, bound to one connection or one transaction. */
export interface Repositories {
  accounts: AccountsRepository
  voiceAgents: VoiceAgentsRepository
  phoneNumbers: PhoneNumbersRepository
  sipUsers: SipUsersRepository
  jobs: JobsRepository
  conversations: ConversationsRepository
  settings: SettingsRepository
  webhookDeliveries: WebhookDeliveriesRepository
  testRuns: TestRunsRepository
  voiceDictionaries: VoiceDictionariesRepository
  analytics: AnalyticsRepository
}

declare const transactionHandle: unique symbol

/**
 * The mark of a transaction's handle, which only `Store.transaction` gives out: the store has
 * the same repositories but not the mark, so it cannot be passed where a handle is asked for.
 */
export interface TransactionHandle {
  readonly [transactionHandle]: true
}

/**
 * The handle of an open transaction: its repositories read what the transaction wrote, and
 * write into it. Valid only until the work passed to `Store.transaction` settles.
 */
export type StoreTransaction = Repositories & TransactionHandle

/** Some of a transaction's repositories: what a function that writes as part of its caller's transaction takes. */
export type TransactionPart<K extends keyof Repositories> = Pick<Repositories, K> & TransactionHandle

/** Media a job made (audio), by its unguessable name, where every instance of the service can read it. */
export interface MediaStore {
  /** Stores `bytes` under `name`, whole or not at all. */
  put(name: string, bytes: Buffer, signal?: AbortSignal): Promise<void>
  /** Its size, and a stream of bytes `start`..`end` (inclusive; the whole when left out); undefined when unknown. */
  open(name: string, range?: { start: number; end: number }): Promise<{ size: number; stream: Readable } | undefined>
  /** Its size, or undefined when there is no such media. */
  size(name: string): Promise<number | undefined>
  /**
   * Stores what `source` streams under `name` (replacing media of that name), whole or not at
   * all, holding no more than a chunk or two of it in memory. More than `maxBytes` rejects with
   * MediaTooLargeError; a full disk with the storage error (see storage-errors.ts); an abort of
   * `signal`, or an error of `source`, with that error. A rejected put leaves nothing behind,
   * and destroys `source`.
   */
  putStream(name: string, source: Readable, options: { maxBytes: number; signal?: AbortSignal }): Promise<{ size: number }>
  /** Removes the media (nothing when there is none). */
  delete(name: string): Promise<void>
  /**
   * Runs `use` with a real file that holds the media, for code that must seek in it (a decoder
   * reading mp4), and answers what it answers; undefined (without calling `use`) when there is
   * no such media. The file is read-only to `use` and may be gone once `use` settled.
   */
  withLocalFile<T>(name: string, use: (path: string) => Promise<T>): Promise<T | undefined>
}

/** Kinds of work other processes or instances may queue, for `Store.onWork`. */
export type WorkKind = 'jobs' | 'webhooks'

/** The migrated database and its repositories, opened once per runtime. */
export interface Store extends Repositories {
  readonly engine: 'sqlite' | 'postgres'
  /** Export and replace a project's data whole. Not part of a transaction: replaceProject is one of its own. */
  readonly projectData: ProjectDataRepository
  /**
   * Runs `work` in one transaction: all of it is written, or none. `work` must use the
   * handle's repositories and must not wait on anything but them: the transaction holds the
   * write lock (SQLite) or a pooled connection (PostgreSQL) while it runs. The store's own
   * repositories (and `transaction` itself), called from inside `work` (its async context),
   * reject with StoreUsedInsideTransactionError: on SQLite they would wait for the transaction
   * to end, forever; on PostgreSQL they would run outside it. Called from elsewhere meanwhile,
   * they run as usual (SQLite: after the transaction).
   */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>
  /**
   * Changes whenever a row was written, by this process or by another on the same database
   * (seen within a few milliseconds): the key for caches of derived reads. Synchronous and cheap.
   */
  changeVersion(): string
  /**
   * Calls `listener` when another process or instance queued work of `kind` (a job, a due
   * webhook); work queued by this process is announced by the service itself. Answers the
   * unsubscribe function.
   */
  onWork(kind: WorkKind, listener: () => void): () => void
  /** Tells other instances that work of `kind` was queued (after it committed). */
  announceWork(kind: WorkKind): void
  close(): Promise<void>
}
