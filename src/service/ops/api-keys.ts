import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { z } from 'zod'
import { NUL_MESSAGE } from '../../shared/api/common'
import { holdsNul } from '../../shared/text/control-characters'
import type { ApiKeyRecord } from '../../store/records'
import type { Repositories, Store } from '../../store/ports'
import { storageFailureOf } from '../../store/storage-errors'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { ReadCache } from './read-cache'
import { invalid, ServiceError } from './service-error'

const KEY_PREFIX = 'vd_'
/** last_used_at is a hint for the operator, so it is written at most once a minute per key. */
const TOUCH_INTERVAL_MS = 60_000

/** Key management needs only the store and a clock (the CLI uses it without a running service). */
export type AccountsContext = Pick<OpsContext, 'store' | 'now'>

/** Keys carry 256 random bits, so one SHA-256 is a sound and cheap way to store them. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex')
}

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url')
}

/**
 * What an operator may see of a key once it was shown: at most its first 6 and last 4
 * characters, and less of a short key, so a hint never gives away much of its secret.
 */
export function keyHint(key: string): string {
  const head = Math.min(6, Math.floor(key.length / 4))
  const tail = Math.min(4, Math.floor(key.length / 8))
  return `${key.slice(0, head)}…${tail > 0 ? key.slice(-tail) : ''}`
}

/** Keys go into WebSocket URLs unencoded (the web SDK's `?api_key=`), so they stay URL-safe. */
const FIXED_KEY_PATTERN = /^[A-Za-z0-9_-]+$/
export const FIXED_KEY_MIN_LENGTH = 20

/** Why VOICEDESK_API_KEY cannot be used as a key, or undefined when it can. */
export function fixedApiKeyProblem(key: string): string | undefined {
  if (key.length < FIXED_KEY_MIN_LENGTH) {
    return `is ${key.length} characters long; a key needs at least ${FIXED_KEY_MIN_LENGTH} (make one with: openssl rand -hex 24)`
  }
  const bad = [...key].find((character) => !FIXED_KEY_PATTERN.test(character))
  if (bad !== undefined) {
    return `holds ${JSON.stringify(bad)}; a key may hold only A-Z, a-z, 0-9, _ and - (it travels unencoded in URLs)`
  }
  return undefined
}

/** The name a VOICEDESK_API_KEY record carries, so `keys list` can say where it came from. */
export const FIXED_KEY_NAME = 'VOICEDESK_API_KEY'

export interface Bootstrap {
  projectId: string
  userId: string
  /** The full key created on this start, to be shown once; absent when keys already existed. */
  createdKey?: string
  /**
   * Where the key to use came from, for the start-up banner: made on this start, the first
   * key made on an earlier start and never used since (shown again, see firstKeyToShow),
   * VOICEDESK_API_KEY, or keys that exist and were used.
   */
  keySource: 'created' | 'unused' | 'environment' | 'existing'
  keyHint: string
}

/**
 * First start: a default project, the local user and one key. With `fixedKey`
 * (VOICEDESK_API_KEY), that exact key exists and is active in the default project.
 */
