import { useT } from '../i18n/use-t'
import { formatCount } from '../lib/format'
import { useAppStore } from '../store/app-context'
import { hasMore, moreCount, type PagedList } from '../store/paged-list'
import { selectLocale } from '../store/selectors'
import { Icon } from './icon'

/** The search box above a list: filters as the operator types. */
export function SearchBox({
  value,
  label,
  placeholder,
  onChange,
}: {
  value: string
  label: string
  placeholder: string
  onChange(value: string): void
}) {
  return (
    <div className="search">
      <Icon name="search" size={16} />
      <input
        className="input"
        type="search"
        value={value}
        placeholder={placeholder}
        aria-label={label}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  )
}

/**
 * "Show N more" under a paged list, while the service holds rows it does not show. It stays
 * focusable while it loads (aria-disabled, not disabled, which would drop focus); `onShowMore`
 * gets the button, to move focus to the first new row once it goes.
 */
export function ShowMoreButton({
  list,
  pageSize,
  onShowMore,
}: {
  list: PagedList<unknown>
  pageSize: number
  onShowMore(button: HTMLButtonElement): Promise<void>
}) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  if (!hasMore(list) || list.loading) return null
  return (
    <button
      type="button"
      className="button show-more"
      aria-disabled={list.loadingMore || undefined}
      aria-busy={list.loadingMore || undefined}
      onClick={(event) => void onShowMore(event.currentTarget)}
    >
      {list.loadingMore ? t('common.loading') : t('common.showMore', { n: formatCount(moreCount(list, pageSize), locale) })}
    </button>
  )
}
