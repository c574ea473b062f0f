import { useEffect, useRef, useState } from 'react'
import type { PhoneNumber } from '../../../../shared/api/phone-numbers'
import { isOperatorError } from '../../api/operator-error'
import { useT } from '../../i18n/use-t'
import { fieldErrorsOf } from '../../lib/field-errors'
import { formatCount, formatDateTime } from '../../lib/format'
import { checkPhoneNumber } from '../../lib/phone-number'
import { errorText, readableMessage } from '../../lib/readable-errors'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { NUMBERS_PAGE } from '../../store/agents-slice'
import { ShowMoreButton } from '../../ui/list-controls'
import { selectLocale, selectNumbers } from '../../store/selectors'
import { focusFirstError } from '../../ui/focus-first-error'
import { textBinder, TextField } from '../../ui/field'
import { Icon } from '../../ui/icon'
import { LoadError } from '../../ui/load-error'
import { ConfirmDialog } from '../../ui/modal-dialog'
import { AgentPicker } from './agent-picker'
import { TableHead } from '../../ui/table-head'
import { listShows } from '../../store/list-shows'
import { SubmitForm } from '../../ui/submit-form'
import { SipAddressCell, SipLineNotice } from '../sip/sip-address'
import { useSipStatus } from '../sip/use-sip-status'

interface NewNumber {
  phoneNumber: string
  label: string
  providerAccountSid: string
  providerAuthToken: string
}
const EMPTY: NewNumber = { phoneNumber: '', label: '', providerAccountSid: '', providerAuthToken: '' }

