import { useEffect, useRef, useState, type ReactNode } from 'react'
import type { ErrorDetail } from '../../../../shared/api/errors'
import { FAULT_METHODS, type Fault, type FaultRuleInput } from '../../../../shared/api/faults'
import { JOB_ERROR_CODES, type JobErrorCode } from '../../../../shared/api/job-error-codes'
import { JOB_TYPES, type JobType } from '../../../../shared/api/jobs'
import { isOperatorError } from '../../api/operator-error'
import type { UiLocale } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { fieldPathOf } from '../../lib/field-errors'
import { formatCount, formatDateTime } from '../../lib/format'
import { errorText, readableAt } from '../../lib/readable-errors'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { selectFaults, selectLocale } from '../../store/selectors'
import { focusFirstError } from '../../ui/focus-first-error'
import { Field } from '../../ui/field'
import { Icon } from '../../ui/icon'
import { LoadError } from '../../ui/load-error'
import { TableHead } from '../../ui/table-head'
import { listShows } from '../../store/list-shows'

type Effect = 'respond' | 'delay' | 'drop' | 'failJob' | 'failWebhook'
const EFFECTS: readonly Effect[] = ['respond', 'delay', 'drop', 'failJob', 'failWebhook']
/** Effects on requests match by method and path; the others by job type. */
const ON_REQUESTS: readonly Effect[] = ['respond', 'delay', 'drop']

