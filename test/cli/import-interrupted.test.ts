import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createWriteStream, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { archiveOf, digestOf, rowsBomb, withRows } from '../helpers/archive-entries'
import { runCli, spawnCli, startServe, type RunningServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

/*
 * The built CLI (out/main/cli.js: `npx electron-vite build` first) importing archives no
 * VoiceDesk wrote, and killed with SIGKILL in the middle of an import. The archive reaches the
 * import through a FIFO the test writes, so "the middle" is a place the test chooses, not a
 * moment it guesses.
 */

const KEY = 'vd_import_interrupted_key_0123456789'
const MEDIA_FILES = 40

/** A state archive of `MEDIA_FILES` jobs, each naming a media file of random bytes. */
async function archiveWithMedia(): Promise<Buffer> {
  const names = Array.from({ length: MEDIA_FILES }, (_, index) => `${String(index).padStart(32, 'm')}.wav`)
  const rows = Buffer.from(
    names.map((name, index) => JSON.stringify({ kind: 'job', record: { id: `job-${index}`, mediaFile: name } }) + '\n').join(''),
  )
  const settings = Buffer.from(JSON.stringify({ settings: {}, secretsRemoved: [] }))
  const manifest = {
    format: 'voicedesk-state',
    version: 1,
    exportedAt: '2026-11-27T10:00:00.000Z',
    service: { name: 'voicedesk', version: 'test' },
    engine: 'sqlite',
    schema: 1,
    counts: { agents: 0, phoneNumbers: 0, jobs: MEDIA_FILES, deliveries: 0, attempts: 0 },
    sealed: false,
    keyCheck: null,
    secretCount: 0,
    rows: digestOf(rows),
    settings: digestOf(settings),
  }
  const media = names.map((name) => ({ name: `media/${name}`, bytes: randomBytes(64 * 1024) }))
  return archiveOf([
    { name: 'manifest.json', bytes: Buffer.from(JSON.stringify(manifest)) },
    { name: 'rows.jsonl', bytes: rows },
    { name: 'settings.json', bytes: settings },
    ...media,
  ])
}

const mediaIn = (dataDir: string) => (existsSync(join(dataDir, 'media')) ? readdirSync(join(dataDir, 'media')) : [])
const importFoldersOf = (pid: number) => readdirSync(tmpdir()).filter((name) => name.startsWith(`voicedesk-import-${pid}-`))

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function stop(serve: RunningServe): Promise<void> {
  serve.cli.child.kill('SIGTERM')
  await serve.cli.waitForExit(15_000)
}

describe('voicedesk import of an archive it never wrote', () => {
  it(
    'is a one-line error and exit 2 for a bad row past 64 KiB and for a gzip bomb; the data folder is as it was',
    { timeout: 90_000 },
    async () => {
      const dataDir = makeTempDir()
      const files = makeTempDir()
      const archive = await archiveWithMedia()
      const badRow = join(files, 'bad-row.tar.gz')
      const filler = Array.from({ length: 3_000 }, () => `{"kind":"attempt","record":{"id":"${randomBytes(24).toString('hex')}"}}\n`).join(
        '',
      )
      writeFileSync(
        badRow,
        await withRows(
          archive,
          (rows) => filler + 'not JSON\n' + filler + rows,
          (counts) => ({ ...counts, attempts: 6_000 }),
        ),
      )
      const bomb = join(files, 'bomb.tar.gz')
      writeFileSync(bomb, await rowsBomb(archive, 600 * 1024 * 1024))

      for (const [file, message] of [
        [badRow, /^voicedesk: .*bad-row\.tar\.gz: rows\.jsonl line 3001 is not JSON: the archive was changed or damaged\n$/],
        [bomb, /^voicedesk: .*bomb\.tar\.gz: rows\.jsonl line 1 is longer than 16 MiB, the longest row an import reads\n$/],
      ] as const) {
        const result = await runCli(['import', file, '--data-dir', dataDir], { timeoutMs: 30_000 })
        expect(result.stderr).toMatch(message)
        expect(result.code).toBe(2)
        expect(mediaIn(dataDir)).toEqual([])
      }
      // The same archive as a seed stops the start with one line naming the file; the service never answers.
      const seeded = spawnCli(['serve', '--port', '0', '--data-dir', makeTempDir(), '--seed', bomb], { env: { VOICEDESK_API_KEY: KEY } })
      expect((await seeded.waitForExit(30_000)).code).not.toBe(0)
      expect(seeded.stderr()).toContain(`Seed ${bomb}: rows.jsonl line 1 is longer than 16 MiB`)
    },
  )
})

describe('an import killed with SIGKILL', () => {
  it(
    'leaves media no job names and its temp folder, which the next start removes (not while it lives), saying so once',
    { timeout: 120_000 },
    async () => {
      const dataDir = makeTempDir()
      const env = { env: { VOICEDESK_API_KEY: KEY } }
      // The data folder exists and has its key before the import.
      expect((await runCli(['keys', 'list', '--data-dir', dataDir], env)).code).toBe(0)
      const fifo = join(makeTempDir(), 'archive.tar.gz')
      execFileSync('mkfifo', [fifo])
      const archive = await archiveWithMedia()

      const importing = spawnCli(['import', fifo, '--data-dir', dataDir], env)
      const writer = createWriteStream(fifo)
      writer.on('error', () => undefined) // EPIPE once the reader is killed
      writer.write(archive.subarray(0, Math.floor(archive.length * 0.6))) // and no more: the import waits mid-media
      await until(() => mediaIn(dataDir).filter((name) => name.endsWith('.wav')).length >= 10, 'the import wrote 10 media files')
      const pid = importing.child.pid!
      // Should the test fail before the start that removes it: the folder is not left in the system's temp folder.
      onTestFinished(() => {
        for (const name of importFoldersOf(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true })
      })
      const [folder] = importFoldersOf(pid)
      expect(folder).toBeDefined()
      expect(readFileSync(join(tmpdir(), folder!, 'media-written'), 'utf8').split('\n').length).toBeGreaterThan(10)

      // A service started on the folder meanwhile leaves the live import's files alone.
      const meanwhile = await startServe(dataDir, ['--port', '0'], env)
      expect(meanwhile.cli.stderr()).not.toMatch(/interrupted imports/)
      expect(importFoldersOf(pid)).toEqual([folder])
      await stop(meanwhile)

      importing.child.kill('SIGKILL')
      expect((await importing.waitForExit(10_000)).signal).toBe('SIGKILL')
      writer.destroy()
      const left = mediaIn(dataDir).filter((name) => name.endsWith('.wav'))
      expect(left.length).toBeGreaterThanOrEqual(10)

      const next = await startServe(dataDir, ['--port', '0'], env)
      const said =
        next.cli
          .stderr()
          .match(
            /removed what 1 interrupted imports, restores or exports left: (\d+) media files no job names \(([\d.]+ (?:KiB|MiB))\)/g,
          ) ?? []
      expect(said).toHaveLength(1)
      expect(said[0]).toContain(`: ${left.length} media files`)
      expect(mediaIn(dataDir).filter((name) => name.endsWith('.wav'))).toEqual([])
      expect(importFoldersOf(pid)).toEqual([])
      await stop(next)
      // Said once: the start after finds nothing more.
      const again = await startServe(dataDir, ['--port', '0'], env)
      expect(again.cli.stderr()).not.toMatch(/interrupted imports/)
    },
  )
})
