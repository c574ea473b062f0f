import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/** `npm test` runs `electron-vite build` first; this checks what it produced. */
const OUT = fileURLToPath(new URL('../../out', import.meta.url))

function mainChunks(): string[] {
  const files = (directory: string): string[] =>
    readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(directory, entry.name)) : entry.name.endsWith('.js') ? [join(directory, entry.name)] : [],
    )
  return files(join(OUT, 'main'))
}

describe('electron-vite build output', () => {
  it('holds the Electron main entry, the headless CLI, a CommonJS preload and the renderer page', () => {
    expect(existsSync(join(OUT, 'main/index.js')), 'run npm run build first').toBe(true)
    expect(existsSync(join(OUT, 'main/cli.js'))).toBe(true)
    expect(readFileSync(join(OUT, 'preload/index.cjs'), 'utf8')).toMatch(/require\(["']electron["']\)/)
    const html = readFileSync(join(OUT, 'renderer/index.html'), 'utf8')
    expect(html).toContain('Content-Security-Policy')
    expect(html).toMatch(/<script type="module"[^>]+src="\.\/assets\/index-[\w-]+\.js"/)
  })

  it('keeps electron out of everything the headless CLI loads', () => {
    const importsElectron = mainChunks().filter((file) =>
      /from ["']electron["']|require\(["']electron["']\)/.test(readFileSync(file, 'utf8')),
    )
    expect(importsElectron.map((file) => file.slice(OUT.length + 1))).toEqual(['main/index.js'])
  })

  it('leaves runtime dependencies external, so the native SQLite addon is loaded from node_modules', () => {
    const bundled = mainChunks()
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n')
    expect(bundled).toMatch(/from ["']better-sqlite3["']/)
    expect(bundled).toMatch(/from ["']fastify["']/)
  })
})
