import { randomBytes } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import { ERROR_STATUS } from '../../shared/api/errors'
import { MAX_FAULT_DELAY_MS, MAX_FAULT_RULES_PER_PROJECT, type Fault, type FaultDelay, type FaultRule } from '../../shared/api/faults'
import type { JobErrorCode } from '../../shared/api/job-error-codes'
import type { JobType } from '../../shared/api/jobs'
import { ServiceError } from '../ops/service-error'
import { pathBasesOf, pathGlobBase, pathGlobMatcher } from './path-glob'

/** What a request meets: a delay (ms, 0 for none), then an error answer or a dropped connection, or neither. */
export interface RequestFault {
  delayMs: number
  respond?: { status: number; code: string; message: string }
  dropConnection?: { ruleId: string }
}

/** A job forced to fail. */
export interface JobFault {
  ruleId: string
  code: JobErrorCode
  message: string
}

/** A webhook attempt made to fail: recorded with `status` (a made-up answer) or none. */
export interface DeliveryFault {
  ruleId: string
  status: number | null
}

/** What a job or a delivery's job is matched on. */
export interface WorkSubject {
  type: JobType
  voiceAgentId: string | null
}

interface StoredRule {
  /** Its place in the order rules were added (matching keeps that order). */
  seq: number
  fault: Fault
  path: ((path: string) => boolean) | undefined
  expiresAtMs: number | undefined
}

/** A project's active rules, oldest first, and those with a request effect by method and path base. */
interface ProjectRules {
  rules: StoredRule[]
  /** Key: requestKey(method or '*', the glob's base, '' for any path). */
  requestRules: Map<string, StoredRule[]>
}

const ANY_METHOD = '*'
const requestKey = (method: string, base: string) => `${method} ${base}`
const hasRequestEffect = (fault: Fault) => fault.delayMs !== undefined || fault.respond !== undefined || fault.dropConnection === true

export interface FaultBookOptions {
  /** The runtime's clock: rules expire by it. */
  now: () => Date
  /** [0, 1): whether a rule applies at its rate, and delays drawn from a distribution. Tests pass a seeded one. */
  random?: () => number
  /** Told after every change of a project's rules (added, removed, cleared, expired), with how many stay active. */
  onChanged?: (projectId: string, active: number) => void
  /** Makes a rule's path test from its glob (pathGlobMatcher); tests wrap it to count the tests a request runs. */
  pathMatcher?: (glob: string) => (path: string) => boolean
}

/** The contract's code for a status when it has one (503: UNAVAILABLE), else the status's name (429: TOO_MANY_REQUESTS). */
export function defaultCodeOf(status: number): string {
  const known = Object.entries(ERROR_STATUS).find(([, value]) => value === status)
  if (known) return known[0]
  const name = STATUS_CODES[status]
  return name
    ? name
        .toUpperCase()
        .replace(/[^A-Z0-9]+/g, '_')
        .replace(/^_|_$/g, '')
    : status >= 500
      ? 'SERVER_ERROR'
      : 'CLIENT_ERROR'
}

/**
 * Fault-injection rules (docs/api.md, "Fault injection"): in memory, of this instance only
 * (a restart clears them, so a demo never inherits one), kept per project, at most
 * MAX_FAULT_RULES_PER_PROJECT each. Matching is in the order rules were added; a request looks
 * only at rules of its method (or any) whose glob's literal base starts its path, so its cost
 * follows the rules that can match it, not all of them. Rules expire by the runtime's clock;
 * `hits` counts every time a rule applied (after its rate). With no rule at all, `empty` lets
 * every hook return at once.
 */
export class FaultBook {
  private readonly projects = new Map<string, ProjectRules>()
  private readonly random: () => number
  private readonly pathMatcher: (glob: string) => (path: string) => boolean
  private nextSeq = 0
  private expiryTimer: NodeJS.Timeout | undefined

  constructor(private readonly options: FaultBookOptions) {
    this.random = options.random ?? Math.random
    this.pathMatcher = options.pathMatcher ?? pathGlobMatcher
  }

  /** True when no project has a rule: the hooks' fast path. */
  get empty(): boolean {
    return this.projects.size === 0
  }

