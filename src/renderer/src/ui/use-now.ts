import { useEffect, useState } from 'react'

/** The time, refreshed every `everyMs` while `active` (a countdown); no timer otherwise. */
export function useNow(active: boolean, everyMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return undefined
    // The first tick at once (not after everyMs), from a timer callback like the rest.
    const first = setTimeout(() => setNow(Date.now()), 0)
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => {
      clearTimeout(first)
      clearInterval(timer)
    }
  }, [active, everyMs])
  return now
}
