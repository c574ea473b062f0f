import type { Dispatcher } from 'undici'
import { webhookAuthorization } from '../shared/webhook-authorization'
import type { DiskFullCondition } from '../store/disk-full-condition'
import type { SecretBox } from '../store/secret-box'
import { LeasedWorkerLoop } from '../workers/leased-worker-loop'
import type { AttemptOutcome, AttemptRecord, DeliveryRecord } from '../store/records'
import type { Store, WebhookDeliveriesRepository } from '../store/ports'
import { guardedConnector, REFUSED_ADDRESS_CODE, type Lookup } from './guarded-connector'
import { DEFAULT_RETRY_DELAYS_MS, retryDelayMs } from './retry-schedule'
import { WebhookAddressPolicy } from './webhook-address-policy'
import { signingKeyOf, signWebhook } from './webhook-signature'

/** How much of a receiver's answer the journal keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024

export interface WebhookSenderOptions {
  deliveries: WebhookDeliveriesRepository
  /** Wake-ups when another instance queued a delivery (the store's onWork). */
  onWork?: Store['onWork']
  secrets: SecretBox
  /** The operator's `whsec_` signing secret, read at every attempt; none means unsigned. */
  signingSecret?: () => Promise<string | undefined>
  /** Attempts in flight at once. A receiver that never answers holds one for timeoutMs. */
  concurrency?: number
  /** One attempt's limit, from connecting to the end of the answer. */
  timeoutMs?: number
  /** Waits between tries (see retry-schedule.ts); tests pass short ones. */
  retryDelaysMs?: readonly number[]
  now?: () => number
  random?: () => number
  /** Called after every attempt was journaled, for live views. */
  onAttempt?: (delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome) => void
  /** Called when an attempt starts, for latency measurements. */
  onAttemptStarted?: (delivery: DeliveryRecord) => void
  /** A fault of VoiceDesk, for the log (`delivery` when one is concerned). */
  onError?: (error: unknown, delivery?: DeliveryRecord) => void
  /**
   * The data folder's disk-full state, shared with the runtime: while it lasts no delivery is
   * claimed, and answered attempts wait for space to be journaled (their deliveries stay leased).
   */
  diskFull?: DiskFullCondition
  /** Wait before a write that found the database busy (another process) is tried again. */
  busyRetryMs?: number
  /**
   * An undici dispatcher to send through; the sender's own keep-alive pool by default. Only
   * that pool applies `addressPolicy`: a dispatcher passed in is trusted as it is.
   */
  dispatcher?: Dispatcher
  /** Which addresses may be connected to (link-local and metadata ones are refused by default). */
  addressPolicy?: WebhookAddressPolicy
  /** How host names are resolved (dns.lookup by default); tests resolve names of their own. */
  lookup?: Lookup
  /**
   * Asked before each attempt (fault injection): a failure answered is journaled as the
   * attempt's result, nothing sent, so retries and the journal behave as for a real failure.
   */
  beforeAttempt?: (delivery: DeliveryRecord) => Promise<{ statusCode: number | null; error: string } | undefined>
}

interface AttemptResult {
  statusCode: number | null
  error: string | null
  responseExcerpt: string | null
}

/**
 * Sends stored deliveries: woken when one is stored, each attempt under a lease (so a delivery
 * whose process died is sent again), journaled, and retried on the schedule until a 2xx
 * answer or the last try. Redirects are not followed: a 3xx is a failed attempt.
 */
export class WebhookSender {
  private readonly loop: LeasedWorkerLoop<DeliveryRecord>
  /** undici is loaded on the first attempt: it costs some 0.15 s, which start-up need not pay. */
  private client: Promise<{ request: typeof import('undici').request; dispatcher: Dispatcher }> | undefined
  /** Attempts answered but not yet journaled: written together, one commit per burst. */
  private journalQueue: { delivery: DeliveryRecord; attempt: AttemptRecord; outcome: AttemptOutcome }[] = []
  private journalWritten: Promise<void> | undefined
  private readonly timeoutMs: number
  private readonly retryDelays: readonly number[]
  private readonly now: () => number
  private readonly random: () => number