  /** Adds a rule; a project that has MAX_FAULT_RULES_PER_PROJECT active ones already is refused (CONFLICT). */
  add(projectId: string, rule: FaultRule): Fault {
    if (this.active(projectId).length >= MAX_FAULT_RULES_PER_PROJECT) {
      throw new ServiceError(
        'CONFLICT',
        `This project has ${MAX_FAULT_RULES_PER_PROJECT} fault rules, the most it may have: remove some (DELETE /_voicedesk/faults/{id}, or all with DELETE /_voicedesk/faults) before adding another`,
      )
    }
    const now = this.options.now()
    const { expiresInSeconds, expiresAt, ...given } = rule
    const expiry =
      expiresInSeconds !== undefined
        ? new Date(now.getTime() + expiresInSeconds * 1000)
        : expiresAt !== undefined
          ? new Date(expiresAt)
          : undefined
    const fault: Fault = {
      id: `flt_${randomBytes(8).toString('hex')}`,
      createdAt: now.toISOString(),
      hits: 0,
      ...given,
      expiresAt: expiry?.toISOString() ?? null,
    }
    const stored: StoredRule = {
      seq: (this.nextSeq += 1),
      fault,
      path: given.match.path === undefined ? undefined : this.pathMatcher(given.match.path),
      expiresAtMs: expiry?.getTime(),
    }
    const project: ProjectRules = this.projects.get(projectId) ?? { rules: [], requestRules: new Map() }
    project.rules.push(stored)
    indexRequestRule(project, stored)
    this.projects.set(projectId, project)
    this.changed(projectId)
    return { ...fault }
  }

  /** The project's active rules, oldest first (copies: the hit counters as they are now). */
  list(projectId: string): Fault[] {
    return this.active(projectId).map((rule) => ({ ...rule.fault }))
  }

  /** The rule removed, or undefined when the project has no such rule. */
  remove(projectId: string, id: string): Fault | undefined {
    const rules = this.active(projectId)
    const index = rules.findIndex((rule) => rule.fault.id === id)
    if (index === -1) return undefined
    const [removed] = rules.splice(index, 1)
    if (removed === undefined) return undefined
    this.store(projectId, rules)
    this.changed(projectId)
    return { ...removed.fault }
  }

  /** Removes every rule of the project; answers how many there were. */
  clear(projectId: string): number {
    const count = this.active(projectId).length
    this.projects.delete(projectId)
    this.changed(projectId)
    return count
  }

  /** Stops the expiry timer (the runtime stops). */
  close(): void {
    clearTimeout(this.expiryTimer)
  }

  /** What a request of this project meets, or undefined. `path` without its query. */
  matchRequest(projectId: string, method: string, path: string): RequestFault | undefined {
    if (this.empty || this.active(projectId).length === 0) return undefined
    let result: RequestFault | undefined
    for (const rule of this.requestCandidates(projectId, method, path)) {
      const { fault } = rule
      const { match } = fault
      if (match.method !== undefined && match.method !== method) continue
      if (rule.path && !rule.path(path)) continue
      if (match.agentId !== undefined && !path.split('/').includes(match.agentId)) continue
      if (!this.applies(fault)) continue
      fault.hits++
      result ??= { delayMs: 0 }
      if (fault.delayMs !== undefined) result.delayMs = Math.min(MAX_FAULT_DELAY_MS, result.delayMs + this.draw(fault.delayMs))
      if (fault.respond) {
        const { status } = fault.respond
        result.respond = {
          status,
          code: fault.respond.code ?? defaultCodeOf(status),
          message: fault.respond.message ?? `Injected fault ${fault.id}: ${STATUS_CODES[status] ?? `status ${status}`}`,
        }
        break
      }
      if (fault.dropConnection) {
        result.dropConnection = { ruleId: fault.id }
        break
      }
    }
    return result
  }

  /** The failure a job of this project is forced into, or undefined. */
  matchJob(projectId: string, job: WorkSubject): JobFault | undefined {
    if (this.empty) return undefined
    for (const rule of this.active(projectId)) {
      const { fault } = rule
      if (!fault.failJob || !this.worksOn(fault, job) || !this.applies(fault)) continue
      fault.hits++
      return { ruleId: fault.id, code: fault.failJob.code, message: fault.failJob.message }
    }
    return undefined
  }

  /** Whether a failWebhook rule of the project needs the delivery's job (it names a jobType or an agentId). */
  deliveryRulesNeedJob(projectId: string): boolean {
    return this.active(projectId).some(
      (rule) => isFailing(rule.fault.failWebhook) && (rule.fault.match.jobType !== undefined || rule.fault.match.agentId !== undefined),
    )
  }

