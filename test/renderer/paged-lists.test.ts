// The agents list, the numbers list and the agent picker page through the service: "Show more"
// appends the next page, the count stays true, and answers to an outdated search are dropped.
// DOM-free: the vanilla store with a fake service that answers when the test says so.
import { describe, expect, it } from 'vitest'
import type { PhoneNumber } from '../../src/shared/api/phone-numbers'
import type { VoiceAgent } from '../../src/shared/api/voice-agents'
import type { IpcInput, IpcOperationName, IpcOutput } from '../../src/shared/ipc/operations'
import type { Call } from '../../src/renderer/src/api/call'
import { OperatorError } from '../../src/renderer/src/api/operator-error'
import { AGENT_CHOICES_PAGE, AGENTS_PAGE, NUMBERS_PAGE } from '../../src/renderer/src/store/agents-slice'
import { createAppStore } from '../../src/renderer/src/store/app-store'
import { hasMore, moreCount } from '../../src/renderer/src/store/paged-list'
import { listShows } from '../../src/renderer/src/store/list-shows'
import { agentFixture } from './agent-fixture'

const uuid = (prefix: string, index: number) => `${prefix}-0000-4000-8000-${String(index).padStart(12, '0')}`

function agent(index: number): VoiceAgent {
  return agentFixture({ id: uuid('0a000000', index), agentName: `Agent ${String(index).padStart(4, '0')}` })
}

function phoneNumber(index: number): PhoneNumber {
  return {
    id: uuid('0b000000', index),
    number: `+1415555${String(index).padStart(4, '0')}`,
    label: `Line ${index}`,
    type: 'TELEPHONY',
    voiceAgentId: null,
    voiceAgent: null,
    sipInboundConfigs: { originationUri: 'sip:example' },
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
  } as unknown as PhoneNumber
}

/**
 * A fake service holding `agents` and `numbers`, newest first, that pages and searches them like
 * the real one (search: a name contains the text). Each answer is what the service held when the
 * request arrived; it lands when the test calls `answer()` (oldest first) or `answerLast()`.
 */
function pagingService(agentCount: number, numberCount = 0) {
  const agents = Array.from({ length: agentCount }, (_, index) => agent(agentCount - 1 - index))
  const numbers = Array.from({ length: numberCount }, (_, index) => phoneNumber(numberCount - 1 - index))
  const calls: { name: IpcOperationName; input: Record<string, unknown> }[] = []
  const pending: (() => void)[] = []
  let failNext = false
  const call = (<N extends IpcOperationName>(name: N, input: IpcInput<N>): Promise<IpcOutput<N>> => {
    const { take = 20, skip = 1, search } = input as { take?: number; skip?: number; search?: string }
    calls.push({ name, input })
    const fail = failNext
    failNext = false
    const page = <T>(rows: T[], matches: (row: T) => boolean) => {
      const filtered = rows.filter(matches)
      return { rows: filtered.slice((skip - 1) * take, skip * take), total: rows.length, filtered: filtered.length }
    }
    let result: unknown
    if (name === 'agents.list') {
      const { rows, total, filtered } = page(agents, (row) => !search || row.agentName.toLowerCase().includes(search.toLowerCase()))
      result = { agents: rows, total, filtered }
    } else if (name === 'numbers.list') {
      const { rows, total, filtered } = page(numbers, (row) => !search || row.number.includes(search))
      result = { phoneNumbers: rows, total, filtered }
    }
    return new Promise((resolve, reject) => {
      pending.push(() =>
        fail || result === undefined
          ? reject(new OperatorError({ code: 'INTERNAL', message: `${name} failed` }))
          : resolve(result as IpcOutput<N>),
      )
    })
  }) as Call
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
  return {
    call,
    calls,
    agents,
    failNext() {
      failNext = true
    },
    /** The service creates an agent (newest: first) behind the UI's back, or the UI did. */
    create(row: VoiceAgent) {
      agents.unshift(row)
    },
    remove(id: string) {
      agents.splice(
        agents.findIndex((row) => row.id === id),
        1,
      )
    },
    get waiting() {
      return pending.length
    },
    /** Lands every answer, oldest first, and whatever they lead to. */
    async answer() {
      while (pending.length > 0) {
        pending.shift()!()
        await settle()
      }
    },
    /** Lands the newest answer only (a slow older one still on its way). */
    async answerLast() {
      pending.pop()!()
      await settle()
    },
  }
}