  constructor(private readonly options: WebhookSenderOptions) {
    this.timeoutMs = options.timeoutMs ?? 10_000
    this.retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
    this.now = options.now ?? Date.now
    this.random = options.random ?? Math.random
    const { deliveries, onWork } = options
    this.loop = new LeasedWorkerLoop<DeliveryRecord>(
      {
        claim: (owner, free, now) => deliveries.claimDue(owner, now, now + this.timeoutMs + 30_000, free),
        process: (delivery, stopSignal) =>
          delivery.roundAttempts > this.triesPerRound ? this.giveUp(delivery) : this.attempt(delivery, stopSignal),
        nextDueAt: () => deliveries.nextDueAt(),
        leaseOwners: () => deliveries.pendingLeaseOwners(),
        releaseLeasesOf: (owner) => deliveries.releaseLeasesOf(owner, this.now()),
      },
      {
        concurrency: options.concurrency ?? 256,
        now: this.now,
        diskFull: options.diskFull,
        busyRetryMs: options.busyRetryMs,
        onError: (error, item) => options.onError?.(error, item as DeliveryRecord | undefined),
        subscribe: onWork ? (wake) => onWork('webhooks', wake) : undefined,
      },
    )
  }

  /** Tries in all per round: the first, then one after each wait of the schedule. */
  private get triesPerRound(): number {
    return this.retryDelays.length + 1
  }

  private loadClient() {
    return (this.client ??= import('undici').then(({ Agent, buildConnector, request }) => ({
      request,
      dispatcher:
        this.options.dispatcher ??
        new Agent({
          connect: guardedConnector(buildConnector, this.options.addressPolicy ?? new WebhookAddressPolicy(), {
            timeout: this.timeoutMs,
            lookup: this.options.lookup,
          }),
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
          keepAliveTimeout: 4_000,
        }),
    })))
  }

  /** Takes back the deliveries of dead senders on this host, then sends what is due. */
  start(): Promise<void> {
    return this.loop.start()
  }

  /** Starts due deliveries in free slots. Cheap: called whenever a delivery is stored. Never throws. */
  wake(): void {
    this.loop.wake()
  }

  get attemptsInFlight(): number {
    return this.loop.active
  }

  /**
   * Stops starting attempts and waits up to `graceMs` for those in flight; any still waiting
   * then are cut off and given back uncounted, to be sent on the next start.
   */
  async stop(graceMs = 2_000): Promise<void> {
    await this.loop.stop(graceMs)
    // The sender's own pool is closed; one passed in belongs to the caller.
    if (this.client && !this.options.dispatcher) await (await this.client).dispatcher.close().catch(() => undefined)
  }

  /**
   * Tries are counted when a delivery is claimed, so one whose attempts were all cut off by a
   * crash (the process died while sending, every time) ends EXHAUSTED instead of going round forever.
   */
  private async giveUp(delivery: DeliveryRecord): Promise<void> {
    const tries = this.triesPerRound
    const error = `VoiceDesk stopped during each of the last ${tries} tries (a crash or a kill) before an answer was journaled; no more tries`
    await this.loop.persist(
      () => this.options.deliveries.giveUp(delivery.id, this.loop.owner, error, new Date(this.now()).toISOString()),
      delivery,
    )
  }

  private async attempt(delivery: DeliveryRecord, stopSignal: AbortSignal): Promise<void> {
    try {
      this.options.onAttemptStarted?.(delivery)
    } catch (error) {
      // A failing hook must not keep the delivery from being sent (it would stay leased, its try counted).
      this.loop.reportFault(error, delivery)
    }
    const startedAt = new Date(this.now()).toISOString()
    const started = performance.now()
    const result = (await this.injectedFailure(delivery)) ?? (await this.post(delivery, stopSignal))
    const latencyMs = Math.round((performance.now() - started) * 100) / 100
    if (stopSignal.aborted && result.statusCode === null) {
      // Cut off by shutdown, not by the receiver: the attempt does not count.
      try {
        await this.options.deliveries.release(delivery.id, this.loop.owner, this.now())
      } catch (error) {
        this.loop.noteStorageFailure(error, delivery) // left leased: sent again when the lease runs out
      }
      return
    }
    const attempt: AttemptRecord = { deliveryId: delivery.id, attempt: delivery.attempts, startedAt, latencyMs, ...result }
    await this.journal({ delivery, attempt, outcome: this.outcomeOf(delivery, result) })
  }

  /**
   * Queues an answered attempt for the journal; resolves once it is written. Answers that come
   * in together (a burst to a fast receiver) share one transaction. Until then the delivery
   * stays leased, so a crash in between only means it is sent again. Never rejects.
   */
  private journal(entry: { delivery: DeliveryRecord; attempt: AttemptRecord; outcome: AttemptOutcome }): Promise<void> {
    this.journalQueue.push(entry)
    this.journalWritten ??= new Promise<void>((resolve) => {
      setImmediate(() => {
        const batch = this.journalQueue
        this.journalQueue = []
        this.journalWritten = undefined
        void this.writeJournal(batch).then(resolve)
      })
    })
    return this.journalWritten
  }