/** Phone numbers at the telephony provider: register, assign to an agent, unassign, delete. */
export function NumbersScreen() {
  const t = useT()
  const store = useStoreApi()
  const call = useCall()
  const numbers = useAppStore(selectNumbers)
  const numbersShow = listShows(numbers)
  const locale = useAppStore(selectLocale)
  const [deleting, setDeleting] = useState<PhoneNumber | null>(null)
  // The line as it runs now (not a stored port): each number's address, or why there is none.
  const sip = useSipStatus()

  useEffect(() => {
    void store.getState().loadNumbers()
  }, [store])
  const tableRef = useRef<HTMLTableSectionElement>(null)

  /** The next page, appended; when the button goes (all shown), focus moves to the first new row's agent field. */
  const showMore = async (button: HTMLButtonElement) => {
    const before = store.getState().numbers.items.length
    await store.getState().loadMoreNumbers()
    if (!button.isConnected) tableRef.current?.querySelectorAll<HTMLInputElement>('[role="combobox"]')[before]?.focus()
  }

  const assign = async (number: PhoneNumber, agentId: string) => {
    try {
      const updated =
        agentId === ''
          ? await call('numbers.unassign', { phoneNumber: number.number })
          : await call('numbers.assign', { phoneNumber: number.number, voiceAgentId: agentId })
      store.getState().upsertNumber(updated)
      store
        .getState()
        .toast(
          'success',
          updated.voiceAgent
            ? t('numbers.assigned', { number: updated.number, agent: updated.voiceAgent.name })
            : t('numbers.unassigned', { number: updated.number }),
        )
    } catch (error) {
      store.getState().toastError(error)
    }
  }

  const remove = async (number: PhoneNumber) => {
    try {
      await call('numbers.delete', { id: number.id })
      store.getState().removeNumber(number.id)
      store.getState().toast('success', t('numbers.deleted', { number: number.number }))
    } catch (error) {
      store.getState().toastError(error)
    }
  }

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{t('numbers.title')}</h1>
          <p className="muted">{t('numbers.intro')}</p>
        </div>
      </header>
      <RegisterNumberCard />

      <section className="card" aria-labelledby="numbers-list-title">
        <h2 id="numbers-list-title">{t('numbers.listTitle', { n: formatCount(numbers.total, locale) })}</h2>
        {numbersShow === 'rows' ? <SipLineNotice view={sip} /> : null}
        {numbersShow !== 'rows' ? (
          numbersShow === 'error' ? null : (
            <p className="muted">{numbersShow === 'loading' ? t('common.loading') : t('numbers.empty')}</p>
          )
        ) : (
          <div className="table-wrap">
            <table className="table">
              <TableHead
                columns={[
                  { label: t('numbers.phoneNumber') },
                  { label: t('numbers.label') },
                  { label: t('numbers.agent') },
                  { label: t('numbers.sip') },
                  { label: t('common.created'), optional: true },
                ]}
                actions
              />
              <tbody ref={tableRef}>
                {numbers.items.map((number) => (
                  <tr key={number.id}>
                    <td className="mono" dir="ltr">
                      {number.number}
                    </td>
                    <td dir="auto">{number.label}</td>
                    <td>
                      <AgentPicker number={number} onChoose={(agentId) => void assign(number, agentId)} />
                    </td>
                    <td className="small">
                      <SipAddressCell number={number.number} assigned={number.voiceAgent !== null} status={sip.status} />
                    </td>
                    <td className="small col-optional">{formatDateTime(number.createdAt, locale)}</td>
                    <td className="actions">
                      <button
                        type="button"
                        className="button icon-button ghost"
                        aria-label={t('numbers.deleteNamed', { number: number.number })}
                        onClick={() => setDeleting(number)}
                      >
                        <Icon name="trash" size={16} />
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {numbers.items.length > 0 ? (
          <div className="list-footer">
            <p className="muted small" aria-live="polite">
              {t('numbers.count', { shown: formatCount(numbers.items.length, locale), total: formatCount(numbers.filtered, locale) })}
            </p>
            <ShowMoreButton list={numbers} pageSize={NUMBERS_PAGE} onShowMore={showMore} />
          </div>
        ) : null}
        {numbers.error && !numbers.loading ? <LoadError error={numbers.error} onRetry={() => void store.getState().loadNumbers()} /> : null}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title={t('numbers.deleteTitle', { number: deleting?.number ?? '' })}
        explanation={t('numbers.deleteExplain')}
        confirmLabel={t('common.delete')}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  )
}

/** The card that registers a number at the provider: checks the number as typed, shows the service's refusals by field. */
function RegisterNumberCard() {
  const t = useT()
  const store = useStoreApi()
  const call = useCall()
  const locale = useAppStore(selectLocale)
  const [form, setForm] = useState<NewNumber>(EMPTY)
  const [errors, setErrors] = useState<Record<string, string[]>>({})
  const [busy, setBusy] = useState(false)
  const check = checkPhoneNumber(form.phoneNumber)
  const update = (key: keyof NewNumber, value: string) => {
    setForm((current) => ({ ...current, [key]: value }))
    setErrors(({ [key]: _gone, ...rest }) => rest)
  }
  const bind = textBinder(form, update, (key) => errors[key])

  const formRef = useRef<HTMLFormElement>(null)
  const register = async () => {
    setBusy(true)
    try {
      const number = await call('numbers.add', { type: 'TELEPHONY', ...form })
      store.getState().upsertNumber(number)
      setForm(EMPTY)
      setErrors({})
      store.getState().toast('success', t('numbers.registered', { number: number.number }))
    } catch (error) {
      if (isOperatorError(error) && error.details.length > 0) setErrors(fieldErrorsOf(error.details, locale))
      else setErrors({ '': [errorText(error, locale)] })
      requestAnimationFrame(() => focusFirstError(formRef.current))
    } finally {
      setBusy(false)
    }
  }

  const canRegister =
    check.state === 'valid' && form.label.trim() !== '' && form.providerAccountSid.trim() !== '' && form.providerAuthToken !== ''
  return (
    <SubmitForm
      ref={formRef}
      className="card"
      aria-labelledby="register-title"
      noValidate
      onSubmit={() => {
        if (canRegister) void register()
      }}
    >
      <h2 id="register-title">{t('numbers.register')}</h2>
      <div className="grid-4">
        <TextField
          label={t('numbers.phoneNumber')}
          hint={check.state === 'valid' ? t('numbers.willStore', { e164: check.e164 }) : t('numbers.e164Hint')}
          errors={[...(check.state === 'invalid' ? [readableMessage(check.message, locale)] : []), ...(errors.phoneNumber ?? [])]}
          inputClassName="mono"
          dir="ltr"
          inputMode="tel"
          autoComplete="off"
          placeholder="+15551234567"
          value={form.phoneNumber}
          onChange={(value) => update('phoneNumber', value)}
        />
        <TextField label={t('numbers.label')} {...bind('label')} />
        <TextField label={t('numbers.accountSid')} {...bind('providerAccountSid')} inputClassName="mono" dir="ltr" autoComplete="off" />
        <TextField
          label={t('numbers.authToken')}
          hint={t('numbers.authTokenHint')}
          {...bind('providerAuthToken')}
          dir="ltr"
          type="password"
          autoComplete="new-password"
        />
      </div>
      {errors[''] || errors.type ? (
        <p className="field-error" role="alert">
          {[...(errors[''] ?? []), ...(errors.type ?? [])].join(' ')}
        </p>
      ) : null}
      <div className="toolbar end">
        <button type="submit" className="button primary" disabled={!canRegister || busy}>
          <Icon name="plus" size={16} />
          <span>{t('numbers.registerButton')}</span>
        </button>
      </div>
    </SubmitForm>
  )
}