const names = (items: readonly VoiceAgent[]) => items.map((item) => item.agentName)

describe('the agents list pages', () => {
  it('shows the first page, then appends the next on "show more" until every agent is shown', async () => {
    const service = pagingService(250)
    const store = createAppStore({ call: service.call })
    void store.getState().loadAgents('')
    await service.answer()
    let agents = store.getState().agents
    expect(agents.items).toHaveLength(AGENTS_PAGE)
    expect(agents).toMatchObject({ total: 250, filtered: 250, loading: false })
    expect(hasMore(agents)).toBe(true)
    expect(moreCount(agents, AGENTS_PAGE)).toBe(100)

    const more = store.getState().loadMoreAgents()
    expect(store.getState().agents.loadingMore).toBe(true)
    // A second click while the page is on its way asks for nothing more.
    void store.getState().loadMoreAgents()
    expect(service.waiting).toBe(1)
    await service.answer()
    await more
    void store.getState().loadMoreAgents()
    await service.answer()
    agents = store.getState().agents
    expect(agents.items).toHaveLength(250)
    expect(new Set(agents.items.map((item) => item.id)).size).toBe(250)
    expect(names(agents.items).slice(0, 2)).toEqual(['Agent 0249', 'Agent 0248'])
    expect(agents.items.at(-1)!.agentName).toBe('Agent 0000')
    expect(agents.loadingMore).toBe(false)
    expect(hasMore(agents)).toBe(false)
    expect(service.calls.map((call) => call.input.skip)).toEqual([1, 2, 3])
    expect(service.calls.every((call) => call.input.take === AGENTS_PAGE)).toBe(true)

    // Nothing left: "show more" asks for nothing.
    void store.getState().loadMoreAgents()
    expect(service.waiting).toBe(0)
  })

  it('pages a search, with its own count', async () => {
    const service = pagingService(1_000)
    const store = createAppStore({ call: service.call })
    void store.getState().loadAgents('Agent 01') // Agent 0100..0199: 100 matches
    await service.answer()
    expect(store.getState().agents).toMatchObject({ total: 1_000, filtered: 100, search: 'Agent 01' })
    expect(hasMore(store.getState().agents)).toBe(false)
    void store.getState().loadAgents(' Agent 0 ') // trimmed for the service: 1,000 matches
    await service.answer()
    void store.getState().loadMoreAgents()
    await service.answer()
    expect(service.calls.at(-1)!.input).toEqual({ take: AGENTS_PAGE, skip: 2, search: 'Agent 0' })
    expect(store.getState().agents.items).toHaveLength(200)
  })

  it('drops a page of an outdated search, whether its first page or a "show more"', async () => {
    const service = pagingService(300)
    const store = createAppStore({ call: service.call })
    void store.getState().loadAgents('')
    await service.answer()
    // "Show more" of the unfiltered list is on its way when the operator types a search.
    void store.getState().loadMoreAgents()
    void store.getState().loadAgents('Agent 02')
    expect(store.getState().agents.loadingMore).toBe(false)
    await service.answerLast() // the search answers first...
    await service.answer() // ...then the outdated page 2 lands, and is dropped.
    let agents = store.getState().agents
    expect(agents.filtered).toBe(100)
    expect(agents.items).toHaveLength(100)
    expect(agents.items.every((item) => item.agentName.startsWith('Agent 02'))).toBe(true)

    // Two searches typed in a row: the slower answer to the first is dropped.
    void store.getState().loadAgents('Agent 00')
    void store.getState().loadAgents('Agent 001')
    await service.answerLast()
    await service.answer()
    agents = store.getState().agents
    expect(agents).toMatchObject({ search: 'Agent 001', filtered: 10, loading: false })
    expect(agents.items).toHaveLength(10)
  })

  it('neither repeats nor skips an agent when agents were created or deleted since the last page', async () => {
    const service = pagingService(250)
    const store = createAppStore({ call: service.call })
    void store.getState().loadAgents('')
    await service.answer()

    // Created here: the newest, first in the list and at the service.
    const created = agentFixture({ id: uuid('0c000000', 1), agentName: 'Fresh' })
    service.create(created)
    store.getState().upsertAgent(created)
    void store.getState().loadMoreAgents()
    await service.answer()
    let agents = store.getState().agents
    expect(agents.items[0]!.agentName).toBe('Fresh')
    // Page 2 now starts with the last agent page 1 showed: it is not shown twice.
    expect(agents.items).toHaveLength(200)
    expect(new Set(agents.items.map((item) => item.id)).size).toBe(200)
    expect(names(agents.items)).toEqual(names(service.agents.slice(0, 200)))
    expect(agents.filtered).toBe(251)

    // Two deleted here: the next row to show moved into page 2.
    for (const gone of [agents.items[5]!, agents.items[6]!]) {
      service.remove(gone.id)
      store.getState().removeAgent(gone.id)
    }
    expect(store.getState().agents).toMatchObject({ filtered: 249, total: 249 })
    void store.getState().loadMoreAgents()
    await service.answer()
    agents = store.getState().agents
    // Page 2 brought only two new rows: page 3 was asked for too.
    expect(service.calls.slice(-2).map((call) => call.input.skip)).toEqual([2, 3])
    expect(names(agents.items)).toEqual(names(service.agents))
    expect(hasMore(agents)).toBe(false)
  })

  it('keeps what it shows when a page fails, and says why', async () => {
    const service = pagingService(150)
    const store = createAppStore({ call: service.call })
    void store.getState().loadAgents('')
    await service.answer()
    service.failNext()
    void store.getState().loadMoreAgents()
    await service.answer()
    expect(store.getState().agents).toMatchObject({ loadingMore: false, error: 'agents.list failed' })
    expect(store.getState().agents.items).toHaveLength(100)
    void store.getState().loadMoreAgents()
    await service.answer()
    expect(store.getState().agents).toMatchObject({ error: null })
    expect(store.getState().agents.items).toHaveLength(150)
  })
})

