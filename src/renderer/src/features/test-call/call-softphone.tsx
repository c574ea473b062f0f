import { useEffect, useState } from 'react'
import type { IpcOutput } from '../../../../shared/ipc/operations'
import { useT } from '../../i18n/use-t'
import { errorText } from '../../lib/readable-errors'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { SelectField } from '../../ui/field'
import { Icon } from '../../ui/icon'
import { useSipStatus } from '../sip/use-sip-status'

type SipUser = IpcOutput<'sipUsers.list'>['users'][number]

/**
 * "Call my softphone": the agent calls a SIP user's registered softphone over the line
 * (calls.callSoftphone); the call is a conversation the monitor shows live, linked from here.
 * Says plainly why it cannot when the line is not open or no softphone is signed in.
 */
export function CallSoftphone({ agentId }: { agentId: string }) {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const { status } = useSipStatus()
  const [users, setUsers] = useState<SipUser[] | null>(null)
  const [chosen, setChosen] = useState('')
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [started, setStarted] = useState<{ conversationId: string; name: string } | null>(null)

  useEffect(() => {
    call('sipUsers.list', {}).then(
      (answer) => (setUsers(answer.users), setLoadError(null)),
      (caught: unknown) => setLoadError(errorText(caught, locale)),
    )
  }, [call, locale])

  const registered = users?.filter((user) => user.registered) ?? []
  const target = chosen !== '' && registered.some((user) => user.name === chosen) ? chosen : (registered[0]?.name ?? '')
  const lineOpen = status?.state === 'listening'
  const ring = async () => {
    setBusy(true)
    setProblem(null)
    try {
      const answer = await call('calls.callSoftphone', { agentId, sipUser: target })
      setStarted({ conversationId: answer.conversationId, name: target })
    } catch (caught) {
      setProblem(errorText(caught, locale))
    } finally {
      setBusy(false)
    }
  }
  const openSettings = () => store.getState().navigate('settings')
  const watch = (id: string) => {
    store.getState().navigate('jobs')
    store.getState().selectJob(id)
  }

  const blocker =
    status && !lineOpen
      ? t('softphone.lineOff')
      : users && users.length === 0
        ? t('softphone.noUsers')
        : users && registered.length === 0
          ? t('softphone.noneRegistered')
          : null
  return (
    <fieldset className="fieldset call-softphone" data-testid="call-softphone">
      <legend>{t('softphone.title')}</legend>
      <p className="field-hint">{t('softphone.intro')}</p>
      {blocker ? (
        <div className="field-hint warn" role="status" data-testid="softphone-blocker">
          <p>{blocker}</p>
          <button type="button" className="button small" onClick={openSettings}>
            {t('softphone.openSettings')}
          </button>
        </div>
      ) : null}
      {users && users.length > 0 ? (
        <div className="toolbar">
          <SelectField label={t('softphone.user')} value={target} onChange={setChosen}>
            {users.map((user) => (
              <option key={user.name} value={user.name} disabled={!user.registered} dir="ltr">
                {user.registered ? user.name : t('softphone.notRegistered', { name: user.name })}
              </option>
            ))}
          </SelectField>
          <button
            type="button"
            className="button"
            data-testid="softphone-call"
            disabled={busy || !lineOpen || target === ''}
            onClick={() => void ring()}
          >
            <Icon name="phone" size={16} />
            <span>{t('softphone.call')}</span>
          </button>
        </div>
      ) : null}
      {loadError ? (
        <p className="field-error" role="alert">
          {loadError}
        </p>
      ) : null}
      {problem ? (
        <p className="field-error" role="alert">
          {t('softphone.failed')} <span dir="auto">{problem}</span>
        </p>
      ) : null}
      {started ? (
        <div className="field-hint" role="status" data-testid="softphone-started">
          <p>{t('softphone.calling', { name: started.name })}</p>
          <button type="button" className="button small primary" onClick={() => watch(started.conversationId)}>
            {t('softphone.openMonitor')}
          </button>
        </div>
      ) : null}
    </fieldset>
  )
}
