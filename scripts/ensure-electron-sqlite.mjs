#!/usr/bin/env node
// `npm start`: builds the Electron copy of better-sqlite3 once, if it is not there yet.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
if (!existsSync(join(root, 'native', 'electron', 'better_sqlite3.node'))) {
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'build-sqlite-for-electron.mjs')], { stdio: 'inherit' })
  process.exit(result.status ?? 1)
}
