import { existsSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { archiveOf, digestOf, entriesOf, type ArchiveEntry } from '../../helpers/archive-entries'
import { everyGet, exportState, importState, seedProject, startLiveService } from '../../helpers/project-state-fixture'
import { startWebhookReceiver } from '../../helpers/webhook-receiver'

/*
 * A real archive of a seeded project, changed in hundreds of ways (seeded: the same cases every
 * run; fast-check prints the seed and the case of a failure), each PUT to /_voicedesk/state over
 * real HTTP on 127.0.0.1, on SQLite and (the postgres project) on PostgreSQL: every answer is a
 * 200 or a 400 in the envelope, the service answers on, and the project is as it was (empty,
 * or the archive's whole). Small limits (4 MiB ungzipped, 8 KiB lines, 200 rows) make the
 * limits' paths quick to reach. The webhook receiver on loopback stands for the client's server.
 */

const RUNS = 300
const LIMITS = { maxBytes: 4 * 1024 * 1024, maxLineBytes: 8 * 1024, maxRows: 200 }

type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flipGzip'; at: number[]; xor: number }
  | { kind: 'flipTar'; at: number[]; xor: number }
  | { kind: 'row'; at: number; line: string; fixDigest: boolean }
  | { kind: 'nestedGzip'; depth: number }
  | { kind: 'trailing'; bytes: number; zeros: boolean }
  | { kind: 'entries'; drop: number; duplicate: number; swap: number }

const badLines = fc.oneof(
  fc.constantFrom(
    'x',
    '',
    '{}',
    '[]',
    'null',
    '{"kind":"agent"}',
    '{"kind":"job","record":null}',
    '{"kind":"nope","record":{}}',
    '{"kind":"job","record":{"mediaFile":"../../etc/passwd"}}',
  ),
  fc.integer({ min: 1, max: 16 * 1024 }).map((length) => 'y'.repeat(length)),
  fc.integer({ min: 1, max: 400 }).map((count) => '{"kind":"attempt","record":{}}\n'.repeat(count).trimEnd()),
  fc.string({ unit: 'binary', maxLength: 200 }),
)

const mutations: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('flipGzip' as const),
    at: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
    xor: fc.integer({ min: 1, max: 255 }),
  }),
  fc.record({
    kind: fc.constant('flipTar' as const),
    at: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
    xor: fc.integer({ min: 1, max: 255 }),
  }),
  fc.record({ kind: fc.constant('row' as const), at: fc.nat(), line: badLines, fixDigest: fc.boolean() }),
  fc.record({ kind: fc.constant('nestedGzip' as const), depth: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('trailing' as const), bytes: fc.integer({ min: 1, max: 6 * 1024 * 1024 }), zeros: fc.boolean() }),
  fc.record({ kind: fc.constant('entries' as const), drop: fc.nat(), duplicate: fc.nat(), swap: fc.nat() }),
)

/** The archive changed as `mutation` says. */
async function mutate(archive: Buffer, tar: Buffer, entries: ArchiveEntry[], mutation: Mutation): Promise<Buffer> {
  switch (mutation.kind) {
    case 'truncate':
      return archive.subarray(0, mutation.at % archive.length)
    case 'flipGzip':
    case 'flipTar': {
      const bytes = Buffer.from(mutation.kind === 'flipGzip' ? archive : tar)
      for (const at of mutation.at) bytes[at % bytes.length]! ^= mutation.xor
      return mutation.kind === 'flipGzip' ? bytes : gzipSync(bytes)
    }
    case 'row': {
      // A bad line at a line boundary of rows.jsonl; the manifest's digest made right (or not).
      const rows = entries
        .find((entry) => entry.name === 'rows.jsonl')!
        .bytes.toString('utf8')
        .split('\n')
      rows.splice(mutation.at % rows.length, 0, mutation.line)
      const changed = Buffer.from(rows.join('\n'))
      return archiveOf(
        entries.map((entry) => {
          if (entry.name === 'rows.jsonl') return { name: entry.name, bytes: changed }
          if (entry.name !== 'manifest.json' || !mutation.fixDigest) return entry
          const manifest = JSON.parse(entry.bytes.toString('utf8')) as { rows: unknown }
          manifest.rows = digestOf(changed)
          return { name: entry.name, bytes: Buffer.from(JSON.stringify(manifest)) }
        }),
      )
    }
    case 'nestedGzip': {
      let bytes = archive
      for (let depth = 0; depth < mutation.depth; depth += 1) bytes = gzipSync(bytes)
      return bytes
    }
    case 'trailing':
      return gzipSync(Buffer.concat([tar, mutation.zeros ? Buffer.alloc(mutation.bytes) : Buffer.alloc(mutation.bytes, 'garbage ')]))
    case 'entries': {
      const changed = [...entries]
      changed.splice(mutation.drop % changed.length, 1)
      changed.splice(mutation.duplicate % changed.length, 0, changed[mutation.duplicate % changed.length]!)
      const at = mutation.swap % (changed.length - 1)
      ;[changed[at], changed[at + 1]] = [changed[at + 1]!, changed[at]!]
      return archiveOf(changed)
    }
  }
}

