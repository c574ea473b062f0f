import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEveryTest } from './after-every'

const created: string[] = []

afterEveryTest(() => {
  for (const directory of created.splice(0)) rmSync(directory, { recursive: true, force: true })
})

/** A new empty folder, removed after the current test. */
export function makeTempDir(label = 'voicedesk-test'): string {
  const directory = mkdtempSync(join(tmpdir(), `${label}-`))
  created.push(directory)
  return directory
}
