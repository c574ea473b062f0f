import type { DELIVERY_STATUSES, WebhookDelivery, WebhookDeliveryDetail } from '../../../shared/api/webhooks'
import type { IpcEvent } from '../../../shared/ipc/operations'
import type { SliceCreator } from './app-store'
import { messageOf } from '../api/operator-error'

export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]
export const DELIVERIES_PAGE_SIZE = 25

export interface WebhooksSlice {
  deliveries: {
    /** Whether the journal has been shown: only then are events worth a request. */
    opened: boolean
    status: DeliveryStatus | null
    page: number
    items: WebhookDelivery[]
    total: number
    filtered: number
    loading: boolean
    error: string | null
    selectedId: string | null
    detail: WebhookDeliveryDetail | null
    /** Why the open delivery could not be loaded (the list's own `error` is the list's). */
    detailError: string | null
  }
  loadDeliveries(changes?: { status?: DeliveryStatus | null; page?: number }): Promise<void>
  selectDelivery(id: string | null): Promise<void>
  /** After "send again": the answer replaces the row at once. */
  deliveryReplaced(delivery: WebhookDelivery): void
  /** From a delivery.attempted event. */
  deliveryAttempted(delivery: Extract<IpcEvent, { type: 'delivery.attempted' }>['delivery']): void
}

export const createWebhooksSlice: SliceCreator<WebhooksSlice> = (set, get, { call, schedule }) => {
  let request = 0
  let refreshPending: (() => void) | null = null
  let refreshDetail = false
  let jobDetailPending: (() => void) | null = null
  const patch = (changes: Partial<WebhooksSlice['deliveries']>) => set((state) => ({ deliveries: { ...state.deliveries, ...changes } }))

  return {
    deliveries: {
      opened: false,
      status: null,
      page: 1,
      items: [],
      total: 0,
      filtered: 0,
      loading: false,
      error: null,
      selectedId: null,
      detail: null,
      detailError: null,
    },

    async loadDeliveries(changes = {}) {
      const current = get().deliveries
      const status = changes.status === undefined ? current.status : changes.status
      const page = changes.page ?? (changes.status === undefined ? current.page : 1)
      const mine = ++request
      patch({ opened: true, status, page, loading: true })
      try {
        const answer = await call('webhooks.list', { status: status ?? undefined, take: DELIVERIES_PAGE_SIZE, skip: page })
        if (mine !== request) return
        patch({ items: answer.deliveries, total: answer.total, filtered: answer.filtered, loading: false, error: null })
      } catch (error) {
        if (mine !== request) return
        patch({ loading: false, error: messageOf(error) })
      }
    },

    async selectDelivery(id) {
      patch({
        selectedId: id,
        detail: id === null ? null : get().deliveries.detail?.id === id ? get().deliveries.detail : null,
        detailError: null,
      })
      if (id === null) return
      try {
        const detail = await call('webhooks.get', { id })
        if (get().deliveries.selectedId === id) patch({ detail, detailError: null })
      } catch (error) {
        // Said in the detail pane with Retry, not "Loading…" for ever.
        if (get().deliveries.selectedId === id) patch({ detailError: messageOf(error) })
      }
    },

    deliveryReplaced(delivery) {
      const { items, detail } = get().deliveries
      patch({
        items: items.map((item) => (item.id === delivery.id ? delivery : item)),
        detail: detail && detail.id === delivery.id ? { ...detail, ...delivery } : detail,
      })
    },

    deliveryAttempted(delivery) {
      const { items, selectedId } = get().deliveries
      patch({
        items: items.map((item) =>
          item.id === delivery.id
            ? {
                ...item,
                status: delivery.status,
                attempts: delivery.attempts,
                lastStatusCode: delivery.lastStatusCode,
                lastError: delivery.lastError,
              }
            : item,
        ),
      })
      if (selectedId === delivery.id) refreshDetail = true
      // The open job's deliveries live in the jobs detail; a call's events come in bursts (a turn, the end), reloaded once each.
      const jobDetail = get().jobs.detail
      if (jobDetail && delivery.jobId === jobDetail.id && !jobDetailPending) {
        jobDetailPending = schedule(() => {
          jobDetailPending = null
          void get().reloadJobDetail()
        }, 250)
      }
      if (!get().deliveries.opened || refreshPending) return
      refreshPending = schedule(() => {
        refreshPending = null
        void get().loadDeliveries()
        const selected = get().deliveries.selectedId
        if (refreshDetail && selected) void get().selectDelivery(selected)
        refreshDetail = false
      }, 250)
    },
  }
}