export function bootstrapAccounts(store: Store, now: Date, fixedKey?: string, options: { createKey?: boolean } = {}): Promise<Bootstrap> {
  return store.transaction(async (tx) => {
    const at = now.toISOString()
    let project = await tx.accounts.findDefaultProject()
    if (!project) {
      project = { id: randomUUID(), name: 'Default project', isDefault: true, createdAt: at }
      await tx.accounts.insertProject(project)
    }
    let userId = await tx.accounts.findLocalUserId()
    if (!userId) {
      userId = randomUUID()
      await tx.accounts.insertLocalUser(userId, 'Local operator', at)
    }
    if (fixedKey !== undefined) {
      const problem = fixedApiKeyProblem(fixedKey)
      if (problem) throw new ServiceError('VALIDATION_ERROR', `VOICEDESK_API_KEY ${problem}`)
      const existing = await tx.accounts.findKeyByHash(hashApiKey(fixedKey))
      if (!existing) {
        await insertKey(tx, project.id, userId, FIXED_KEY_NAME, fixedKey, at)
      } else if (existing.revokedAt) {
        // The operator asked for this key explicitly; honour it even if it was revoked.
        await tx.accounts.restoreKey(existing.id)
      }
      return { projectId: project.id, userId, keySource: 'environment' as const, keyHint: keyHint(fixedKey) }
    }
    // The app's own key cannot be used over HTTP, so it does not count as a key the operator has.
    const appKeyId = await appKeyIdOf(tx)
    const keys = (await tx.accounts.listKeys(project.id)).filter((key) => !key.revokedAt && key.id !== appKeyId)
    const [shown] = keys
    if (shown) return { projectId: project.id, userId, keySource: 'existing' as const, keyHint: shown.keyHint }
    if (options.createKey === false) return { projectId: project.id, userId, keySource: 'existing' as const, keyHint: '' }
    const key = generateApiKey()
    await insertKey(tx, project.id, userId, 'Default key', key, at)
    return { projectId: project.id, userId, createdKey: key, keySource: 'created' as const, keyHint: keyHint(key) }
  })
}

/** The first key's secret, sealed, kept until the key is first used (see firstKeyToShow). */
const UNUSED_FIRST_KEY_SETTING = 'unusedFirstKey'
const UnusedFirstKeySchema = z.object({ id: z.string(), sealed: z.string() })

/** Something that seals and opens secrets (the SecretBox), kept abstract so ops need no key file. */
export interface Sealer {
  encrypt(plaintext: string): string
  decrypt(sealed: string): string
}

/**
 * A first key is never lost: one that was made on a start that then failed, or whose banner
 * scrolled away, is shown again on every start until it has been used once (or revoked).
 * Its secret waits, sealed like every other secret, in the settings; the first use ends that.
 * Returns the bootstrap to show, with the key filled in while it is still unused.
 */
export async function firstKeyToShow(store: Store, secrets: Sealer, bootstrap: Bootstrap): Promise<Bootstrap> {
  if (bootstrap.keySource === 'created' && bootstrap.createdKey !== undefined) {
    const record = await store.accounts.findKeyByHash(hashApiKey(bootstrap.createdKey))
    if (record) await store.settings.set(UNUSED_FIRST_KEY_SETTING, { id: record.id, sealed: secrets.encrypt(bootstrap.createdKey) })
    return bootstrap
  }
  const waiting = await store.settings.get(UNUSED_FIRST_KEY_SETTING, UnusedFirstKeySchema)
  if (!waiting) return bootstrap
  const record = await store.accounts.findKey(waiting.id)
  if (!record || record.revokedAt || record.lastUsedAt) {
    await store.settings.delete(UNUSED_FIRST_KEY_SETTING)
    return bootstrap
  }
  if (bootstrap.keySource === 'environment') return bootstrap
  return { ...bootstrap, keySource: 'unused', createdKey: secrets.decrypt(waiting.sealed), keyHint: record.keyHint }
}

async function insertKey(
  repositories: Repositories,
  projectId: string,
  userId: string,
  name: string,
  key: string,
  at: string,
): Promise<ApiKeyRecord> {
  const record = { id: randomUUID(), projectId, userId, name, keyHash: hashApiKey(key), keyHint: keyHint(key), createdAt: at }
  await repositories.accounts.insertKey(record)
  return { ...record, lastUsedAt: null, revokedAt: null }
}

/** Creates a key; the full key is in the answer and nowhere else, ever again. */
export function createApiKey(context: AccountsContext, projectId: string, name: string): Promise<{ record: ApiKeyRecord; key: string }> {
  return createApiKeyWith(context.store, context, projectId, name)
}