  /**
   * Journals a batch. A full disk or a busy database makes it wait and write again (the
   * deliveries stay leased meanwhile). Given up on shutdown or a fault: the deliveries are
   * then sent again once their leases run out (at least once).
   */
  private async writeJournal(batch: { delivery: DeliveryRecord; attempt: AttemptRecord; outcome: AttemptOutcome }[]): Promise<void> {
    const written = await this.loop.persist(
      () => this.options.deliveries.recordAttempts(this.loop.owner, batch, new Date(this.now()).toISOString()),
      batch[0]?.delivery,
    )
    if (!written) return
    for (const { delivery, attempt, outcome } of batch) {
      try {
        this.options.onAttempt?.(delivery, attempt, outcome)
      } catch (error) {
        this.loop.reportFault(error, delivery)
      }
    }
  }

  private outcomeOf(delivery: DeliveryRecord, result: AttemptResult): AttemptOutcome {
    if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) return { status: 'DELIVERED' }
    const wait = retryDelayMs(delivery.roundAttempts, this.retryDelays, this.random)
    return wait === undefined ? { status: 'EXHAUSTED' } : { status: 'PENDING', nextAttemptAt: this.now() + wait }
  }

  /** The failure fault injection makes of this attempt, if any; a failing hook is logged and the attempt sent. */
  private async injectedFailure(delivery: DeliveryRecord): Promise<AttemptResult | undefined> {
    if (!this.options.beforeAttempt) return undefined
    try {
      const failure = await this.options.beforeAttempt(delivery)
      return failure && { statusCode: failure.statusCode, error: failure.error, responseExcerpt: null }
    } catch (error) {
      this.loop.reportFault(error, delivery)
      return undefined
    }
  }

  /** One POST; never throws: what went wrong is the result. */
  private async post(delivery: DeliveryRecord, stopSignal: AbortSignal): Promise<AttemptResult> {
    const timestamp = Math.floor(this.now() / 1000)
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'VoiceDesk-Webhooks/1',
      'webhook-id': delivery.id,
      'webhook-timestamp': String(timestamp),
    }
    // A job's webhookAuth may have one part only: the header carries what was given.
    const authorization = webhookAuthorization(
      delivery.authKey,
      delivery.authSecret === null ? null : this.options.secrets.decrypt(delivery.authSecret),
    )
    if (authorization !== undefined) headers.authorization = authorization
    const secret = await this.options.signingSecret?.()
    const key = secret === undefined ? undefined : signingKeyOf(secret)
    if (key) headers['webhook-signature'] = signWebhook(key, delivery.id, timestamp, delivery.payload)

    const timeout = AbortSignal.timeout(this.timeoutMs)
    const signal = AbortSignal.any([timeout, stopSignal])
    try {
      const { request, dispatcher } = await this.loadClient()
      const response = await request(delivery.url, { method: 'POST', headers, body: delivery.payload, dispatcher, signal })
      const responseExcerpt = await readExcerpt(response.body)
      const { statusCode } = response
      let error: string | null = null
      if (statusCode >= 300 && statusCode < 400) {
        const location = response.headers.location
        error = `Redirects are not followed (${statusCode}${typeof location === 'string' ? ` to ${location.slice(0, 200)}` : ''})`
      } else if (statusCode >= 400) {
        error = `The receiver answered ${statusCode}`
      }
      return { statusCode, error, responseExcerpt }
    } catch (error) {
      return { statusCode: null, error: describeNetworkError(error, timeout.aborted, this.timeoutMs), responseExcerpt: null }
    }
  }
}

/** The first KiB of an answer as text; the rest is left unread (the connection is then dropped). */
async function readExcerpt(body: Dispatcher.ResponseData['body']): Promise<string | null> {
  const chunks: Buffer[] = []
  let length = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk)
    length += chunk.length
    if (length >= RESPONSE_EXCERPT_BYTES) break
  }
  if (length === 0) return null
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8')
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'The connection was reset',
  ENOTFOUND: 'Host not found',
  EAI_AGAIN: 'Host name lookup failed',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
  UND_ERR_SOCKET: 'The connection closed before an answer',
  UND_ERR_CONNECT_TIMEOUT: 'Connecting timed out',
  UND_ERR_HEADERS_TIMEOUT: 'No answer in time',
  UND_ERR_BODY_TIMEOUT: 'The answer stalled',
}

function describeNetworkError(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `No answer within ${Math.round(timeoutMs / 100) / 10} s`
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code
  if (code === REFUSED_ADDRESS_CODE && error instanceof Error) return error.message
  const known = code === undefined ? undefined : NETWORK_ERRORS[code]
  if (known) return `${known} (${code})`
  const message = error instanceof Error ? error.message : String(error)
  return code ? `${message} (${code})` : message
}
