/**
 * When a failed delivery is tried again. Eight tries in all: at once, then after about
 * 5 s, 25 s, 2 min, 10 min, 52 min, 4.3 h and 21.7 h (×5 each time), some 27 hours in all.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5, 25, 125, 625, 3_125, 15_625, 78_125].map((seconds) => seconds * 1_000)

/**
 * The wait before the try after `triesSoFar` tries, or undefined when none is left. Jitter
 * takes up to a fifth off each wait, so receivers that failed together are not retried in
 * one burst, and no wait is ever longer than the schedule says (the first stays within 5 s).
 */
export function retryDelayMs(triesSoFar: number, delays: readonly number[], random: () => number = Math.random): number | undefined {
  const delay = delays[triesSoFar - 1]
  if (delay === undefined) return undefined
  return Math.round(delay * (1 - 0.2 * random()))
}
