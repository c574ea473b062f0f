import { useT } from '../../i18n/use-t'
import { SipLineNotice } from '../sip/sip-address'
import { sipAddressOf, sipHostPart } from '../../lib/sip-address'
import { useSipStatus } from '../sip/use-sip-status'
import { SipUsersSection } from './sip-users-section'

/**
 * Settings → SIP line: the line as the running service has it (state, address, port, whether
 * callers sign in), how to change it (flags at start: it is not a setting saved here), and its users.
 */
export function SipLineCard() {
  const t = useT()
  const view = useSipStatus()
  const { status } = view
  return (
    <section className="card" aria-labelledby="sip-title" data-testid="sip-line-card">
      <h2 id="sip-title">{t('sip.cardTitle')}</h2>
      <p className="muted small">{t('sip.cardIntro')}</p>
      {status ? (
        <dl className="facts">
          <dt>{t('sip.state')}</dt>
          <dd data-testid="sip-state">
            {status.state === 'listening' ? (
              <span className="badge badge-completed">{t('sip.stateListening')}</span>
            ) : status.state === 'off' ? (
              <span className="badge">{t('sip.stateOff')}</span>
            ) : (
              <span className="badge badge-failed">{t('sip.stateFailed')}</span>
            )}
          </dd>
          {status.state === 'listening' ? (
            <>
              <dt>{t('sip.host')}</dt>
              <dd className="mono">
                <bdi dir="ltr" data-testid="sip-host">
                  {status.host}
                </bdi>
              </dd>
              <dt>{t('sip.port')}</dt>
              <dd className="mono">
                <bdi dir="ltr" data-testid="sip-port">
                  {status.port}
                </bdi>
              </dd>
              <dt>{t('sip.callAt')}</dt>
              <dd>
                <code dir="ltr" data-testid="sip-pattern">
                  {sipAddressOf('<number>', status)}
                </code>
              </dd>
              <dt>{t('sip.signIn')}</dt>
              <dd>{status.authRequired ? t('sip.signInRequired') : t('sip.signInNone')}</dd>
            </>
          ) : null}
        </dl>
      ) : view.error ? null : (
        <p className="muted">{t('common.loading')}</p>
      )}
      <SipLineNotice view={view} />
      <p className="small">{t('sip.change')}</p>
      <ul className="plain-list sip-flags small">
        <li>
          <code dir="ltr">--sip-port 5080</code> {t('sip.changePort')}
        </li>
        <li>
          <code dir="ltr">--sip-port 0</code> {t('sip.changeFree')}
        </li>
        <li>
          <code dir="ltr">--sip-port off</code> {t('sip.changeOff')}
        </li>
        <li>
          <code dir="ltr">--sip-host 127.0.0.2</code> {t('sip.changeHost')}
        </li>
      </ul>
      <SipUsersSection server={status?.state === 'listening' ? `${sipHostPart(status.host)}:${status.port}` : null} />
    </section>
  )
}