describe('PUT /_voicedesk/state, fuzzed', () => {
  it(`answers ${RUNS} changed archives with a 200 or a 400, stays up, and keeps the project whole`, { timeout: 240_000 }, async () => {
    const receiver = await startWebhookReceiver()
    const service = await startLiveService({ archiveLimits: LIMITS })
    await seedProject(service, receiver)
    const archive = Buffer.from(await exportState(service))
    const whole = await everyGet(service)
    expect((await service.http('POST', '/_voicedesk/reset')).status).toBe(200)
    const empty = await everyGet(service)
    const tar = gunzipSync(archive)
    const entries = await entriesOf(archive)
    const project = ((await (await service.http('GET', '/v1/projects/by-api-key')).json()) as { data: { id: string } }).data.id
    const counts = () => service.runtime.store.projectData.projectCounts(project)
    const emptyCounts = await counts()
    const wholeCounts = { agents: 2, phoneNumbers: 1, jobs: 2 }
    const mediaFolder = join(service.dataDir, 'media')
    const mediaFiles = () => (existsSync(mediaFolder) ? readdirSync(mediaFolder) : [])

    const seen = { accepted: 0, refused: 0 }
    const started = Date.now()
    await fc.assert(
      fc.asyncProperty(mutations, async (mutation) => {
        const response = await importState(service, await mutate(archive, tar, entries, mutation))
        const body = (await response.json()) as {
          success: boolean
          message?: string
          error?: { code: string; details: { path: string }[] }
        }
        expect([200, 400], JSON.stringify(body)).toContain(response.status)
        if (response.status === 400) {
          seen.refused += 1
          expect(body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
          expect(body.message).toEqual(expect.any(String))
          expect(await counts()).toEqual(emptyCounts)
        } else {
          // A change the archive does not notice (a tar header's padding): the project is the archive's, whole.
          seen.accepted += 1
          expect(await counts()).toMatchObject(wholeCounts)
          expect((await service.http('POST', '/_voicedesk/reset')).status).toBe(200)
        }
        if (service.runtime.store.engine === 'sqlite') expect(mediaFiles()).toEqual([])
      }),
      { seed: 22, numRuns: RUNS },
    )
    const elapsed = Date.now() - started
    console.log(
      `archive fuzz (${service.runtime.store.engine}): ${RUNS} archives in ${elapsed} ms, ${seen.refused} refused, ${seen.accepted} accepted`,
    )
    expect(seen.refused).toBeGreaterThan(RUNS / 2)

    expect((await service.http('GET', '/healthz', { key: null })).status).toBe(200)
    expect(await everyGet(service)).toEqual(empty)
    // No import folder of this process is left behind.
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`voicedesk-import-${process.pid}-`))).toEqual([])
    // The archive itself still goes in, whole.
    expect((await importState(service, archive)).status).toBe(200)
    const after = await everyGet(service)
    for (const [request, answer] of whole) expect(after.get(request), request).toBe(answer)
  })
})
