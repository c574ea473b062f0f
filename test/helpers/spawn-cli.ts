import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
// Imported first on purpose: vitest runs afterEach hooks in reverse order of registration
// ("stack"), so the hook below (registered later) kills the children before temp-dir's
// hook removes their data folders.
import './temp-dir'
import { afterEveryTest } from './after-every'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const CLI_PATH = join(ROOT, 'out', 'main', 'cli.js')

/** Fails loudly when the bundle is missing, instead of every test timing out on an empty stdout. */
export function assertCliBuilt(): void {
  if (!existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} does not exist: run "npx electron-vite build" (or "npm run build") before these tests.`)
  }
}

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
}

export interface CliProcess {
  readonly child: ChildProcess
  /** Everything written to stdout / stderr so far. */
  stdout(): string
  stderr(): string
  /** Resolves with the first match of `pattern` in stdout; rejects on timeout or early exit. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
  /** Resolves when the process exits; rejects after `timeoutMs`. */
  waitForExit(timeoutMs?: number): Promise<Exit>
}

export interface SpawnOptions {
  /** Added to the environment; `undefined` removes a variable. VOICEDESK_* are never inherited. */
  env?: Record<string, string | undefined>
  /** The working folder of the child (relative paths are resolved against it); the project root by default. */
  cwd?: string
}

const children = new Set<ChildProcess>()

afterEveryTest(() => killChildren())

/**
 * SIGKILLs every CLI child still alive and waits for them to exit. Also for a test's own
 * teardown that needs them gone first (a tmpfs with open files cannot be unmounted), including
 * children whose start timed out before the test got hold of them.
 */
export async function killChildren(): Promise<void> {
  const leftovers = [...children]
  children.clear()
  await Promise.all(
    leftovers.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve()
          child.once('exit', () => resolve())
          child.kill('SIGKILL')
        }),
    ),
  )
}

export function childEnv(extra: SpawnOptions['env'] = {}): NodeJS.ProcessEnv {
  // Files run side by side: a service's SIP line stays off unless a test asks for one (--sip-port 0), so none waits on 5060.
  const env: NodeJS.ProcessEnv = { VOICEDESK_SIP_PORT: 'off' }
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('VOICEDESK_')) env[name] = value
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  return env
}

function describeOutput(cli: CliProcess): string {
  return `\n--- stdout ---\n${cli.stdout()}\n--- stderr ---\n${cli.stderr()}`
}

/** Runs `node out/main/cli.js ...args`; the child is SIGKILLed after the test if still alive. */
export function spawnCli(args: string[], options: SpawnOptions = {}): CliProcess {
  assertCliBuilt()
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    cwd: options.cwd ?? ROOT,
    env: childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  let exit: Exit | undefined
  // 'close' rather than 'exit': by then stdout and stderr are fully read.
  const closed = new Promise<Exit>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code, signal) => {
      children.delete(child)
      exit = { code, signal }
      resolve(exit)
    })
  })
  closed.catch(() => {})

  const process_: CliProcess = {
    child,
    stdout: () => out,
    stderr: () => err,
    waitForStdout: (pattern, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = (): boolean => {
          const match = pattern.exec(out)
          if (match) {
            cleanup()
            resolve(match)
            return true
          }
          return false
        }
        const onData = () => void check()
        const onClose = () => {
          if (check()) return
          cleanup()
          reject(new Error(`CLI exited (${JSON.stringify(exit)}) before stdout matched ${pattern}${describeOutput(process_)}`))
        }
        const timer = setTimeout(() => {
          cleanup()
          reject(new Error(`Timed out after ${timeoutMs} ms waiting for stdout to match ${pattern}${describeOutput(process_)}`))
        }, timeoutMs)
        const cleanup = () => {
          clearTimeout(timer)
          child.stdout.off('data', onData)
          child.off('close', onClose)
        }
        if (check()) return
        // Listen before re-checking for exit, so no chunk or close is missed.
        child.stdout.on('data', onData)
        child.once('close', onClose)
        if (exit) onClose()
      }),
    waitForExit: (timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`Timed out after ${timeoutMs} ms waiting for the CLI to exit${describeOutput(process_)}`)),
          timeoutMs,
        )
        closed.then(
          (value) => {
            clearTimeout(timer)
            resolve(value)
          },
          (error: unknown) => {
            clearTimeout(timer)
            reject(error)
          },
        )
      }),
  }
  return process_
}

export interface CliResult extends Exit {
  stdout: string
  stderr: string
}

/** Runs a command that is expected to finish by itself (keys, --help, usage errors). */
export async function runCli(args: string[], options: SpawnOptions & { timeoutMs?: number } = {}): Promise<CliResult> {
  const cli = spawnCli(args, options)
  const exit = await cli.waitForExit(options.timeoutMs ?? 10_000)
  return { ...exit, stdout: cli.stdout(), stderr: cli.stderr() }
}

export interface RunningServe {
  cli: CliProcess
  /** The base URL from the "listening on" line, without a trailing slash. */
  url: string
}

export const LISTENING = /listening on (http:\/\/[^\s/]+)\s*$/m

/** `serve --data-dir D ...extraArgs`, resolved once the banner is out and GET /healthz answered. */
export async function startServe(
  dataDir: string,
  extraArgs: string[] = ['--port', '0'],
  options: SpawnOptions = {},
): Promise<RunningServe> {
  const cli = spawnCli(['serve', '--data-dir', dataDir, ...extraArgs], options)
  const match = await cli.waitForStdout(LISTENING)
  // The banner is written in one go; wait for its last line so assertions see all of it.
  await cli.waitForStdout(/^Try: .*$/m)
  const url = match[1]!
  const health = await fetch(`${url}/healthz`)
  await health.arrayBuffer()
  if (health.status !== 200) throw new Error(`GET ${url}/healthz answered ${health.status}`)
  return { cli, url }
}

/** A port that was free a moment ago on 127.0.0.1 (the OS picks it). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      if (address === null || typeof address === 'string') return reject(new Error('no port'))
      server.close(() => resolve(address.port))
    })
  })
}