interface Draft {
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

const EMPTY: Draft = {
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
function ruleOf(draft: Draft): FaultRuleInput {
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
    ...(draft.effect === 'respond' ? { respond: { status: numberOf(draft.status) ?? Number.NaN, code: optional(draft.code), message: optional(draft.message) } } : {}),
    ...(draft.effect === 'delay' ? { delayMs: numberOf(draft.delayMs) ?? Number.NaN } : {}),
    ...(draft.effect === 'drop' ? { dropConnection: true } : {}),
    ...(draft.effect === 'failJob' ? { failJob: { code: draft.jobCode, message: draft.jobMessage } } : {}),
    ...(draft.effect === 'failWebhook' ? { failWebhook: draft.webhookStatus.trim() === '' ? true : { status: Number(draft.webhookStatus) } } : {}),
    rate: rate === undefined ? undefined : rate / 100,
    expiresInSeconds: minutes === undefined ? undefined : Math.round(minutes * 60),
    note: optional(draft.note),
  }
}

/** Where each refusal of the service goes in the form (`match.path` beside Path, `respond.status` beside HTTP status). */
const FIELD_OF: Record<string, keyof Draft | ''> = {
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

function errorsByField(details: readonly ErrorDetail[], locale: UiLocale): Record<string, string[]> {
  const byField: Record<string, string[]> = {}
  for (const detail of details) {
    const path = fieldPathOf(detail.path)
    const known = Object.keys(FIELD_OF)
      .filter((prefix) => path === prefix || path.startsWith(`${prefix}.`))
      .sort((a, b) => b.length - a.length)[0]
    const field = known === undefined ? '' : FIELD_OF[known]!
    // A rate the service refuses is about the fraction; the field is in percent.
    const message = field === 'ratePercent' ? detail.message.replace(/(\d+(?:\.\d+)?)$/, (n) => String(Number(n) * 100)) : detail.message
    ;(byField[field] ??= []).push(readableAt('', message, locale))
  }
  return byField
}

/** One line saying what a rule does. */
function useSummary() {
  const t = useT()
  return (fault: Fault): string => {
    const parts: string[] = []
    if (fault.delayMs !== undefined) {
      const delay = fault.delayMs
      const ms = typeof delay === 'number' ? String(delay) : 'min' in delay ? `${delay.min}–${delay.max}` : `${delay.mean} ± ${delay.stddev}`
      parts.push(t('faults.summary.delay', { ms }))
    }
    if (fault.respond) parts.push(t('faults.summary.respond', { status: String(fault.respond.status), code: fault.respond.code ?? '' }).trim())
    if (fault.dropConnection) parts.push(t('faults.summary.drop'))
    if (fault.failJob) parts.push(t('faults.summary.failJob', { code: fault.failJob.code }))
    if (fault.failWebhook !== undefined && fault.failWebhook !== false) {
      const status = typeof fault.failWebhook === 'object' ? fault.failWebhook.status : undefined
      parts.push(status === undefined ? t('faults.summary.failWebhook') : t('faults.summary.failWebhookStatus', { status: String(status) }))
    }
    return parts.join(' · ')
  }
}

function matchText(fault: Fault, everything: string): string {
  const { method, path, jobType, agentId } = fault.match
  const text = [method, path, jobType, agentId].filter(Boolean).join(' ')
  return text === '' ? everything : text
}

/** The Faults panel: the active rules with their hits and expiry, a form to add one, remove, remove all. */
export function FaultsScreen() {
  const t = useT()
  const store = useStoreApi()
  const faults = useAppStore(selectFaults)
  const locale = useAppStore(selectLocale)
  const summary = useSummary()
  const [draft, setDraft] = useState<Draft>(EMPTY)
  const [errors, setErrors] = useState<Record<string, string[]>>({})
  const [busy, setBusy] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const onRequests = ON_REQUESTS.includes(draft.effect)

  useEffect(() => {
    void store.getState().loadFaults()
  }, [store])

  const update = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }))
    setErrors(({ [key]: _gone, '': _general, ...rest }) => rest)
  }

  const add = async () => {
    setBusy(true)
    try {
      await store.getState().addFault(ruleOf(draft))
      setErrors({})
      setDraft((current) => ({ ...EMPTY, effect: current.effect }))
      store.getState().toast('success', t('faults.added'))
    } catch (error) {
      setErrors(isOperatorError(error) && error.details.length > 0 ? errorsByField(error.details, locale) : { '': [errorText(error, locale)] })
      requestAnimationFrame(() => focusFirstError(formRef.current))
    } finally {
      setBusy(false)
    }
  }

  const text = (key: keyof Draft, label: string, options: { hint?: ReactNode; mono?: boolean; numeric?: boolean; placeholder?: string } = {}) => (
    <Field label={label} hint={options.hint} errors={errors[key]}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className={`input ${options.mono ? 'mono' : ''}`}
          dir={options.mono || options.numeric ? 'ltr' : 'auto'}
          inputMode={options.numeric ? 'decimal' : undefined}
          autoComplete="off"
          placeholder={options.placeholder}
          value={draft[key]}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onChange={(event) => update(key, event.target.value)}
        />
      )}
    </Field>
  )

  const items = faults.items ?? []
  const shows = listShows({ ...faults, loaded: faults.items !== null })
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{t('faults.title')}</h1>
          <p className="muted">{t('faults.intro')}</p>
        </div>
      </header>
      {/* The active rules first: what the service does now is what the operator must see. */}
      <section className="card" aria-labelledby="faults-list-title">
        <div className="toolbar">
          <h2 id="faults-list-title">{t('faults.listTitle', { n: formatCount(items.length, locale) })}</h2>
          <span className="status-spacer" />
          <button type="button" className="button ghost icon-button" aria-label={t('common.refresh')} onClick={() => void store.getState().loadFaults()}>
            <Icon name="refresh" size={16} />
          </button>
          <button
            type="button"
            className="button danger"
            disabled={items.length === 0}
            onClick={() =>
              void store
                .getState()
                .clearFaults()
                .then(() => store.getState().toast('success', t('faults.cleared')))
            }
          >
            <Icon name="trash" size={16} />
            <span>{t('faults.clear')}</span>
          </button>
        </div>
        {faults.error && !faults.loading ? <LoadError error={faults.error} onRetry={() => void store.getState().loadFaults()} /> : null}
        {shows !== 'rows' ? (
          shows === 'error' ? null : (
            <p className="muted">{shows === 'loading' ? t('common.loading') : t('faults.none')}</p>
          )
        ) : (
          <div className="table-wrap">
            <table className="table" data-testid="faults-table">
              <TableHead
                columns={[
                  { label: t('faults.match') },
                  { label: t('faults.effect') },
                  { label: t('faults.rate') },
                  { label: t('faults.hits') },
                  { label: t('faults.expiresAt') },
                  { label: t('faults.note'), optional: true },
                ]}
                actions
              />
              <tbody>
                {items.map((fault) => (
                  <tr key={fault.id} data-fault-id={fault.id}>
                    <td>
                      <code dir="ltr">{matchText(fault, t('faults.everything'))}</code>
                    </td>
                    <td>
                      <bdi>{summary(fault)}</bdi>
                    </td>
                    <td>{formatCount(Math.round(fault.rate * 1000) / 10, locale)}</td>
                    <td data-testid="fault-hits">{formatCount(fault.hits, locale)}</td>
                    <td className="small">{fault.expiresAt ? formatDateTime(fault.expiresAt, locale) : t('faults.never')}</td>
                    <td className="small col-optional" dir="auto">
                      {fault.note ?? ''}
                    </td>
                    <td>
                      <button
                        type="button"
                        className="button ghost small"
                        aria-label={t('faults.removeRule', { id: fault.id })}
                        onClick={() =>
                          void store
                            .getState()
                            .removeFault(fault.id)
                            .then(() => store.getState().toast('success', t('faults.removed')))
                        }
                      >
                        <Icon name="trash" size={14} />
                        <span>{t('faults.remove')}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <form
        ref={formRef}
        className="card"
        aria-labelledby="fault-add-title"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void add()
        }}
      >
        <h2 id="fault-add-title">{t('faults.addTitle')}</h2>
        <div className="grid-4">
          <Field label={t('faults.effect')}>
            {({ id }) => (
              <select id={id} className="input" value={draft.effect} onChange={(event) => update('effect', event.target.value as Effect)}>
                {EFFECTS.map((effect) => (
                  <option key={effect} value={effect}>
                    {t(`faults.effect.${effect}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {onRequests ? (
            <>
              <Field label={t('faults.method')} errors={errors.method}>
                {({ id, describedBy, invalid }) => (
                  <select
                    id={id}
                    className="input"
                    value={draft.method}
                    aria-describedby={describedBy}
                    aria-invalid={invalid || undefined}
                    onChange={(event) => update('method', event.target.value)}
                  >
                    <option value="">{t('faults.anyMethod')}</option>
                    {FAULT_METHODS.map((method) => (
                      <option key={method} value={method}>
                        {method}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              {text('path', t('faults.path'), {
                hint: (
                  <>
                    {t('faults.pathHint')} <code dir="ltr">/v1/voice-agents/*</code>
                  </>
                ),
                mono: true,
                placeholder: '/v1/voice-agents/*',
              })}
            </>
          ) : (
            <Field label={t('faults.jobType')} errors={errors.jobType}>
              {({ id, describedBy, invalid }) => (
                <select
                  id={id}
                  className="input"
                  value={draft.jobType}
                  aria-describedby={describedBy}
                  aria-invalid={invalid || undefined}
                  onChange={(event) => update('jobType', event.target.value as JobType | '')}
                >
                  <option value="">{t('faults.anyJobType')}</option>
                  {JOB_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {type}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          {text('agentId', t('faults.agentId'), { hint: t('faults.agentIdHint'), mono: true })}
          {draft.effect === 'respond' ? (
            <>
              {text('status', t('faults.status'), { numeric: true })}
              {text('code', t('faults.code'), { hint: t('faults.codeHint'), mono: true, placeholder: 'UNAVAILABLE' })}
              {text('message', t('faults.message'), { hint: t('faults.optional') })}
            </>
          ) : null}
          {draft.effect === 'delay' ? text('delayMs', t('faults.delayMs'), { numeric: true }) : null}
          {draft.effect === 'failJob' ? (
            <>
              <Field label={t('faults.jobCode')} errors={errors.jobCode}>
                {({ id, describedBy, invalid }) => (
                  <select
                    id={id}
                    className="input mono"
                    dir="ltr"
                    value={draft.jobCode}
                    aria-describedby={describedBy}
                    aria-invalid={invalid || undefined}
                    onChange={(event) => update('jobCode', event.target.value as JobErrorCode)}
                  >
                    {JOB_ERROR_CODES.map((code) => (
                      <option key={code} value={code}>
                        {code}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              {text('jobMessage', t('faults.message'))}
            </>
          ) : null}
          {draft.effect === 'failWebhook' ? text('webhookStatus', t('faults.webhookStatus'), { hint: t('faults.webhookStatusHint'), numeric: true }) : null}
          {text('ratePercent', t('faults.rate'), { hint: t('faults.rateHint'), numeric: true })}
          {text('expiresMinutes', t('faults.expires'), { hint: t('faults.expiresHint'), numeric: true })}
          {text('note', t('faults.note'), { hint: t('faults.optional') })}
        </div>
        {errors[''] ? (
          <p className="field-error" role="alert">
            {errors[''].join(' ')}
          </p>
        ) : null}
        <div className="toolbar end">
          <button type="submit" className="button primary" disabled={busy}>
            <Icon name="plus" size={16} />
            <span>{t('faults.add')}</span>
          </button>
        </div>
      </form>
    </div>
  )
}
