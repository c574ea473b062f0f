import type { PhoneNumber } from '../../../shared/api/phone-numbers'
import type { VoiceAgent, VoiceAgentTemplate } from '../../../shared/api/voice-agents'
import type { SliceCreator } from './app-store'

export interface AgentsSlice {
  agents: {
    items: VoiceAgent[]
    total: number
    filtered: number
    search: string
    loading: boolean
    error: string | null
  }
  templates: { items: VoiceAgentTemplate[]; loading: boolean; error: string | null }
  numbers: { items: PhoneNumber[]; total: number; loading: boolean; error: string | null }
  loadAgents(search?: string): Promise<void>
  /** After a create, clone or save: the list shows the agent as the service answered it. */
  upsertAgent(agent: VoiceAgent): void
  removeAgent(id: string): void
  loadTemplates(): Promise<void>
  loadNumbers(): Promise<void>
  upsertNumber(number: PhoneNumber): void
  removeNumber(id: string): void
}

/** The agents list shows at most this many; search narrows it (the service pages beyond). */
export const AGENTS_PAGE = 100
const NUMBERS_PAGE = 100

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

export const createAgentsSlice: SliceCreator<AgentsSlice> = (set, get, { call }) => {
  let agentsRequest = 0
  return {
    agents: { items: [], total: 0, filtered: 0, search: '', loading: false, error: null },
    templates: { items: [], loading: false, error: null },
    numbers: { items: [], total: 0, loading: false, error: null },

    async loadAgents(search = get().agents.search) {
      const request = ++agentsRequest
      set((state) => ({ agents: { ...state.agents, search, loading: true } }))
      try {
        const answer = await call('agents.list', { take: AGENTS_PAGE, skip: 1, search: search.trim() || undefined })
        if (request !== agentsRequest) return
        set((state) => ({ agents: { ...state.agents, items: answer.agents, total: answer.total, filtered: answer.filtered, loading: false, error: null } }))
      } catch (error) {
        if (request !== agentsRequest) return
        set((state) => ({ agents: { ...state.agents, loading: false, error: messageOf(error) } }))
      }
    },
    upsertAgent(agent) {
      set((state) => {
        const exists = state.agents.items.some((item) => item.id === agent.id)
        const items = exists ? state.agents.items.map((item) => (item.id === agent.id ? agent : item)) : [agent, ...state.agents.items]
        const added = exists ? 0 : 1
        return { agents: { ...state.agents, items, total: state.agents.total + added, filtered: state.agents.filtered + added } }
      })
    },
    removeAgent(id) {
      set((state) => ({
        agents: {
          ...state.agents,
          items: state.agents.items.filter((item) => item.id !== id),
          total: Math.max(0, state.agents.total - 1),
          filtered: Math.max(0, state.agents.filtered - 1),
        },
        // Numbers assigned to a deleted agent are free again.
        numbers: {
          ...state.numbers,
          items: state.numbers.items.map((number) => (number.voiceAgentId === id ? { ...number, voiceAgentId: null, voiceAgent: null } : number)),
        },
      }))
    },
    async loadTemplates() {
      set((state) => ({ templates: { ...state.templates, loading: true } }))
      try {
        const items = await call('templates.list', {})
        set({ templates: { items, loading: false, error: null } })
      } catch (error) {
        set((state) => ({ templates: { ...state.templates, loading: false, error: messageOf(error) } }))
      }
    },
    async loadNumbers() {
      set((state) => ({ numbers: { ...state.numbers, loading: true } }))
      try {
        const answer = await call('numbers.list', { take: NUMBERS_PAGE, skip: 1 })
        set({ numbers: { items: answer.phoneNumbers, total: answer.total, loading: false, error: null } })
      } catch (error) {
        set((state) => ({ numbers: { ...state.numbers, loading: false, error: messageOf(error) } }))
      }
    },
    upsertNumber(number) {
      set((state) => {
        const exists = state.numbers.items.some((item) => item.id === number.id)
        const items = exists ? state.numbers.items.map((item) => (item.id === number.id ? number : item)) : [number, ...state.numbers.items]
        return { numbers: { ...state.numbers, items, total: state.numbers.total + (exists ? 0 : 1) } }
      })
    },
    removeNumber(id) {
      set((state) => ({ numbers: { ...state.numbers, items: state.numbers.items.filter((item) => item.id !== id), total: Math.max(0, state.numbers.total - 1) } }))
    },
  }
}
