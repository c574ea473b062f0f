import { useCallback, useEffect, useState } from 'react'
import type { SipStatus } from '../../../../shared/ipc/operations'
import { errorText } from '../../lib/readable-errors'
import { useAppStore, useCall } from '../../store/app-context'
import { selectLinkReturns, selectLocale } from '../../store/selectors'

export interface SipStatusView {
  /** The line as the running service has it; null until first read. */
  status: SipStatus | null
  /** Why it could not be read (a dead service), in the UI's language; null when it was. */
  error: string | null
  reload(): void
}

/** The SIP line's live status (`sip.status`), read when the screen opens and again when the link to the service returns. */
export function useSipStatus(): SipStatusView {
  const call = useCall()
  const locale = useAppStore(selectLocale)
  const linkReturns = useAppStore(selectLinkReturns)
  const [status, setStatus] = useState<SipStatus | null>(null)
  const [error, setError] = useState<string | null>(null)
  const reload = useCallback(() => {
    call('sip.status', {}).then(
      (answer) => (setStatus(answer), setError(null)),
      (caught: unknown) => setError(errorText(caught, locale)),
    )
  }, [call, locale])
  useEffect(() => reload(), [reload, linkReturns])
  return { status, error, reload }
}
