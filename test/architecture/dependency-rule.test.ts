import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The one-way rule of docs/architecture: shared <- store <- engines/jobs <- webhooks <- service <- main.
 * preload and renderer import only shared; only main and preload import electron.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')

const MAY_IMPORT: Record<string, string[]> = {
  shared: ['shared'],
  store: ['shared', 'store'],
  engines: ['shared', 'engines'], // pure: no database
  jobs: ['shared', 'store', 'engines', 'jobs'],
  webhooks: ['shared', 'store', 'engines', 'jobs', 'webhooks'],
  service: ['shared', 'store', 'engines', 'jobs', 'webhooks', 'service'],
  main: ['shared', 'store', 'engines', 'jobs', 'webhooks', 'service', 'main'],
  preload: ['shared', 'preload'],
  renderer: ['shared', 'renderer'],
}
const ELECTRON_ALLOWED = new Set(['main', 'preload'])
const NODE_FREE = new Set(['shared', 'renderer', 'preload'])

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : []
  })
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (match) => match[1] ?? match[2]!,
  )
}

const layerOf = (file: string) => relative(SRC, file).split(/[\\/]/)[0]!

describe('the dependency rule', () => {
  const files = sourceFiles(SRC)

  it('finds the layers', () => {
    expect(files.map(layerOf)).toEqual(expect.arrayContaining(['shared', 'store', 'service', 'main', 'preload', 'renderer']))
  })

  it.each(files.map((file) => [relative(SRC, file), file]))('%s imports only what its layer may', (_name, file) => {
    const layer = layerOf(file)
    const allowed = MAY_IMPORT[layer]
    expect(allowed, `unknown layer ${layer}`).toBeDefined()
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier)
        if (!target.startsWith(SRC)) continue // package.json and the like
        expect(allowed, `${specifier} crosses from ${layer} into ${layerOf(target)}`).toContain(layerOf(target))
      } else if (specifier === 'electron' || specifier.startsWith('electron/')) {
        expect(ELECTRON_ALLOWED.has(layer), `${layer} must not import electron`).toBe(true)
      } else if (specifier.startsWith('node:') && NODE_FREE.has(layer)) {
        throw new Error(`${layer} must not import ${specifier}`)
      }
    }
  })
})