  /** The failure a webhook attempt of this project meets, or undefined. `job`: the delivery's job, when it has one. */
  matchDelivery(projectId: string, job: WorkSubject | undefined): DeliveryFault | undefined {
    if (this.empty) return undefined
    for (const rule of this.active(projectId)) {
      const { fault } = rule
      if (!isFailing(fault.failWebhook)) continue
      if ((fault.match.jobType !== undefined || fault.match.agentId !== undefined) && (!job || !this.worksOn(fault, job))) continue
      if (!this.applies(fault)) continue
      fault.hits++
      const status = typeof fault.failWebhook === 'object' ? (fault.failWebhook.status ?? null) : null
      return { ruleId: fault.id, status }
    }
    return undefined
  }

  /** The rules with a request effect whose method and path base allow `path`, oldest first. */
  private requestCandidates(projectId: string, method: string, path: string): StoredRule[] {
    const index = this.projects.get(projectId)?.requestRules
    if (!index) return []
    const buckets: StoredRule[][] = []
    for (const base of pathBasesOf(path)) {
      for (const key of [requestKey(method, base), requestKey(ANY_METHOD, base)]) {
        const bucket = index.get(key)
        if (bucket) buckets.push(bucket)
      }
    }
    const [only] = buckets
    if (only && buckets.length === 1) return only
    return buckets.flat().sort((a, b) => a.seq - b.seq)
  }

  private worksOn(fault: Fault, job: WorkSubject): boolean {
    return (
      (fault.match.jobType === undefined || fault.match.jobType === job.type) &&
      (fault.match.agentId === undefined || fault.match.agentId === job.voiceAgentId)
    )
  }

  private applies(fault: Fault): boolean {
    return fault.rate >= 1 || (fault.rate > 0 && this.random() < fault.rate)
  }

  /** One delay: fixed, uniform in [min, max], or normal (Box-Muller), kept within 0 to 60,000 ms. */
  private draw(delay: FaultDelay): number {
    if (typeof delay === 'number') return delay
    if ('min' in delay) return delay.min + (delay.max - delay.min) * this.random()
    const u1 = Math.max(this.random(), Number.EPSILON)
    const u2 = this.random()
    const normal = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2)
    return Math.min(MAX_FAULT_DELAY_MS, Math.max(0, delay.mean + delay.stddev * normal))
  }

  /** The project's rules that have not expired; expired ones are dropped here (and listeners told). */
  private active(projectId: string): StoredRule[] {
    const rules = this.projects.get(projectId)?.rules
    if (!rules) return []
    const now = this.options.now().getTime()
    if (!rules.some((rule) => rule.expiresAtMs !== undefined && rule.expiresAtMs <= now)) return rules
    const left = rules.filter((rule) => rule.expiresAtMs === undefined || rule.expiresAtMs > now)
    this.store(projectId, left)
    this.changed(projectId)
    return left
  }

  /** Keeps `rules` as the project's (the list a caller changes in place is the stored one), indexed anew. */
  private store(projectId: string, rules: StoredRule[]): void {
    if (rules.length === 0) {
      this.projects.delete(projectId)
      return
    }
    const project: ProjectRules = { rules, requestRules: new Map() }
    for (const rule of rules) indexRequestRule(project, rule)
    this.projects.set(projectId, project)
  }

  private changed(projectId: string): void {
    this.scheduleExpiry()
    this.options.onChanged?.(projectId, this.projects.get(projectId)?.rules.length ?? 0)
  }

  /** A timer at the next expiry, so the app's badge goes when a rule ends even if nothing asks. */
  private scheduleExpiry(): void {
    clearTimeout(this.expiryTimer)
    this.expiryTimer = undefined
    let next = Infinity
    for (const { rules } of this.projects.values())
      for (const rule of rules) if (rule.expiresAtMs !== undefined) next = Math.min(next, rule.expiresAtMs)
    if (next === Infinity) return
    const wait = Math.min(2 ** 31 - 1, Math.max(0, next - this.options.now().getTime()) + 5)
    this.expiryTimer = setTimeout(() => {
      this.expiryTimer = undefined
      for (const projectId of [...this.projects.keys()]) this.active(projectId)
      if (this.expiryTimer === undefined) this.scheduleExpiry()
    }, wait)
    this.expiryTimer.unref()
  }
}

/** Files a rule with a request effect under its method (or any) and its glob's base ('' for any path). */
function indexRequestRule(project: ProjectRules, rule: StoredRule): void {
  if (!hasRequestEffect(rule.fault)) return
  const { method, path } = rule.fault.match
  const key = requestKey(method ?? ANY_METHOD, path === undefined ? '' : pathGlobBase(path))
  const bucket = project.requestRules.get(key)
  if (bucket) bucket.push(rule)
  else project.requestRules.set(key, [rule])
}

function isFailing(failWebhook: Fault['failWebhook']): boolean {
  return failWebhook !== undefined && failWebhook !== false
}
