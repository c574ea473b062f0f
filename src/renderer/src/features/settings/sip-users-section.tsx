import { useEffect, useState } from 'react'
import type { IpcOutput } from '../../../../shared/ipc/operations'
import { isOperatorError } from '../../api/operator-error'
import { useT } from '../../i18n/use-t'
import { fieldErrorLinesOf } from '../../lib/field-errors'
import { formatDateTime } from '../../lib/format'
import { errorText } from '../../lib/readable-errors'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLinkReturns, selectLocale } from '../../store/selectors'
import { CopyButton } from '../../ui/copy-button'
import { TextField } from '../../ui/field'
import { Icon } from '../../ui/icon'
import { LoadError } from '../../ui/load-error'
import { ConfirmDialog, ModalDialog } from '../../ui/modal-dialog'
import { SubmitForm } from '../../ui/submit-form'
import { TableHead } from '../../ui/table-head'

type SipUser = IpcOutput<'sipUsers.list'>['users'][number]

/**
 * The SIP line's users: softphones sign in (register) as one, so an agent can call it. Add one
 * (its password shown once, to copy), reset a password (shown once too), remove one (confirmed).
 * `server` is where a softphone registers (the line's host:port), null while the line is not open.
 */
export function SipUsersSection({ server }: { server: string | null }) {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const linkReturns = useAppStore(selectLinkReturns)
  const [users, setUsers] = useState<SipUser[] | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [nameErrors, setNameErrors] = useState<string[]>([])
  const [revealed, setRevealed] = useState<{ name: string; password: string } | null>(null)
  const [resetting, setResetting] = useState<SipUser | null>(null)
  const [removing, setRemoving] = useState<SipUser | null>(null)

  const load = () =>
    call('sipUsers.list', {}).then(
      (answer) => (setUsers(answer.users), setLoadError(null)),
      (caught: unknown) => setLoadError(errorText(caught, locale)),
    )
  useEffect(() => {
    void load()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load is remade every render; the users are read again only when the link returns
  }, [linkReturns])

  const add = async () => {
    try {
      setRevealed(await call('sipUsers.add', { name: name.trim() }))
      setName('')
      setNameErrors([])
      void load()
    } catch (caught) {
      setNameErrors(
        isOperatorError(caught) && caught.details.length > 0 ? fieldErrorLinesOf(caught.details, locale, {}) : [errorText(caught, locale)],
      )
    }
  }
  const reset = async (user: SipUser) => {
    try {
      setRevealed(await call('sipUsers.resetPassword', { name: user.name }))
    } catch (caught) {
      store.getState().toastError(caught)
    }
  }
  const remove = async (user: SipUser) => {
    try {
      await call('sipUsers.remove', { name: user.name })
      store.getState().toast('success', t('sipUsers.removed', { name: user.name }))
      void load()
    } catch (caught) {
      store.getState().toastError(caught)
    }
  }

  return (
    <section className="sip-users" aria-labelledby="sip-users-title" data-testid="sip-users">
      <h3 id="sip-users-title">{t('sipUsers.title')}</h3>
      <p className="muted small">{t('sipUsers.intro')}</p>
      <SubmitForm
        className="inline-form"
        noValidate
        onSubmit={() => {
          if (name.trim()) void add()
        }}
      >
        <TextField
          label={t('sipUsers.name')}
          hint={t('sipUsers.nameHint')}
          errors={nameErrors.length > 0 ? nameErrors : undefined}
          maxLength={65}
          value={name}
          dir="ltr"
          autoComplete="off"
          onChange={(value) => (setName(value), setNameErrors([]))}
        />
        <button type="submit" className="button primary" disabled={name.trim() === ''}>
          <Icon name="plus" size={16} />
          <span>{t('sipUsers.add')}</span>
        </button>
      </SubmitForm>
      {users && users.length === 0 ? <p className="muted">{t('sipUsers.empty')}</p> : null}
      {users && users.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <TableHead
              columns={[
                { label: t('sipUsers.name') },
                { label: t('sipUsers.colState') },
                { label: t('sipUsers.colContact'), optional: true },
                { label: t('common.created'), optional: true },
              ]}
              actions
            />
            <tbody>
              {users.map((user) => (
                <SipUserRow key={user.name} user={user} onReset={() => setResetting(user)} onRemove={() => setRemoving(user)} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {loadError ? <LoadError error={loadError} failed={t('sipUsers.loadFailed')} onRetry={() => void load()} /> : null}
      <PasswordOnce revealed={revealed} server={server} onClose={() => setRevealed(null)} />
      <ConfirmDialog
        open={resetting !== null}
        title={t('sipUsers.resetTitle', { name: resetting?.name ?? '' })}
        explanation={t('sipUsers.resetExplain')}
        confirmLabel={t('sipUsers.reset')}
        onConfirm={() => resetting && void reset(resetting)}
        onCancel={() => setResetting(null)}
      />
      <ConfirmDialog
        open={removing !== null}
        title={t('sipUsers.removeTitle', { name: removing?.name ?? '' })}
        explanation={t('sipUsers.removeExplain')}
        confirmLabel={t('sipUsers.remove')}
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      />
    </section>
  )
}

/** A user: its name, whether its softphone is registered (until when, where), and its actions. */
function SipUserRow({ user, onReset, onRemove }: { user: SipUser; onReset(): void; onRemove(): void }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  return (
    <tr data-testid="sip-user-row">
      <td className="mono" dir="ltr">
        {user.name}
      </td>
      <td>
        {user.registered ? (
          <span className="badge badge-completed">{t('sipUsers.registered')}</span>
        ) : (
          <span className="badge">{t('sipUsers.notRegistered')}</span>
        )}
        {user.registered && user.registeredUntil ? (
          <span className="small muted"> {t('sipUsers.until', { time: formatDateTime(user.registeredUntil, locale) })}</span>
        ) : null}
      </td>
      <td className="mono small col-optional" dir="ltr">
        {user.contact ?? '—'}
      </td>
      <td className="small col-optional">{formatDateTime(user.createdAt, locale)}</td>
      <td className="actions">
        <button type="button" className="button small" aria-label={t('sipUsers.resetNamed', { name: user.name })} onClick={onReset}>
          {t('sipUsers.reset')}
        </button>
        <button
          type="button"
          className="button danger small"
          aria-label={t('sipUsers.removeNamed', { name: user.name })}
          onClick={onRemove}
        >
          {t('sipUsers.remove')}
        </button>
      </td>
    </tr>
  )
}

/** A new password, shown this once with its copy button and what to type in the softphone; closing forgets it. */
function PasswordOnce({
  revealed,
  server,
  onClose,
}: {
  revealed: { name: string; password: string } | null
  server: string | null
  onClose(): void
}) {
  const t = useT()
  return (
    <ModalDialog
      open={revealed !== null}
      title={t('sipUsers.passwordTitle', { name: revealed?.name ?? '' })}
      onClose={onClose}
      actions={
        <button type="button" className="button primary" onClick={onClose}>
          {t('sipUsers.done')}
        </button>
      }
    >
      <p className="field-hint warn" role="alert">
        {t('sipUsers.passwordOnce')}
      </p>
      <div className="key-reveal">
        <code dir="ltr" data-testid="sip-password">
          {revealed?.password}
        </code>
        <CopyButton text={revealed?.password ?? ''} label={t('sipUsers.thePassword')} />
      </div>
      {server ? (
        <p className="small">
          {t('sipUsers.setup', { name: revealed?.name ?? '' })} <code dir="ltr">{server}</code>
        </p>
      ) : null}
    </ModalDialog>
  )
}
