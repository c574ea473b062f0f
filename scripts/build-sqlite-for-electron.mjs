#!/usr/bin/env node
// Compiles better-sqlite3 against Electron's ABI into native/electron/better_sqlite3.node,
// from a copy of the package, so Node's own build in node_modules stays as it is and the
// same checkout runs both `voicedesk serve` (Node) and the desktop app (Electron).
// Needs Electron's headers, which node-gyp downloads; machines without that access
// (our CI) build the desktop app but do not run it.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(join(root, 'package.json'))
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version
const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'))
const workDir = mkdtempSync(join(tmpdir(), 'voicedesk-sqlite-electron-'))

try {
  cpSync(sqliteDir, workDir, { recursive: true, filter: (path) => !path.includes(`${sqliteDir}/build`) })
  console.log(`Compiling better-sqlite3 for Electron ${electronVersion} (${process.arch})…`)
  // The project's own node-gyp (a devDependency), run by this very node: never a global one of another version.
  const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js')
  const result = spawnSync(
    process.execPath,
    [nodeGyp, 'rebuild', '--release', `--target=${electronVersion}`, `--arch=${process.arch}`, '--dist-url=https://electronjs.org/headers'],
    { cwd: workDir, stdio: 'inherit' },
  )
  if (result.status !== 0) process.exit(result.status ?? 1)
  const target = join(root, 'native', 'electron')
  mkdirSync(target, { recursive: true })
  cpSync(join(workDir, 'build', 'Release', 'better_sqlite3.node'), join(target, 'better_sqlite3.node'))
  console.log(`Written ${join(target, 'better_sqlite3.node')}`)
} finally {
  rmSync(workDir, { recursive: true, force: true })
}
