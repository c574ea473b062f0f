/** Where browser mode keeps the UI token for the tab's lifetime (never in localStorage). */
export const UI_TOKEN_STORAGE_KEY = 'voicedesk.uiToken'

/** The parts of location, history and sessionStorage the token needs (plain objects in tests). */
export interface TokenSources {
  location: { readonly hash: string; readonly pathname: string; readonly search: string }
  history: { readonly state: unknown; replaceState(data: unknown, unused: string, url?: string | null): void }
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void }
}

/**
 * The token `voicedesk serve` prints in the UI's address (`/app/#token=...`). Taken from the
 * fragment (never sent to a server, kept out of logs), saved in sessionStorage so a reload keeps
 * working, and removed from the address bar so it is not shared by copying the URL.
 */
export function takeUiToken({ location, history, storage }: TokenSources): string | null {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''))
  const fromUrl = fragment.get('token')
  if (fromUrl) {
    storage.setItem(UI_TOKEN_STORAGE_KEY, fromUrl)
    fragment.delete('token')
    const rest = fragment.toString()
    history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`)
    return fromUrl
  }
  return storage.getItem(UI_TOKEN_STORAGE_KEY)
}

/**
 * The token in what the operator pasted to get back in: the whole `Operator UI:` link (its
 * `#token=` part), the line with its label, or the token alone. Null when there is none.
 */
export function tokenFromPasted(pasted: string): string | null {
  const text = pasted.trim()
  const inFragment = /[#&]token=([^&\s]+)/.exec(text)?.[1]
  if (inFragment !== undefined) return decodeURIComponent(inFragment)
  return /^[A-Za-z0-9_~.-]{16,}$/.test(text) ? text : null
}
