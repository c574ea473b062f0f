import { readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** A media file is written under this suffix, then renamed: a file without it is whole. */
export const PARTIAL_SUFFIX = '.partial'

/**
 * Removes the `*.partial` files a crash, a kill or a full disk left in the media folder.
 * With `olderThanMs`, younger ones are kept: another process on the same data folder may
 * be writing them right now. Answers how many were removed; never throws (a start-up chore).
 */
export function removeLeftoverPartialMedia(mediaDir: string, options: { olderThanMs?: number; now?: number } = {}): number {
  let removed = 0
  let names: string[]
  try {
    names = readdirSync(mediaDir)
  } catch {
    return 0
  }
  const now = options.now ?? Date.now()
  for (const name of names) {
    if (!name.endsWith(PARTIAL_SUFFIX)) continue
    const file = join(mediaDir, name)
    try {
      if (options.olderThanMs !== undefined && now - statSync(file).mtimeMs < options.olderThanMs) continue
      rmSync(file, { force: true })
      removed += 1
    } catch {
      // Gone meanwhile, or not ours to remove: the next start tries again.
    }
  }
  return removed
}