describe('the agent picker reaches every agent', () => {
  it('searches as the operator types, with its own pages, leaving the agents list alone', async () => {
    const service = pagingService(500)
    const store = createAppStore({ call: service.call })
    void store.getState().loadAgents('Agent 04')
    await service.answer()
    void store.getState().searchAgentChoices('')
    await service.answer()
    expect(store.getState().agentChoices.items).toHaveLength(AGENT_CHOICES_PAGE)
    void store.getState().loadMoreAgentChoices()
    await service.answer()
    expect(store.getState().agentChoices.items).toHaveLength(AGENT_CHOICES_PAGE * 2)
    // The oldest agent, far beyond any first page: typed, it is there.
    void store.getState().searchAgentChoices('a')
    void store.getState().searchAgentChoices('Agent 000')
    void store.getState().searchAgentChoices('Agent 0000')
    await service.answerLast()
    await service.answer()
    expect(names(store.getState().agentChoices.items)).toEqual(['Agent 0000'])
    expect(service.calls.at(-1)!.input).toEqual({ take: AGENT_CHOICES_PAGE, skip: 1, search: 'Agent 0000' })
    expect(store.getState().agents).toMatchObject({ search: 'Agent 04', filtered: 100 })
  })

  it('forgets a deleted agent and shows a renamed one under its new name', async () => {
    const service = pagingService(3)
    const store = createAppStore({ call: service.call })
    void store.getState().searchAgentChoices('')
    await service.answer()
    const [first, second] = store.getState().agentChoices.items
    store.getState().upsertAgent({ ...first!, agentName: 'Renamed' })
    store.getState().removeAgent(second!.id)
    expect(names(store.getState().agentChoices.items)).toEqual(['Renamed', 'Agent 0000'])
    expect(store.getState().agentChoices.filtered).toBe(2)
  })
})

