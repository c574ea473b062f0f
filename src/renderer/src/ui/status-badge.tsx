import { useT } from '../i18n/use-t'
import type { MessageKey } from '../i18n/dictionary'

const KEYS: Record<string, MessageKey> = {
  PENDING: 'status.PENDING',
  IN_PROGRESS: 'status.IN_PROGRESS',
  COMPLETED: 'status.COMPLETED',
  FAILED: 'status.FAILED',
  DELIVERED: 'status.DELIVERED',
  EXHAUSTED: 'status.EXHAUSTED',
}

/** A job or delivery status as a coloured word (the word carries the meaning, not the colour). */
export function StatusBadge({ status }: { status: string }) {
  const t = useT()
  const key = KEYS[status]
  return <span className={`badge badge-${status.toLowerCase()}`}>{key ? t(key) : status}</span>
}
