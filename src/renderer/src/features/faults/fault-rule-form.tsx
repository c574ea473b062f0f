import { useRef, useState, type ReactNode } from 'react'
import { FAULT_METHODS } from '../../../../shared/api/faults'
import { JOB_ERROR_CODES, type JobErrorCode } from '../../../../shared/api/job-error-codes'
import { JOB_TYPES, type JobType } from '../../../../shared/api/jobs'
import { isOperatorError } from '../../api/operator-error'
import { useT } from '../../i18n/use-t'
import { errorText } from '../../lib/readable-errors'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { Options, SelectField, TextField } from '../../ui/field'
import { focusFirstError } from '../../ui/focus-first-error'
import { Icon } from '../../ui/icon'
import { EFFECTS, EMPTY_FAULT_DRAFT, errorsByField, ON_REQUESTS, ruleOf, type Effect, type FaultDraft } from './fault-draft'
import { SubmitForm } from '../../ui/submit-form'

/** What each part of the form reads and writes. */
interface FaultFieldsProps {
  draft: FaultDraft
  update<K extends keyof FaultDraft>(key: K, value: FaultDraft[K]): void
  errors: Record<string, string[]>
}

/** One of the draft's text fields; codes, paths and ids are monospaced and numbers left to right in either language. */
function DraftText({
  draft,
  update,
  errors,
  field,
  label,
  hint,
  mono,
  numeric,
  placeholder,
}: FaultFieldsProps & {
  field: Exclude<keyof FaultDraft, 'effect' | 'jobType' | 'jobCode'>
  label: string
  hint?: ReactNode
  mono?: boolean
  numeric?: boolean
  placeholder?: string
}) {
  return (
    <TextField
      label={label}
      hint={hint}
      errors={errors[field]}
      inputClassName={mono ? 'mono' : undefined}
      dir={mono || numeric ? 'ltr' : 'auto'}
      inputMode={numeric ? 'decimal' : undefined}
      autoComplete="off"
      placeholder={placeholder}
      value={draft[field]}
      onChange={(value) => update(field, value)}
    />
  )
}

/** What the rule matches: the effect, then a request's method and path or a job's type, and an agent. */
function FaultMatchFields(props: FaultFieldsProps) {
  const t = useT()
  const { draft, update, errors } = props
  return (
    <>
      <SelectField label={t('faults.effect')} value={draft.effect} onChange={(value) => update('effect', value as Effect)}>
        <Options values={EFFECTS} label={(effect) => t(`faults.effect.${effect as Effect}`)} />
      </SelectField>
      {ON_REQUESTS.includes(draft.effect) ? (
        <>
          <SelectField label={t('faults.method')} errors={errors.method} value={draft.method} onChange={(value) => update('method', value)}>
            <option value="">{t('faults.anyMethod')}</option>
            <Options values={FAULT_METHODS} />
          </SelectField>
          <DraftText
            {...props}
            field="path"
            label={t('faults.path')}
            hint={
              <>
                {t('faults.pathHint')} <code dir="ltr">/v1/voice-agents/*</code>
              </>
            }
            mono
            placeholder="/v1/voice-agents/*"
          />
        </>
      ) : (
        <SelectField
          label={t('faults.jobType')}
          errors={errors.jobType}
          value={draft.jobType}
          onChange={(value) => update('jobType', value as JobType | '')}
        >
          <option value="">{t('faults.anyJobType')}</option>
          <Options values={JOB_TYPES} />
        </SelectField>
      )}
      <DraftText {...props} field="agentId" label={t('faults.agentId')} hint={t('faults.agentIdHint')} mono />
    </>
  )
}

/** What the chosen effect does: the error answered, the latency, the job's failure, the webhook's status. */
function FaultEffectFields(props: FaultFieldsProps) {
  const t = useT()
  const { draft, update, errors } = props
  return (
    <>
      {draft.effect === 'respond' ? (
        <>
          <DraftText {...props} field="status" label={t('faults.status')} numeric />
          <DraftText {...props} field="code" label={t('faults.code')} hint={t('faults.codeHint')} mono placeholder="UNAVAILABLE" />
          <DraftText {...props} field="message" label={t('faults.message')} hint={t('faults.optional')} />
        </>
      ) : null}
      {draft.effect === 'delay' ? <DraftText {...props} field="delayMs" label={t('faults.delayMs')} numeric /> : null}
      {draft.effect === 'failJob' ? (
        <>
          <SelectField
            label={t('faults.jobCode')}
            errors={errors.jobCode}
            inputClassName="mono"
            dir="ltr"
            value={draft.jobCode}
            onChange={(value) => update('jobCode', value as JobErrorCode)}
          >
            <Options values={JOB_ERROR_CODES} />
          </SelectField>
          <DraftText {...props} field="jobMessage" label={t('faults.message')} />
        </>
      ) : null}
      {draft.effect === 'failWebhook' ? (
        <DraftText {...props} field="webhookStatus" label={t('faults.webhookStatus')} hint={t('faults.webhookStatusHint')} numeric />
      ) : null}
    </>
  )
}

/** The form that adds a rule; the service's refusals are shown beside their fields. */
export function FaultRuleForm() {
  const t = useT()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const [draft, setDraft] = useState<FaultDraft>(EMPTY_FAULT_DRAFT)
  const [errors, setErrors] = useState<Record<string, string[]>>({})
  const [busy, setBusy] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)

  const update: FaultFieldsProps['update'] = (key, value) => {
    setDraft((current) => ({ ...current, [key]: value }))
    setErrors(({ [key]: _gone, '': _general, ...rest }) => rest)
  }

  const add = async () => {
    setBusy(true)
    try {
      await store.getState().addFault(ruleOf(draft))
      setErrors({})
      setDraft((current) => ({ ...EMPTY_FAULT_DRAFT, effect: current.effect }))
      store.getState().toast('success', t('faults.added'))
    } catch (error) {
      setErrors(
        isOperatorError(error) && error.details.length > 0 ? errorsByField(error.details, locale) : { '': [errorText(error, locale)] },
      )
      requestAnimationFrame(() => focusFirstError(formRef.current))
    } finally {
      setBusy(false)
    }
  }

  const fields = { draft, update, errors }
  return (
    <SubmitForm ref={formRef} className="card" aria-labelledby="fault-add-title" noValidate onSubmit={() => void add()}>
      <h2 id="fault-add-title">{t('faults.addTitle')}</h2>
      <div className="grid-4">
        <FaultMatchFields {...fields} />
        <FaultEffectFields {...fields} />
        <DraftText {...fields} field="ratePercent" label={t('faults.rate')} hint={t('faults.rateHint')} numeric />
        <DraftText {...fields} field="expiresMinutes" label={t('faults.expires')} hint={t('faults.expiresHint')} numeric />
        <DraftText {...fields} field="note" label={t('faults.note')} hint={t('faults.optional')} />
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
    </SubmitForm>
  )
}
