import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { VOICES } from '../../../src/shared/voices'
import { removeDeadImportLeftovers } from '../../../src/service/state/import-leftovers'
import { startTestService, waitForJobEnd } from '../../helpers/test-service'
import { makeTempDir } from '../../helpers/temp-dir'

/*
 * removeDeadImportLeftovers on a real store and media store, over a temp folder of its own
 * (not the system's, which other tests and processes share). A dead process is a real child
 * process killed with SIGKILL; a live one is this test's own parent.
 */

/** The pid of a process that existed and is gone now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  await new Promise((resolve) => child.once('spawn', resolve))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
  return child.pid!
}

function leftover(tempDir: string, kind: 'import' | 'export', pid: number, files: Record<string, string>, suffix = 'AbC123'): string {
  const folder = join(tempDir, `voicedesk-${kind}-${pid}-${suffix}`)
  mkdirSync(folder)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text)
  return folder
}

describe('what dead imports left', () => {
  it('is removed at start: their media no job names and their folders; live processes’ and other stores’ stay', async () => {
    const service = await startTestService()
    const { media, store } = service.runtime
    // A media file a job names (a TTS job's audio), and two no job names.
    const created = await service.call('POST', '/v1/jobs/text-to-speech', {
      body: { voiceId: VOICES[0]!.id, text: 'Kept: a job names me' },
    })
    const jobId = created.json<{ data: { id: string } }>().data.id
    await waitForJobEnd(service, jobId)
    const named = (await store.jobs.findById(jobId))!.mediaFile!
    const orphanA = `${'a'.repeat(32)}.wav`
    const orphanB = `${'b'.repeat(32)}.wav`
    await media.put(orphanA, Buffer.alloc(1000, 1))
    await media.put(orphanB, Buffer.alloc(500, 2))
    const livesElsewhere = `${'c'.repeat(32)}.wav`
    await media.put(livesElsewhere, Buffer.alloc(10, 3))

    const storage = 'the store under test'
    const tempDir = makeTempDir()
    const dead = await deadPid()
    const deadImport = leftover(tempDir, 'import', dead, {
      'owner.json': JSON.stringify({ storage }),
      'media-written': `${orphanA}\n${named}\n${orphanB}\n${'d'.repeat(32)}.wav\n`,
      'rows.jsonl': 'x'.repeat(300),
    })
    const deadExport = leftover(tempDir, 'export', dead, { 'copy.db': 'y'.repeat(200) })
    const otherStore = leftover(
      tempDir,
      'import',
      dead,
      { 'owner.json': JSON.stringify({ storage: 'another data folder' }), 'media-written': `${livesElsewhere}\n` },
      'XyZ789',
    )
    const live = leftover(tempDir, 'import', process.ppid, {
      'owner.json': JSON.stringify({ storage }),
      'media-written': `${livesElsewhere}\n`,
    })
    const ours = leftover(tempDir, 'import', process.pid, {
      'owner.json': JSON.stringify({ storage }),
      'media-written': `${livesElsewhere}\n`,
    })
    const unrelated = join(tempDir, 'voicedesk-journal')
    mkdirSync(unrelated)

    const removed = await removeDeadImportLeftovers({ storage, media, jobs: store.jobs, tempDir })
    expect(removed).toEqual({
      folders: 2,
      folderBytes: 300 + 200 + JSON.stringify({ storage }).length + 4 * 37,
      media: 2,
      mediaBytes: 1500,
    })
    expect(await media.size(orphanA)).toBeUndefined()
    expect(await media.size(orphanB)).toBeUndefined()
    expect(await media.size(named)).toBeGreaterThan(0)
    expect(await media.size(livesElsewhere)).toBe(10)
    expect(existsSync(deadImport)).toBe(false)
    expect(existsSync(deadExport)).toBe(false)
    for (const kept of [otherStore, live, ours, unrelated]) expect(existsSync(kept), kept).toBe(true)
    // Said once: a second start finds nothing more.
    expect(await removeDeadImportLeftovers({ storage, media, jobs: store.jobs, tempDir })).toEqual({
      folders: 0,
      folderBytes: 0,
      media: 0,
      mediaBytes: 0,
    })
  })
})
