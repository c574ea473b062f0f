import { VOICES, type Voice } from '../../../shared/voices'
import type { IpcEvent, ServiceInfo } from '../../../shared/ipc/operations'
import type { SliceCreator } from './app-store'

export interface ServiceSlice {
  service: {
    info: ServiceInfo | null
    /** Kept current by job.changed events, after service.info gave the first numbers. */
    runningJobs: number
    pendingJobs: number
    voices: Voice[]
    error: string | null
  }
  loadService(): Promise<void>
  /** A service.info answer (from loading, or from a link check): the numbers it brings. */
  serviceInfoArrived(info: ServiceInfo): void
  loadVoices(): Promise<void>
  /** Every live event goes through here: counts, then each slice that shows what changed. */
  handleEvent(event: IpcEvent): void
  /** After the event stream was broken: fetch again what events would have updated. */
  resync(): void
}

export const createServiceSlice: SliceCreator<ServiceSlice> = (set, get, { call }) => {
  const patch = (changes: Partial<ServiceSlice['service']>) => set((state) => ({ service: { ...state.service, ...changes } }))
  return {
    // The fixed catalogue (the same that voices.list answers), so the voice pickers name their
    // voices even before the service answers, or while it cannot be reached.
    service: { info: null, runningJobs: 0, pendingJobs: 0, voices: [...VOICES], error: null },
    async loadService() {
      try {
        get().serviceInfoArrived(await call('service.info', {}))
      } catch (error) {
        patch({ error: error instanceof Error ? error.message : String(error) })
      }
    },
    serviceInfoArrived(info) {
      patch({ info, runningJobs: info.runningJobs, pendingJobs: info.pendingJobs, error: null })
    },
    async loadVoices() {
      if (get().service.voices.length > 0) return
      const voices = await call('voices.list', {})
      patch({ voices })
    },
    resync() {
      void get().loadService()
      // The badge's count: rules may have been added or expired while the link was down.
      void get().loadFaults()
      get().refreshJobs()
      void get().reloadJobDetail()
      if (get().deliveries.opened) void get().loadDeliveries()
      if (get().requests.opened) void get().refreshRequests()
      // An open delivery that could not load (the link was down) loads again.
      const { selectedId, detail } = get().deliveries
      if (selectedId !== null && detail === null) void get().selectDelivery(selectedId)
      // Lists shown before (or that failed while the link was down) load again.
      // Agents always: the first screen, and they have no live events.
      const { numbers, templates, ui } = get()
      void get().loadAgents()
      if (ui.screen === 'numbers' || numbers.items.length > 0 || numbers.error) void get().loadNumbers()
      if (ui.screen === 'templates' || templates.items.length > 0 || templates.error) void get().loadTemplates()
    },
    handleEvent(event) {
      if (event.type === 'job.changed') {
        patch({ runningJobs: event.runningJobs, pendingJobs: event.pendingJobs })
        get().jobChanged(event.job)
      } else if (event.type === 'delivery.attempted') {
        get().deliveryAttempted(event.delivery)
      } else if (event.type === 'requests.written') {
        get().requestsWritten()
      } else {
        get().faultsChanged(event.active)
      }
    },
  }
}