async function createApiKeyWith(
  repositories: Repositories,
  context: AccountsContext,
  projectId: string,
  name: string,
): Promise<{ record: ApiKeyRecord; key: string }> {
  // The /v1 and IPC schemas refuse it already; the CLI's --name comes straight here.
  if (holdsNul(name)) throw invalid('name', NUL_MESSAGE)
  const project = await repositories.accounts.findProject(projectId)
  if (!project) throw new ServiceError('NOT_FOUND', `No project with id ${JSON.stringify(projectId)}`)
  const userId = await repositories.accounts.findLocalUserId()
  if (!userId) throw new Error('The local user is missing: bootstrapAccounts must run first')
  const key = generateApiKey()
  return { record: await insertKey(repositories, projectId, userId, name, key, timestamp(context)), key }
}

/** Creates a project with its first key (for a second workspace, or to test isolation). */
export function createProject(context: AccountsContext, name: string): Promise<{ projectId: string; key: string }> {
  return context.store.transaction(async (tx) => {
    const projectId = randomUUID()
    await tx.accounts.insertProject({ id: projectId, name, isDefault: false, createdAt: timestamp(context) })
    return { projectId, key: (await createApiKeyWith(tx, context, projectId, 'Default key')).key }
  })
}

export function listApiKeys(context: AccountsContext, projectId: string): Promise<ApiKeyRecord[]> {
  return context.store.accounts.listKeys(projectId)
}

/**
 * Revokes a key. With `projectId`, a key of another project is unknown (NOT_FOUND). The app's
 * own key is refused (CONFLICT): the operator UI acts with it, and it works nowhere else.
 */
export async function revokeApiKey(context: AccountsContext, apiKeyId: string, projectId?: string): Promise<void> {
  if (projectId !== undefined && (await context.store.accounts.findKey(apiKeyId))?.projectId !== projectId) {
    throw new ServiceError('NOT_FOUND', `No API key with id ${JSON.stringify(apiKeyId)} in this project`)
  }
  if (apiKeyId === (await appKeyIdOf(context.store))) {
    throw new ServiceError('CONFLICT', 'This is the key the VoiceDesk app itself acts with; it cannot be revoked')
  }
  if (!(await context.store.accounts.revokeKey(apiKeyId, timestamp(context)))) {
    throw new ServiceError('NOT_FOUND', `No active API key with id ${JSON.stringify(apiKeyId)}`)
  }
}

/** The setting that remembers which key record is the app's own (see ensureAppIdentity). */
const APP_KEY_SETTING = 'appKeyId'
const AppKeySettingSchema = z.object({ id: z.string() })
export const APP_KEY_NAME = 'VoiceDesk app'

/** The id of the app's own key record, once ensureAppIdentity made it. */
export async function appKeyIdOf(repositories: Repositories): Promise<string | undefined> {
  return (await repositories.settings.get(APP_KEY_SETTING, AppKeySettingSchema))?.id
}

/**
 * The identity the operator UI acts with (IPC and browser mode): the local user in the
 * default project, through a key record of its own named "VoiceDesk app". Records the UI
 * writes carry that key's id, as every record carries the key that wrote it. Its secret
 * is random and thrown away at once, so the key can never be used over HTTP; the UI is
 * authorised by its transport instead (Electron IPC, or the per-start UI token).
 * Made on the first start that needs it, and again should its record ever be revoked.
 */
export function ensureAppIdentity(store: Store, now: Date, bootstrap: Pick<Bootstrap, 'projectId' | 'userId'>): Promise<Caller> {
  return store.transaction(async (tx) => {
    const id = await appKeyIdOf(tx)
    const existing = id === undefined ? undefined : await tx.accounts.findKey(id)
    if (existing && !existing.revokedAt && existing.projectId === bootstrap.projectId) {
      return { apiKeyId: existing.id, projectId: existing.projectId, userId: existing.userId }
    }
    const record = await insertKey(tx, bootstrap.projectId, bootstrap.userId, APP_KEY_NAME, generateApiKey(), now.toISOString())
    await tx.settings.set(APP_KEY_SETTING, { id: record.id })
    return { apiKeyId: record.id, projectId: record.projectId, userId: record.userId }
  })
}

const AUTHORIZATION = /^(?:Token|Bearer) +(\S+)\s*$/i

