/**
 * Snapshots as the service takes them, archive included, at SNAPSHOT_JOBS jobs (100,000) on
 * SQLite: ProjectState.takeSnapshot (the rows read from one point in time, sealed secrets
 * kept, written as rows.jsonl into a .tar.gz with every media file) and restoreSnapshot (the
 * archive read, checked, and the rows replaced in one transaction). The store's own part
 * (export and replace without an archive) is bench/snapshot.ts. Every hundredth job has a
 * 32 KiB media file. Runnable alone: `npx tsx bench/run.ts state-archive`.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { ProjectState } from '../src/service/state/project-state'
import { FolderSnapshotShelf } from '../src/service/state/snapshot-shelf'
import { FileMediaStore } from '../src/store/file-media-store'
import type { ProjectRow } from '../src/store/records'
import { SecretBox } from '../src/store/secret-box'
import { openSqliteStore } from '../src/store/sqlite/store'
import { SNAPSHOT_JOBS, generatedRows } from './snapshot'

const PROJECT = 'project-bench'
const OWNER = { projectId: PROJECT, apiKeyId: 'key-bench', userId: 'user-bench' }
const MEDIA_EVERY = 100

const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2))

/** bench/snapshot.ts's rows with media names the service gives (32 characters), every hundredth job's. */
function* rowsWithMedia(names: string[]): Generator<ProjectRow> {
  let jobs = 0
  for (const row of generatedRows(SNAPSHOT_JOBS)) {
    if (row.kind === 'job') {
      const name = jobs % MEDIA_EVERY === 0 ? `${randomBytes(24).toString('base64url')}.wav` : null
      if (name) names.push(name)
      jobs += 1
      yield { kind: 'job', record: { ...row.record, mediaFile: name } }
    } else yield row
  }
}

export async function benchStateArchive(): Promise<object> {
  const folder = mkdtempSync(join(tmpdir(), 'voicedesk-bench-archive-'))
  const loadAtStart = loadavg().map((load) => Number(load.toFixed(2)))
  const store = openSqliteStore(join(folder, 'voicedesk.db'))
  try {
    const now = new Date().toISOString()
    await store.accounts.insertProject({ id: PROJECT, name: 'Bench', isDefault: true, createdAt: now })
    await store.accounts.insertLocalUser(OWNER.userId, 'Local', now)
    await store.accounts.insertKey({
      id: OWNER.apiKeyId,
      projectId: PROJECT,
      userId: OWNER.userId,
      name: 'bench',
      keyHash: randomBytes(16).toString('hex'),
      keyHint: 'vd_…',
      createdAt: now,
    })
    mkdirSync(join(folder, 'media'))
    const media = new FileMediaStore(join(folder, 'media'))
    const names: string[] = []
    const seeded = await store.projectData.replaceProject(PROJECT, rowsWithMedia(names))
    const bytes = randomBytes(32 * 1024)
    for (const name of names) await media.put(name, bytes)
    const state = new ProjectState({
      store,
      media,
      storage: folder,
      secrets: new SecretBox(randomBytes(32)),
      shelf: new FolderSnapshotShelf(join(folder, 'snapshots')),
      version: 'bench',
      now: () => new Date(),
    })
    let since = performance.now()
    const snapshot = await state.takeSnapshot(PROJECT, 'bench')
    const takeSeconds = seconds(since)
    since = performance.now()
    const restored = await state.restoreSnapshot(PROJECT, 'bench', OWNER)
    const restoreSeconds = seconds(since)
    if (JSON.stringify(restored.counts) !== JSON.stringify(seeded.counts))
      throw new Error(`restore wrote ${JSON.stringify(restored.counts)}, not ${JSON.stringify(seeded.counts)}`)
    const result = {
      method: `${SNAPSHOT_JOBS} jobs as bench/snapshot.ts makes them, every ${MEDIA_EVERY}th with a 32 KiB media file, on SQLite; take = ProjectState.takeSnapshot (export, archive written to the data folder); restore = restoreSnapshot (archive read and checked, one replaceProject)`,
      machine: {
        cores: cpus().length,
        loadAverageAtStart: loadAtStart,
        loadAverageAtEnd: loadavg().map((load) => Number(load.toFixed(2))),
      },
      counts: seeded.counts,
      mediaFiles: names.length,
      archiveMb: Number((snapshot.sizeBytes / 1024 / 1024).toFixed(1)),
      takeSnapshotSeconds: takeSeconds,
      restoreSnapshotSeconds: restoreSeconds,
    }
    console.log('state-archive', JSON.stringify(result))
    return result
  } finally {
    await store.close()
    rmSync(folder, { recursive: true, force: true })
  }
}
