#!/usr/bin/env node
// Entry of `voicedesk` and `npm run serve`: runs the bundled CLI (out/main/cli.js). In a source
// checkout it first rebuilds when src/ or resources/ changed since the last build, so a pulled
// change is never served stale; an installed build has no src/ and starts at once.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const built = join(root, 'out', 'main', 'cli.js')

function newestChange(directory) {
  let newest = 0
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs)
  }
  return newest
}

function isStale() {
  if (!existsSync(built)) return true
  if (!existsSync(join(root, 'src'))) return false
  const builtAt = statSync(built).mtimeMs
  return ['src', 'resources', 'package.json'].some((name) => {
    const path = join(root, name)
    return existsSync(path) && (statSync(path).isDirectory() ? newestChange(path) : statSync(path).mtimeMs) > builtAt
  })
}

if (isStale()) {
  process.stderr.write('voicedesk: building (sources changed since the last build)…\n')
  const build = spawnSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['electron-vite', 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

await import(pathToFileURL(built).href)
