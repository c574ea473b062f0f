// `npm install` on a fresh clone must leave package-lock.json as it was: it rewrites the lock's
// own copy of package.json's ranges when the two disagree (a `^1.2.16` against `1.2.16` once).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/spawn-cli'

type Ranges = Record<string, string>
interface Manifest {
  dependencies: Ranges
  devDependencies: Ranges
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, Manifest & { name?: string; version?: string }>
}

/** `npm:<package>@<version>` (a second version of a package under another name), or the version itself. */
const ALIAS = /^npm:((?:@[^/]+\/)?[^@]+)@(.+)$/

describe('package.json and package-lock.json', () => {
  it('the lock records exactly the ranges package.json asks for', () => {
    const root = lock.packages['']!
    expect(root.dependencies).toEqual(manifest.dependencies)
    expect(root.devDependencies).toEqual(manifest.devDependencies)
  })

  it('every dependency is pinned to the exact version the lock installs', () => {
    for (const ranges of [manifest.dependencies, manifest.devDependencies]) {
      for (const [name, range] of Object.entries(ranges)) {
        const installed = lock.packages[`node_modules/${name}`]
        const alias = ALIAS.exec(range)
        // An alias names its package and pins it the same way: the lock installs that package at that version.
        if (alias) expect([alias[1], alias[2]], `${name} in package.json`).toEqual([installed?.name, installed?.version])
        else expect(range, `${name} in package.json`).toBe(installed?.version)
      }
    }
  })
})
