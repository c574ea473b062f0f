import type { SipStatus } from '../../../../shared/ipc/operations'
import { useT } from '../../i18n/use-t'
import { CopyButton } from '../../ui/copy-button'
import { LoadError } from '../../ui/load-error'
import { sipAddressOf } from '../../lib/sip-address'
import type { SipStatusView } from './use-sip-status'

/**
 * A number's SIP address on the live line, with its copy button; or, instead of an address, why
 * there is none: the number rings no agent, or the line is off (the notice above says why).
 */
export function SipAddressCell({ number, assigned, status }: { number: string; assigned: boolean; status: SipStatus | null }) {
  const t = useT()
  if (status === null) return <span className="muted">—</span>
  if (status.state !== 'listening')
    return <span className="muted small">{status.state === 'off' ? t('sip.noAddressOff') : t('sip.noAddressFailed')}</span>
  if (!assigned) return <span className="muted small">{t('sip.noAddressUnassigned')}</span>
  const address = sipAddressOf(number, status)
  return (
    <span className="with-copy sip-address">
      <code dir="ltr" data-testid="sip-address">
        {address}
      </code>
      <CopyButton text={address} label={t('sip.addressOf', { number })} compact />
    </span>
  )
}

/** Said once above the numbers (and in Settings): the line is off or could not open, and why; nothing while it listens. */
export function SipLineNotice({ view }: { view: SipStatusView }) {
  const t = useT()
  const { status, error } = view
  if (error) return <LoadError error={error} failed={t('sip.statusFailed')} onRetry={view.reload} />
  if (status === null || status.state === 'listening') return null
  return (
    <div className="field-hint warn sip-notice" role="status" data-testid="sip-line-notice">
      {status.state === 'off' ? (
        <p>
          {t('sip.offNotice')} <code dir="ltr">--sip-port off</code>
        </p>
      ) : (
        <>
          <p>{t('sip.failedNotice')}</p>
          <p className="small" dir="ltr" lang="en" data-testid="sip-line-problem">
            {status.problem}
          </p>
        </>
      )}
    </div>
  )
}