/** The key of an `Authorization` value, `Token <key>` or `Bearer <key>`; undefined for anything else. */
export function keyOf(header: string | undefined): string | undefined {
  return header ? AUTHORIZATION.exec(header)?.[1] : undefined
}

/** A run ticket (ApiKeyAuthenticator.issueTicket): a key good until revoked, held in memory only. */
export interface RunTicket {
  key: string
  revoke(): void
}

/** Resolves `Authorization` header values to a caller; one instance per runtime. */
export class ApiKeyAuthenticator {
  /** When each key was last touched, on the monotonic clock (performance.now()). */
  private readonly lastTouched = new Map<string, number>()
  /** Run tickets by key: in this process's memory only, never stored, never listed. */
  private readonly tickets = new Map<string, Caller>()
  private readonly callers: ReadCache<Caller>
  /** The last Authorization header seen and its key (keyOfHeader). */
  private lastHeader: string | undefined
  private lastKey: string | undefined

  constructor(
    private readonly context: AccountsContext,
    /** A failed touch that is VoiceDesk's fault, for the log. */
    private readonly onFault: (error: unknown) => void,
  ) {
    this.callers = new ReadCache(() => context.store.changeVersion(), 1_000)
  }

  /** `Token <key>` (the seed) or `Bearer <key>`; anything else is undefined, never a throw. */
  async authenticate(header: string | undefined): Promise<Caller | undefined> {
    const key = this.keyOfHeader(header)
    if (key === undefined) return undefined
    const ticket = this.tickets.get(key)
    if (ticket) return ticket
    const caller =
      this.callers.peek(key) ?? (await this.callers.get(key, () => this.context.store.accounts.findActiveKeyByHash(hashApiKey(key))))
    if (caller) this.touch(caller.apiKeyId)
    return caller
  }

  /**
   * The caller of a key looked up since the database last changed (see ReadCache), without a
   * read or a promise: the hot path of every request. Undefined when it must be read
   * (authenticate), never a stale answer: a revoked key moves the change version.
   */
  knownCaller(header: string | undefined): Caller | undefined {
    const key = this.keyOfHeader(header)
    if (key === undefined) return undefined
    // Tickets exist only while a test run or the operator UI holds one: most requests skip the lookup.
    const ticket = this.tickets.size === 0 ? undefined : this.tickets.get(key)
    if (ticket) return ticket
    const caller = this.callers.peek(key)
    if (caller) this.touch(caller.apiKeyId)
    return caller
  }

  /**
   * keyOf, remembering the last header: a client sends the same one again and again, and the
   * key kept is the very string the caches were filled with, so their lookups find it without
   * hashing and comparing a new copy of it.
   */
  private keyOfHeader(header: string | undefined): string | undefined {
    if (header !== this.lastHeader) {
      this.lastKey = keyOf(header)
      this.lastHeader = header
    }
    return this.lastKey
  }

  /**
   * A key for `caller` that this authenticator accepts until `revoke()`: the operator UI has no
   * API key, and a test run's calls connect over /stream with one (as any client's would).
   * Random like a real key, in memory only: never stored, never listed, never logged; gone on
   * revoke or when the process ends. It does not touch the caller's key record.
   */
  issueTicket(caller: Caller): RunTicket {
    const key = generateApiKey()
    this.tickets.set(key, caller)
    return { key, revoke: () => void this.tickets.delete(key) }
  }

  private touch(apiKeyId: string): void {
    // Every request asks: a monotonic clock, no Date, until a touch is due.
    const at = performance.now()
    const last = this.lastTouched.get(apiKeyId)
    if (last !== undefined && at - last < TOUCH_INTERVAL_MS) return
    this.lastTouched.set(apiKeyId, at)
    const now = this.context.now()
    // Bookkeeping, not the request: it is not waited for, and a full disk or another process's
    // write lock must not fail a read (the next touch, a minute on, tries again). Anything
    // else is a fault for the log.
    this.context.store.accounts.touchKey(apiKeyId, now.toISOString()).catch((error: unknown) => {
      if (storageFailureOf(error) === undefined) this.onFault(error)
    })
  }
}
