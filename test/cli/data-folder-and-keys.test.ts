// The data folder and the keys as a new user meets them, through the real CLI: relative paths,
// folders it cannot use, a database gone missing, private file modes, weak VOICEDESK_API_KEYs,
// and `keys create` saying where the key went and whether anything serves it.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { LISTENING, assertCliBuilt, runCli, spawnCli, startServe, type RunningServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

beforeAll(() => {
  assertCliBuilt()
})

const mounts: string[] = []
afterEach(() => {
  for (const mount of mounts.splice(0)) spawnSync('umount', ['-l', mount])
})

async function stop(server: RunningServe): Promise<void> {
  server.cli.child.kill('SIGTERM')
  expect((await server.cli.waitForExit()).code, server.cli.stderr()).toBe(0)
}

function modeOf(path: string): string {
  return (statSync(path).mode & 0o777).toString(8)
}

/** One line on stderr, exit 2, nothing started. */
function expectOneLineRefusal(result: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(result.code, result.stderr).toBe(2)
  expect(result.stderr).toMatch(message)
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1)
  expect(result.stdout).not.toMatch(/listening on/)
}

/** A read-only filesystem made by the test (root can write through any mode bits, so modes would prove nothing). */
function readOnlyMount(): string | undefined {
  const target = makeTempDir('voicedesk-readonly')
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,ro', 'tmpfs', target], { encoding: 'utf8' })
  if (mounted.status !== 0) {
    console.warn(`Skipped the read-only folder case: this machine does not let the tests mount a filesystem (${mounted.stderr.trim()})`)
    return undefined
  }
  mounts.push(target)
  return target
}

describe('where the data goes', () => {
  it('resolves a relative --data-dir and VOICEDESK_DATA_DIR against the working folder, once', async () => {
    const cwd = makeTempDir()
    const byFlag = await startServe('./flagged', ['--port', '0'], { cwd })
    expect(byFlag.cli.stdout()).toContain(`Data folder: ${join(cwd, 'flagged')}\n`)
    await stop(byFlag)

    const cli = await startServeWithEnvDataDir(cwd, './from-env')
    expect(cli.cli.stdout()).toContain(`Data folder: ${join(cwd, 'from-env')}\n`)
    expect(statSync(join(cwd, 'from-env', 'voicedesk.db')).isFile()).toBe(true)
    await stop(cli)
  })

  it('refuses a data folder that is a file, naming the flag and the path', async () => {
    const cwd = makeTempDir()
    writeFileSync(join(cwd, 'notes.txt'), 'hello')
    const result = await runCli(['serve', '--port', '0', '--data-dir', 'notes.txt'], { cwd })
    expectOneLineRefusal(
      result,
      new RegExp(`^voicedesk: --data-dir notes\\.txt \\(${join(cwd, 'notes.txt')}\\): it is a file, not a folder`),
    )
  })

  it('refuses a folder on a read-only filesystem with the real reason', async () => {
    const target = readOnlyMount()
    if (!target) return
    const result = await runCli(['serve', '--port', '0', '--data-dir', join(target, 'voicedesk')])
    expectOneLineRefusal(
      result,
      /^voicedesk: --data-dir .+: VoiceDesk cannot write there: it is on a read-only filesystem; choose a folder you can write/,
    )
    const keys = await runCli(['keys', 'list', '--data-dir', target])
    expectOneLineRefusal(keys, /read-only filesystem/)
  })
})

async function startServeWithEnvDataDir(cwd: string, dataDir: string): Promise<RunningServe> {
  const cli = spawnCli(['serve', '--port', '0'], { cwd, env: { VOICEDESK_DATA_DIR: dataDir } })
  const match = await cli.waitForStdout(LISTENING)
  await cli.waitForStdout(/^Try: .*$/m)
  return { cli, url: match[1]! }
}

