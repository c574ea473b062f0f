// The two commands of README.md, exactly as written there: the run command is run verbatim in
// a fresh copy of this checkout (what `git clone` would give, plus the installed node_modules,
// so `npm install` has nothing to download), and .ci/run must run the test command verbatim.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ROOT, childEnv } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

const README = readFileSync(join(ROOT, 'README.md'), 'utf8')

/** The first ```sh block after `heading` (a line of README prose). */
function commandAfter(heading: RegExp): string {
  const start = README.search(heading)
  expect(start, `README.md has no line matching ${heading}`).toBeGreaterThanOrEqual(0)
  const block = /```sh\n([\s\S]*?)```/.exec(README.slice(start))
  expect(block, `README.md has no sh block after ${heading}`).not.toBeNull()
  return block![1]!.trim()
}

const RUN_COMMAND = commandAfter(/^Run the service/m)
const TEST_COMMAND = commandAfter(/^Run the whole test suite/m)

const running: ChildProcess[] = []
afterEach(() => {
  for (const child of running.splice(0)) {
    // npm starts node under a shell: the whole process group goes.
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
  }
})

/** The tracked and untracked-but-not-ignored files of this checkout, copied as a clone would have them. */
function copyCheckout(): string {
  const target = join(makeTempDir('voicedesk-clone'), 'voicedesk')
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  expect(listed.status, listed.stderr).toBe(0)
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const source = join(ROOT, file)
    if (!existsSync(source) || statSync(source).isDirectory()) continue // deleted in the work tree, or a submodule
    mkdirSync(dirname(join(target, file)), { recursive: true })
    cpSync(source, join(target, file))
  }
  // The install is what the README's `npm install` would produce; having it spares the 90 s SQLite compile.
  // Hard links (a second and 500 MB less to write; npm finds nothing to change, so nothing is written
  // through them). A copy where the temp folder is on another file system: on CI, writing the 500 MB
  // and removing it took the cleanup past a minute and slowed the files beside it.
  const linked = spawnSync('cp', ['-al', join(ROOT, 'node_modules'), join(target, 'node_modules')], { encoding: 'utf8' })
  if (linked.status !== 0) {
    rmSync(join(target, 'node_modules'), { recursive: true, force: true })
    cpSync(join(ROOT, 'node_modules'), join(target, 'node_modules'), { recursive: true, verbatimSymlinks: true })
  }
  return target
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

function waitForBanner(child: ChildProcess, output: () => string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No banner within ${timeoutMs} ms:\n${output()}`)), timeoutMs)
    const check = () => {
      if (/^Try: .*$/m.test(output())) {
        clearTimeout(timer)
        resolve(output())
      }
    }
    child.stdout!.on('data', check)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`The run command exited (${code}) before its banner:\n${output()}`))
    })
  })
}

describe("README's two commands", () => {
  it('names the start for later times: the run command without its install', () => {
    const later = /\*\*Later starts\*\*[^`]*`([^`]+)`/.exec(README)?.[1]
    expect(RUN_COMMAND).toMatch(/^npm install && /)
    expect(later).toBe(RUN_COMMAND.replace(/^npm install && /, ''))
  })

  it('states the Node versions package.json and electron ask for', () => {
    const ours = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node
    const electrons = (
      JSON.parse(readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as { engines: { node: string } }
    ).engines.node
    const version = (range: string) => /(\d+\.\d+)/.exec(range)![1]!
    expect(README).toContain(`Run the service (Node ${version(ours)} or newer)`)
    expect(README).toMatch(new RegExp(`electron \\d+ wants Node ${version(electrons).replace('.', '\\.')} or newer, for \`npm start\``))
  })

  it('.ci/run runs exactly the test command README.md gives', () => {
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
    const commands = ci.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
    expect(commands).toContain(TEST_COMMAND)
  })

  it('the run command works verbatim on a fresh copy: a relative data folder, a key that works, the UI at /', async () => {
    expect(RUN_COMMAND).toMatch(/--data-dir \.\/data/) // the case that once crashed: a relative folder
    const port = Number(/--port (\d+)/.exec(RUN_COMMAND)?.[1])
    if (!(await portIsFree(port))) {
      // CI owns its machine; a developer may have a service on the port right now.
      if (process.env.CI) throw new Error(`Port ${port} of the README's run command is taken on CI`)
      console.warn(`Skipped: port ${port} is in use on this machine (a VoiceDesk you run?), so the README's command cannot run verbatim`)
      return
    }
    const checkout = copyCheckout()
    let output = ''
    const child = spawn('bash', ['-c', RUN_COMMAND], { cwd: checkout, env: childEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    running.push(child)
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    const banner = await waitForBanner(child, () => output, 120_000)

    expect(banner).toContain(`listening on http://127.0.0.1:${port}`)
    expect(banner).toContain(`Data folder: ${join(checkout, 'data')}\n`)
    const key = /^API key \(new[^)]*\): (vd_\S+)$/m.exec(banner)?.[1]
    expect(key, banner).toBeDefined()
    const templates = await fetch(`http://127.0.0.1:${port}/v1/voice-agents/templates`, { headers: { authorization: `Token ${key}` } })
    expect(templates.status).toBe(200)
    const root = await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' })
    expect(root.status).toBe(302)
    expect(root.headers.get('location')).toBe('/app/')
    const ui = await fetch(`http://127.0.0.1:${port}/app/`)
    expect(ui.status).toBe(200)
    expect(existsSync(join(checkout, 'data', 'voicedesk.db'))).toBe(true)

    process.kill(-child.pid!, 'SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }, 180_000)
})
