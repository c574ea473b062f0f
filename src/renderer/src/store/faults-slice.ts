import type { Fault, FaultRuleInput } from '../../../shared/api/faults'
import { messageOf } from '../api/operator-error'
import type { SliceCreator } from './app-store'

export interface FaultsSlice {
  faults: {
    /** Active rules, as the last faults.list answered (null until loaded). */
    items: Fault[] | null
    /** How many rules are active: from faults.changed events, and each list. */
    active: number
    loading: boolean
    error: string | null
  }
  loadFaults(): Promise<void>
  /** Adds a rule; rejects with the OperatorError (its details go beside the form's fields). */
  addFault(rule: FaultRuleInput): Promise<Fault>
  removeFault(id: string): Promise<void>
  clearFaults(): Promise<void>
  /** From a faults.changed event: the count at once, the list again when it is shown. */
  faultsChanged(active: number): void
}

export const createFaultsSlice: SliceCreator<FaultsSlice> = (set, get, { call }) => {
  const patch = (changes: Partial<FaultsSlice['faults']>) => set((state) => ({ faults: { ...state.faults, ...changes } }))
  let request = 0
  return {
    faults: { items: null, active: 0, loading: false, error: null },
    async loadFaults() {
      const mine = ++request
      patch({ loading: true })
      try {
        const { faults } = await call('faults.list', {})
        if (mine === request) patch({ items: faults, active: faults.length, loading: false, error: null })
      } catch (error) {
        if (mine === request) patch({ loading: false, error: messageOf(error) })
      }
    },
    async addFault(rule) {
      const fault = await call('faults.add', rule)
      void get().loadFaults()
      return fault
    },
    async removeFault(id) {
      try {
        await call('faults.remove', { id })
      } catch (error) {
        get().toastError(error)
      }
      void get().loadFaults()
    },
    async clearFaults() {
      try {
        await call('faults.clear', {})
      } catch (error) {
        get().toastError(error)
      }
      void get().loadFaults()
    },
    faultsChanged(active) {
      patch({ active })
      if (get().faults.items !== null) void get().loadFaults()
    },
  }
}