describe('a database gone missing', () => {
  async function folderWithState(): Promise<string> {
    const dataDir = makeTempDir()
    const server = await startServe(dataDir)
    await stop(server)
    return dataDir
  }

  it('is refused when the secret key stayed, and --force-new starts over', async () => {
    const dataDir = await folderWithState()
    rmSync(join(dataDir, 'voicedesk.db'))
    rmSync(join(dataDir, 'voicedesk.db-wal'), { force: true })
    rmSync(join(dataDir, 'voicedesk.db-shm'), { force: true })
    const refused = await runCli(['serve', '--port', '0', '--data-dir', dataDir])
    expectOneLineRefusal(
      refused,
      /voicedesk\.db is missing, but the folder still holds its secret key \(secret\.key\)\. Put the database back .*--force-new/,
    )

    const fresh = await startServe(dataDir, ['--port', '0', '--force-new'])
    expect(fresh.cli.stdout()).toMatch(/^API key \(new/m)
    await stop(fresh)
    // Once a database exists again, no flag is needed.
    await stop(await startServe(dataDir))
  })

  it('is refused when the database is empty and media files stayed', async () => {
    const dataDir = await folderWithState()
    rmSync(join(dataDir, 'secret.key'))
    writeFileSync(join(dataDir, 'media', 'a.wav'), 'RIFF')
    rmSync(join(dataDir, 'voicedesk.db-wal'), { force: true })
    truncateSync(join(dataDir, 'voicedesk.db'), 0)
    const refused = await runCli(['keys', 'list', '--data-dir', dataDir])
    expectOneLineRefusal(refused, /voicedesk\.db is empty, but the folder still holds 1 media file\./)
  })
})

describe('file modes', () => {
  it('makes a new data folder private: folders 0700; database, WAL, SHM, key and job audio 0600', async () => {
    const dataDir = join(makeTempDir(), 'fresh')
    const key = 'mode_test_0123456789abcdef'
    const server = await startServe(dataDir, ['--port', '0'], { env: { VOICEDESK_API_KEY: key } })
    expect(modeOf(dataDir)).toBe('700')
    expect(modeOf(join(dataDir, 'media'))).toBe('700')
    for (const file of ['voicedesk.db', 'voicedesk.db-wal', 'voicedesk.db-shm', 'secret.key'])
      expect(modeOf(join(dataDir, file)), file).toBe('600')

    const headers = { authorization: `Token ${key}`, 'content-type': 'application/json' }
    const voices = (await (await fetch(`${server.url}/v1/voices`, { headers })).json()) as { data: { id: string }[] }
    const created = await fetch(`${server.url}/v1/jobs/text-to-speech`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ voiceId: voices.data[0]!.id, text: 'Private audio.' }),
    })
    const jobId = ((await created.json()) as { data: { id: string } }).data.id
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${server.url}/v1/jobs?jobId=${jobId}`, { headers })).json()) as { data: { status: string } }).data.status,
        { timeout: 20_000 },
      )
      .toBe('COMPLETED')
    const audio = readdirSync(join(dataDir, 'media')).filter((name) => name.endsWith('.wav'))
    expect(audio).toHaveLength(1)
    expect(modeOf(join(dataDir, 'media', audio[0]!))).toBe('600')
    await stop(server)
  })

  it('fixes the modes of a folder made with a looser umask', async () => {
    const dataDir = makeTempDir()
    await stop(await startServe(dataDir))
    chmodSync(dataDir, 0o755)
    chmodSync(join(dataDir, 'media'), 0o755)
    chmodSync(join(dataDir, 'voicedesk.db'), 0o644)
    chmodSync(join(dataDir, 'secret.key'), 0o644)
    writeFileSync(join(dataDir, 'media', 'old.wav'), 'RIFF', { mode: 0o644 })
    const server = await startServe(dataDir)
    expect(modeOf(dataDir)).toBe('700')
    expect(modeOf(join(dataDir, 'media'))).toBe('700')
    expect(modeOf(join(dataDir, 'media', 'old.wav'))).toBe('600')
    expect(modeOf(join(dataDir, 'voicedesk.db'))).toBe('600')
    expect(modeOf(join(dataDir, 'secret.key'))).toBe('600')
    await stop(server)
  })
})

describe('keys', () => {
  it.each([
    { key: 'short-key', message: /^voicedesk: VOICEDESK_API_KEY is 9 characters long; a key needs at least 20/ },
    { key: 'has space in it, twenty plus', message: /^voicedesk: VOICEDESK_API_KEY holds " "; a key may hold only A-Z, a-z, 0-9, _ and -/ },
    { key: 'ümlaut-ümlaut-ümlaut-ümlaut', message: /^voicedesk: VOICEDESK_API_KEY holds "ü"/ },
  ])('refuses a weak VOICEDESK_API_KEY ($key) at start, in one line', async ({ key, message }) => {
    const dataDir = makeTempDir()
    const result = await runCli(['serve', '--port', '0', '--data-dir', dataDir], { env: { VOICEDESK_API_KEY: key } })
    expectOneLineRefusal(result, message)
  })

  it('remembers a VOICEDESK_API_KEY as such in keys list, by a short hint', async () => {
    const dataDir = makeTempDir()
    const key = 'ci_0123456789abcdefghij'
    await stop(await startServe(dataDir, ['--port', '0'], { env: { VOICEDESK_API_KEY: key } }))
    const listed = await runCli(['keys', 'list', '--data-dir', dataDir])
    const line = listed.stdout.split('\n').find((entry) => entry.includes('VOICEDESK_API_KEY'))
    expect(line, listed.stdout).toMatch(/ ci_01…ij {2}VOICEDESK_API_KEY .*\(set by VOICEDESK_API_KEY\)$/)
    expect(listed.stdout).not.toContain(key)
  })

  it('keys create names the data folder it wrote to and warns when no service uses it', async () => {
    const cwd = makeTempDir()
    const alone = await runCli(['keys', 'create', '--data-dir', './somewhere'], { cwd })
    expect(alone.code, alone.stderr).toBe(0)
    expect(alone.stdout).toContain(`in the data folder ${join(cwd, 'somewhere')}.`)
    expect(alone.stderr).toMatch(
      /^Warning: no VoiceDesk service is using --data-dir \.\/somewhere \(.*\) now; if yours runs on another folder, pass that folder with --data-dir/m,
    )
    expect(alone.stdout).toContain(`It works once a service runs with --data-dir ${join(cwd, 'somewhere')}`)

    const server = await startServe(join(cwd, 'somewhere'))
    const served = await runCli(['keys', 'create', '--data-dir', './somewhere'], { cwd })
    expect(served.stdout).toContain(`It works at once on the service using this folder (${server.url}).`)
    expect(served.stderr).not.toMatch(/^Warning/m)
    await stop(server)

    // A service killed without a chance to tidy up no longer counts.
    const killed = await startServe(join(cwd, 'somewhere'))
    killed.cli.child.kill('SIGKILL')
    await killed.cli.waitForExit()
    const after = await runCli(['keys', 'create', '--data-dir', './somewhere'], { cwd })
    expect(after.stderr).toMatch(/^Warning: no VoiceDesk service is using --data-dir/m)
  })
})

// A folder with a sub-folder only the test made must still count as new.
describe('a new folder', () => {
  it('with unrelated content starts without --force-new', async () => {
    const dataDir = makeTempDir()
    mkdirSync(join(dataDir, 'notes'))
    await stop(await startServe(dataDir))
  })
})
