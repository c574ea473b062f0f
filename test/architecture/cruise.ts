import { cruise, type ICruiseResult } from 'dependency-cruiser'
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options'
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Cruising with the repository's own .dependency-cruiser.cjs, for the architecture tests. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const TS_CONFIG = resolve(ROOT, 'tsconfig.node.json')

export async function cruiseSrc(baseDir: string): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(resolve(ROOT, '.dependency-cruiser.cjs'))
  const { output } = await cruise(
    ['src'],
    { ...options, baseDir, tsConfig: { fileName: TS_CONFIG } },
    {},
    { tsConfig: extractTSConfig(TS_CONFIG) },
  )
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text, not a result')
  return output
}

/** `from -> to`, with an npm target shortened to its package name and a core module to `node:`. */
export function arrowsOf(result: ICruiseResult): string[] {
  return result.summary.violations.map((violation) => {
    const to = violation.to.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1] ?? violation.to
    const target = result.modules.flatMap((module) => module.dependencies).find((dependency) => dependency.resolved === violation.to)
    return `${violation.from} -> ${target?.coreModule ? `node:${to}` : to} (${violation.rule.name})`
  })
}
