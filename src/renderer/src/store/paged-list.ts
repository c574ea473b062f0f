import { messageOf } from '../api/operator-error'
/**
 * A list the service pages (agents, numbers, the agent picker's matches): page 1 of a search,
 * then further pages appended on demand, so nothing is out of reach. Newer searches win: the
 * answers to an older one (its first page or a "show more") are dropped when they land.
 */
export interface PagedList<T> {
  items: T[]
  /** All rows, whatever the search. */
  total: number
  /** Rows matching the search: `items` holds the first of them. */
  filtered: number
  search: string
  /** Page 1 of the search is on its way. */
  loading: boolean
  /** Page 1 of some search has landed: until then the list is loading, never empty. */
  loaded: boolean
  /** A further page is on its way. */
  loadingMore: boolean
  error: string | null
}

export interface PageAnswer<T> {
  items: T[]
  total: number
  filtered: number
}

export const emptyPagedList = <T>(): PagedList<T> => ({
  items: [],
  total: 0,
  filtered: 0,
  search: '',
  loading: false,
  loaded: false,
  loadingMore: false,
  error: null,
})

/** Whether the service holds matching rows the list does not show yet. */
export const hasMore = (list: Pick<PagedList<unknown>, 'items' | 'filtered'>) => list.items.length < list.filtered

/** Rows the next "show more" brings (at most a page). */
export const moreCount = (list: Pick<PagedList<unknown>, 'items' | 'filtered'>, pageSize: number) =>
  Math.max(0, Math.min(pageSize, list.filtered - list.items.length))

interface PagedListOptions<T> {
  pageSize: number
  /** Page `page` (1-based) of the rows matching `search` (already trimmed). */
  fetch(page: number, search: string): Promise<PageAnswer<T>>
  read(): PagedList<T>
  write(update: (list: PagedList<T>) => Partial<PagedList<T>>): void
}

export function pagedList<T extends { id: string }>({ pageSize, fetch, read, write }: PagedListOptions<T>) {
  /** Bumped by every new first page, so answers to an older search (or an older "more") are dropped. */
  let generation = 0

  return {
    /** Page 1 of `search` replaces the list. */
    async load(search: string = read().search): Promise<void> {
      const mine = ++generation
      write(() => ({ search, loading: true, loadingMore: false }))
      try {
        const answer = await fetch(1, search.trim())
        if (mine !== generation) return
        write(() => ({ items: answer.items, total: answer.total, filtered: answer.filtered, loading: false, loaded: true, error: null }))
      } catch (error) {
        if (mine !== generation) return
        write(() => ({ loading: false, error: messageOf(error) }))
      }
    },

    /**
     * The next page, appended. The service sorts newest first, and the list mirrors local
     * creations (prepended) and deletions, so the next row to show sits at offset items.length:
     * its page is asked for and rows already shown are skipped. When that page brought less than
     * half of what was due (rows were deleted since, so most of it is shown already), the page
     * after it is asked for too.
     */
    async more(): Promise<void> {
      const start = read()
      if (start.loading || start.loadingMore || !hasMore(start)) return
      const mine = generation
      const wanted = moreCount(start, pageSize)
      write(() => ({ loadingMore: true }))
      try {
        let page = Math.floor(start.items.length / pageSize) + 1
        for (let round = 0; round < 2; round += 1) {
          const answer = await fetch(page, start.search.trim())
          if (mine !== generation) return
          let fresh: T[] = []
          write((list) => {
            const shown = new Set(list.items.map((item) => item.id))
            fresh = answer.items.filter((item) => !shown.has(item.id))
            return { items: [...list.items, ...fresh], total: answer.total, filtered: answer.filtered, error: null }
          })
          if (round > 0 || fresh.length * 2 >= wanted || answer.items.length < pageSize || !hasMore(read())) break
          page += 1
        }
        write(() => ({ loadingMore: false }))
      } catch (error) {
        if (mine !== generation) return
        write(() => ({ loadingMore: false, error: messageOf(error) }))
      }
    },
  }
}
