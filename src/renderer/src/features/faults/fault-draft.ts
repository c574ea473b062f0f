import type { ErrorDetail } from '../../../../shared/api/errors'
import type { FaultRuleInput } from '../../../../shared/api/faults'
import type { JobErrorCode } from '../../../../shared/api/job-error-codes'
import type { JobType } from '../../../../shared/api/jobs'
import type { UiLocale } from '../../i18n/dictionary'
import { fieldPathOf } from '../../lib/field-errors'
import { readableAt } from '../../lib/readable-errors'

export type Effect = 'respond' | 'delay' | 'drop' | 'failJob' | 'failWebhook'
export const EFFECTS: readonly Effect[] = ['respond', 'delay', 'drop', 'failJob', 'failWebhook']
/** Effects on requests match by method and path; the others by job type. */
export const ON_REQUESTS: readonly Effect[] = ['respond', 'delay', 'drop']

/** The add-rule form as typed: every field as its text, the effect choosing which of them count. */
export interface FaultDraft {
  effect: Effect
  method: string
  path: string
  jobType: JobType | ''
  agentId: string
  status: string
  code: string
  message: string
  delayMs: string
  jobCode: JobErrorCode
  jobMessage: string
  webhookStatus: string
  ratePercent: string
  expiresMinutes: string
  note: string
}

export const EMPTY_FAULT_DRAFT: FaultDraft = {
  effect: 'respond',
  method: '',
  path: '/v1/**',
  jobType: '',
  agentId: '',
  status: '503',
  code: '',
  message: '',
  delayMs: '1000',
  jobCode: 'TTS_ENGINE_FAILED',
  jobMessage: 'Injected failure',
  webhookStatus: '',
  ratePercent: '100',
  expiresMinutes: '',
  note: '',
}

/** A number typed in a field: undefined when empty, NaN (refused by the service with its message) when not a number. */
const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text))

/** The rule the form describes, in the contract's words (only the fields of the chosen effect). */
export function ruleOf(draft: FaultDraft): FaultRuleInput {
  const onRequests = ON_REQUESTS.includes(draft.effect)
  const rate = numberOf(draft.ratePercent)
  const minutes = numberOf(draft.expiresMinutes)
  const optional = (text: string) => (text.trim() === '' ? undefined : text.trim())
  return {
    match: {
      method: onRequests ? optional(draft.method) : undefined,
      path: onRequests ? optional(draft.path) : undefined,
      jobType: !onRequests && draft.jobType !== '' ? draft.jobType : undefined,
      agentId: optional(draft.agentId),
    },
    ...(draft.effect === 'respond'
      ? { respond: { status: numberOf(draft.status) ?? Number.NaN, code: optional(draft.code), message: optional(draft.message) } }
      : {}),
    ...(draft.effect === 'delay' ? { delayMs: numberOf(draft.delayMs) ?? Number.NaN } : {}),
    ...(draft.effect === 'drop' ? { dropConnection: true } : {}),
    ...(draft.effect === 'failJob' ? { failJob: { code: draft.jobCode, message: draft.jobMessage } } : {}),
    ...(draft.effect === 'failWebhook'
      ? { failWebhook: draft.webhookStatus.trim() === '' ? true : { status: Number(draft.webhookStatus) } }
      : {}),
    rate: rate === undefined ? undefined : rate / 100,
    expiresInSeconds: minutes === undefined ? undefined : Math.round(minutes * 60),
    note: optional(draft.note),
  }
}

/** Where each refusal of the service goes in the form (`match.path` beside Path, `respond.status` beside HTTP status). */
const FIELD_OF: Record<string, keyof FaultDraft | ''> = {
  'match.method': 'method',
  'match.path': 'path',
  'match.jobType': 'jobType',
  'match.agentId': 'agentId',
  'respond.status': 'status',
  'respond.code': 'code',
  'respond.message': 'message',
  delayMs: 'delayMs',
  'failJob.code': 'jobCode',
  'failJob.message': 'jobMessage',
  'failWebhook.status': 'webhookStatus',
  rate: 'ratePercent',
  expiresInSeconds: 'expiresMinutes',
  note: 'note',
}

export function errorsByField(details: readonly ErrorDetail[], locale: UiLocale): Record<string, string[]> {
  const byField: Record<string, string[]> = {}
  for (const detail of details) {
    const path = fieldPathOf(detail.path)
    // The longest known prefix of the path names the field; none: the form's general errors.
    const field =
      Object.entries(FIELD_OF)
        .filter(([prefix]) => path === prefix || path.startsWith(`${prefix}.`))
        .sort(([a], [b]) => b.length - a.length)[0]?.[1] ?? ''
    // A rate the service refuses is about the fraction; the field is in percent.
    const message = field === 'ratePercent' ? detail.message.replace(/(\d+(?:\.\d+)?)$/, (n) => String(Number(n) * 100)) : detail.message
    ;(byField[field] ??= []).push(readableAt('', message, locale))
  }
  return byField
}