describe('the numbers list pages', () => {
  it('appends the next page on "show more"; the count follows registrations and deletions', async () => {
    const service = pagingService(0, 130)
    const store = createAppStore({ call: service.call })
    void store.getState().loadNumbers()
    await service.answer()
    expect(store.getState().numbers).toMatchObject({ total: 130, filtered: 130 })
    expect(store.getState().numbers.items).toHaveLength(NUMBERS_PAGE)
    void store.getState().loadMoreNumbers()
    await service.answer()
    expect(store.getState().numbers.items).toHaveLength(130)
    expect(service.calls.map((call) => [call.name, call.input.skip, call.input.take])).toEqual([
      ['numbers.list', 1, NUMBERS_PAGE],
      ['numbers.list', 2, NUMBERS_PAGE],
    ])
    store.getState().upsertNumber(phoneNumber(500))
    expect(store.getState().numbers).toMatchObject({ total: 131, filtered: 131 })
    store.getState().removeNumber(phoneNumber(500).id)
    store.getState().removeNumber(phoneNumber(1).id)
    expect(store.getState().numbers).toMatchObject({ total: 129, filtered: 129 })
    expect(store.getState().numbers.items).toHaveLength(129)
  })
})

// "No agents yet" once flashed for ~150 ms before "Loading…" when agents existed: the list said
// empty before its first request went out. A list says empty only once an answer said so.
describe('no false empty state', () => {
  it('the agents and numbers lists are loading, never empty, until their first answer lands', async () => {
    const service = pagingService(3, 0)
    const store = createAppStore({ call: service.call })
    expect(listShows(store.getState().agents)).toBe('loading') // before the first request
    expect(listShows(store.getState().numbers)).toBe('loading')
    void store.getState().loadAgents('')
    void store.getState().loadNumbers()
    expect(listShows(store.getState().agents)).toBe('loading') // on its way
    await service.answer()
    expect(listShows(store.getState().agents)).toBe('rows')
    expect(listShows(store.getState().numbers)).toBe('empty') // the service said: none

    // A search that matches nothing is empty once answered, and loading (not empty) meanwhile.
    void store.getState().loadAgents('nobody')
    expect(listShows(store.getState().agents)).not.toBe('empty')
    await service.answer()
    expect(listShows(store.getState().agents)).toBe('empty')
  })

  it('a first page that fails says so, not empty, and many lists at once each wait for their own answer', async () => {
    const service = pagingService(0, 2)
    const store = createAppStore({ call: service.call })
    service.failNext()
    void store.getState().loadAgents('')
    void store.getState().loadNumbers()
    const lists = () => [store.getState().agents, store.getState().numbers]
    expect(lists().map(listShows)).toEqual(['loading', 'loading'])
    await service.answerLast() // the numbers land first; the agents' failure is still on its way
    expect(lists().map(listShows)).toEqual(['loading', 'rows'])
    await service.answer()
    expect(listShows(store.getState().agents)).toBe('error')
  })

  it.each([
    { case: 'nothing loaded yet', list: { items: null, loaded: false, loading: false, error: null }, shows: 'loading' },
    { case: 'rows kept while reloading', list: { items: [1], loaded: true, loading: true, error: null }, shows: 'rows' },
    { case: 'an empty answer', list: { items: [], loaded: true, loading: false, error: null }, shows: 'empty' },
    { case: 'a reload on its way after an empty answer', list: { items: [], loaded: true, loading: true, error: null }, shows: 'loading' },
    { case: 'a first answer that failed', list: { items: [], loaded: false, loading: false, error: 'down' }, shows: 'error' },
  ] as const)('$case: $shows', ({ list, shows }) => {
    expect(listShows(list)).toBe(shows)
  })
})
