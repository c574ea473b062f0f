/**
 * What a list shows in place of its rows. The empty text ("No agents yet") only once an answer
 * said the list is empty: before the first request went out, and while one is on its way,
 * the list is loading, so an operator with agents never sees a false "none".
 */
export type ListShows = 'rows' | 'loading' | 'error' | 'empty'

export interface ListProgress {
  /** The rows shown now; null when none were ever loaded. */
  items: readonly unknown[] | null
  /** An answer (the first page) has landed at least once. */
  loaded: boolean
  loading: boolean
  error: string | null
}

export function listShows({ items, loaded, loading, error }: ListProgress): ListShows {
  if (items !== null && items.length > 0) return 'rows'
  if (loading || (!loaded && error === null)) return 'loading'
  return error !== null ? 'error' : 'empty'
}
