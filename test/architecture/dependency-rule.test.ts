import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { arrowsOf, cruiseSrc, ROOT } from './cruise'

/**
 * The one-way rule of docs/architecture.md, as dependency-cruiser checks it with the repository's
 * own .dependency-cruiser.cjs: shared <- store <- workers <- engines/jobs/conversations <- webhooks
 * <- service <- main; preload and renderer import only shared; each npm package only where a rule
 * lets it in; and the cuts of the plan: webhooks never imports jobs, main never store, service/ops
 * never service/http, no cycles. The rule set is an allow-list, so it fails closed: a dependency
 * no rule classifies is an error. Each rule has a crossing in fixtures/crossings that it must catch.
 */
const FIXTURE = resolve(ROOT, 'test/architecture/fixtures/crossings')

describe('the dependency rule', () => {
  it('holds for src/, and the cruise saw the whole tree (every layer, packages and built-ins resolved)', async () => {
    const result = await cruiseSrc(ROOT)
    expect(arrowsOf(result)).toEqual([])
    // A config that resolves nothing or cruises nothing must not pass: today 435 modules, 1,861 dependencies.
    expect(result.summary.totalCruised).toBeGreaterThan(150)
    expect(result.summary.totalDependenciesCruised).toBeGreaterThan(500)
    const layers = new Set(result.modules.map((module) => module.source.split('/')[1]))
    expect([...layers]).toEqual(
      expect.arrayContaining([
        'shared',
        'store',
        'workers',
        'engines',
        'jobs',
        'conversations',
        'webhooks',
        'service',
        'main',
        'preload',
        'renderer',
      ]),
    )
    const arrows = result.modules.flatMap((module) => module.dependencies.map((dependency) => ({ from: module.source, ...dependency })))
    const seen = (from: RegExp, to: RegExp) => arrows.some((arrow) => from.test(arrow.from) && to.test(arrow.resolved))
    expect(seen(/^src\/store\/sqlite\//, /node_modules\/better-sqlite3\//), 'store/sqlite -> better-sqlite3').toBe(true)
    expect(seen(/^src\/store\/postgres\//, /node_modules\/pg\//), 'store/postgres -> pg').toBe(true)
    expect(seen(/^src\/service\/http\//, /node_modules\/fastify\//), 'http -> fastify').toBe(true)
    expect(seen(/^src\/renderer\//, /node_modules\/react\//), 'renderer -> react').toBe(true)
    expect(seen(/^src\/preload\//, /node_modules\/electron\//), 'preload -> electron').toBe(true)
    expect(
      arrows.some((arrow) => arrow.from.startsWith('src/store/') && arrow.coreModule),
      'store -> a node: built-in',
    ).toBe(true)
  })

  it('catches every kind of crossing, and every import it cannot classify (fixtures/crossings)', async () => {
    const result = await cruiseSrc(FIXTURE)
    expect(arrowsOf(result).sort()).toEqual([
      'src/engines/cycle-first.ts -> src/engines/cycle-second.ts (no-circular)', // a cycle, closed by a type-only import
      'src/jobs/requires-service.ts -> src/service/runtime-module.ts (not-in-allowed)', // require()
      'src/main/reads-key-file.ts -> src/store/database.ts (not-in-allowed)', // main never imports store
      'src/preload/reads-files.ts -> node:fs (not-in-allowed)', // a Node built-in outside the Node layers
      'src/renderer/imports-fastify.ts -> fastify (not-in-allowed)', // a package outside its layer
      'src/renderer/loads-store-lazily.ts -> src/store/database.ts (not-in-allowed)', // import()
      'src/renderer/src/store/app-store.ts -> src/renderer/src/store/clock-slice.ts (no-circular-at-run-time)', // a slice cycle of values
      'src/service/names-an-engine.ts -> src/store/sqlite/store.ts (engine-behind-the-port)', // past the storage port
      'src/service/ops/answers-with-http.ts -> src/service/http/reply.ts (ops-without-http)', // a use case shaping an HTTP reply
      'src/service/unclassified-package.ts -> fast-check (not-in-allowed)', // a package no rule names
      'src/shared/re-exports-store.ts -> src/store/database.ts (not-in-allowed)', // export … from
      'src/shared/side-effect-import.ts -> src/store/database.ts (not-in-allowed)', // import '…'
      'src/shared/type-only-import.ts -> src/store/database.ts (not-in-allowed)', // import type
      'src/store/driver-outside-its-engine.ts -> pg (not-in-allowed)', // a driver outside its engine's folder
      'src/stray/unclassified-folder.ts -> src/shared/contract.ts (not-in-allowed)', // a folder no rule names
      'src/webhooks/reads-job-records.ts -> src/jobs/job-record.ts (not-in-allowed)', // webhooks never imports jobs
    ])
    // The fixture's allowed arrows were seen and let through: shared -> zod, and the renderer store's type-only slice cycle.
    expect(result.modules.find((module) => module.source === 'src/shared/contract.ts')?.dependencies).toHaveLength(1)
    const sliceToStore = result.modules.find((module) => module.source === 'src/renderer/src/store/counter-slice.ts')?.dependencies[0]
    expect(sliceToStore).toMatchObject({ resolved: 'src/renderer/src/store/app-store.ts', circular: true, valid: true })
  })
})
