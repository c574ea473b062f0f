import type { PhoneNumber } from '../../../shared/api/phone-numbers'
import type { VoiceAgentTemplate } from '../../../shared/api/voice-agents'
import type { OperatorAgent as VoiceAgent } from '../../../shared/ipc/operations'
import type { SliceCreator } from './app-store'
import { emptyPagedList, pagedList, type PageAnswer, type PagedList } from './paged-list'
import { messageOf } from '../api/operator-error'

export interface AgentsSlice {
  /** The agents screen's list: a search, its first pages. */
  agents: PagedList<VoiceAgent>
  /** The agent picker's matches (assigning a number): its own search, so the list screen keeps its own. */
  agentChoices: PagedList<VoiceAgent>
  templates: { items: VoiceAgentTemplate[]; loading: boolean; error: string | null }
  numbers: PagedList<PhoneNumber>
  loadAgents(search?: string): Promise<void>
  /** The next page of the agents list, appended. */
  loadMoreAgents(): Promise<void>
  searchAgentChoices(search: string): Promise<void>
  loadMoreAgentChoices(): Promise<void>
  /** After a create, clone or save: the list shows the agent as the service answered it. */
  upsertAgent(agent: VoiceAgent): void
  removeAgent(id: string): void
  loadTemplates(): Promise<void>
  loadNumbers(): Promise<void>
  loadMoreNumbers(): Promise<void>
  upsertNumber(number: PhoneNumber): void
  removeNumber(id: string): void
}

/** Agents per page of the list ("Show more" fetches the next); the contract's largest page. */
export const AGENTS_PAGE = 100
export const NUMBERS_PAGE = 100
/** Matches per page in the agent picker: enough to scan, more on demand. */
export const AGENT_CHOICES_PAGE = 30

export const createAgentsSlice: SliceCreator<AgentsSlice> = (set, get, { call }) => {
  /** A paged list kept in the slice under `key`. */
  const listAt = <K extends 'agents' | 'agentChoices' | 'numbers'>(
    key: K,
    pageSize: number,
    fetch: (page: number, search: string) => Promise<PageAnswer<AgentsSlice[K]['items'][number]>>,
  ) =>
    pagedList<AgentsSlice[K]['items'][number]>({
      pageSize,
      fetch,
      read: () => get()[key],
      write: (update) => set((state) => ({ [key]: { ...state[key], ...update(state[key]) } })),
    })
  const agentPages = (pageSize: number) => async (page: number, search: string) => {
    const answer = await call('agents.list', { take: pageSize, skip: page, search: search || undefined })
    return { items: answer.agents, total: answer.total, filtered: answer.filtered }
  }
  const agentsList = listAt('agents', AGENTS_PAGE, agentPages(AGENTS_PAGE))
  const choicesList = listAt('agentChoices', AGENT_CHOICES_PAGE, agentPages(AGENT_CHOICES_PAGE))
  const numbersList = listAt('numbers', NUMBERS_PAGE, async (page, search) => {
    const answer = await call('numbers.list', { take: NUMBERS_PAGE, skip: page, search: search || undefined })
    return { items: answer.phoneNumbers, total: answer.total, filtered: answer.filtered }
  })

  return {
    agents: emptyPagedList(),
    agentChoices: emptyPagedList(),
    templates: { items: [], loading: false, error: null },
    numbers: emptyPagedList(),

    loadAgents: (search) => agentsList.load(search),
    loadMoreAgents: () => agentsList.more(),
    searchAgentChoices: (search) => choicesList.load(search),
    loadMoreAgentChoices: () => choicesList.more(),

    upsertAgent(agent) {
      set((state) => {
        const exists = state.agents.items.some((item) => item.id === agent.id)
        // New agents are the newest: first, as the service sorts them.
        const items = exists ? state.agents.items.map((item) => (item.id === agent.id ? agent : item)) : [agent, ...state.agents.items]
        const added = exists ? 0 : 1
        return {
          agents: { ...state.agents, items, total: state.agents.total + added, filtered: state.agents.filtered + added },
          agentChoices: { ...state.agentChoices, items: state.agentChoices.items.map((item) => (item.id === agent.id ? agent : item)) },
          // A renamed agent: the numbers it answers show the new name.
          numbers: {
            ...state.numbers,
            items: state.numbers.items.map((number) =>
              number.voiceAgentId === agent.id && number.voiceAgent?.name !== agent.agentName
                ? { ...number, voiceAgent: { id: agent.id, name: agent.agentName } }
                : number,
            ),
          },
        }
      })
    },
    removeAgent(id) {
      set((state) => {
        const listed = state.agents.items.some((item) => item.id === id)
        const chosen = state.agentChoices.items.some((item) => item.id === id)
        return {
          agents: {
            ...state.agents,
            items: state.agents.items.filter((item) => item.id !== id),
            total: Math.max(0, state.agents.total - 1),
            filtered: Math.max(0, state.agents.filtered - (listed ? 1 : 0)),
          },
          agentChoices: chosen
            ? {
                ...state.agentChoices,
                items: state.agentChoices.items.filter((item) => item.id !== id),
                total: Math.max(0, state.agentChoices.total - 1),
                filtered: Math.max(0, state.agentChoices.filtered - 1),
              }
            : state.agentChoices,
          // Numbers assigned to a deleted agent are free again.
          numbers: {
            ...state.numbers,
            items: state.numbers.items.map((number) =>
              number.voiceAgentId === id ? { ...number, voiceAgentId: null, voiceAgent: null } : number,
            ),
          },
        }
      })
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
    loadNumbers: () => numbersList.load(),
    loadMoreNumbers: () => numbersList.more(),
    upsertNumber(number) {
      set((state) => {
        const exists = state.numbers.items.some((item) => item.id === number.id)
        const items = exists ? state.numbers.items.map((item) => (item.id === number.id ? number : item)) : [number, ...state.numbers.items]
        const added = exists ? 0 : 1
        return { numbers: { ...state.numbers, items, total: state.numbers.total + added, filtered: state.numbers.filtered + added } }
      })
    },
    removeNumber(id) {
      set((state) => {
        const listed = state.numbers.items.some((item) => item.id === id)
        return {
          numbers: {
            ...state.numbers,
            items: state.numbers.items.filter((item) => item.id !== id),
            total: Math.max(0, state.numbers.total - 1),
            filtered: Math.max(0, state.numbers.filtered - (listed ? 1 : 0)),
          },
        }
      })
    },
  }
}
