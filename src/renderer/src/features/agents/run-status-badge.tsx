import { useT } from '../../i18n/use-t'

const CLASSES = { PENDING: 'badge-pending', RUNNING: 'badge-in_progress', PASSED: 'badge-completed', FAILED: 'badge-failed' } as const

/** A run's or a scenario's status as a coloured word (the word carries the meaning). */
export function RunStatusBadge({ status }: { status: keyof typeof CLASSES }) {
  const t = useT()
  return (
    <span className={`badge ${CLASSES[status]}`} data-status={status}>
      {t(`tests.status.${status}`)}
    </span>
  )
}
