import { spawn } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { delimiter, join } from 'node:path'
import pg from 'pg'

/** A throwaway PostgreSQL cluster: its superuser URL, fresh databases in it, and its end. */
export interface PostgresCluster {
  /** The `postgres` database, as the superuser. */
  url: string
  /** Creates an empty database (a fresh name when none is given) and answers its URL. */
  createDatabase(name?: string): Promise<string>
  /** Stops the server at once and removes its folder. */
  stop(): Promise<void>
}

const INSTALL_HINT =
  'install the PostgreSQL server (Debian/Ubuntu: apt-get install -y postgresql), or put a folder holding pg_ctl and initdb on PATH'
const START_TIMEOUT_MS = 30_000

/** The folder holding initdb and pg_ctl: on PATH, or Debian's /usr/lib/postgresql/<newest>/bin. */
export function findPostgresBinaries(): string | undefined {
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((folder) => folder && existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'pg_ctl')))
  if (onPath[0]) return onPath[0]
  const debian = '/usr/lib/postgresql'
  if (!existsSync(debian)) return undefined
  const versions = readdirSync(debian)
    .filter((version) => /^\d+$/.test(version) && Number(version) >= 15 && existsSync(join(debian, version, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(debian, versions[0], 'bin') : undefined
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/**
 * Runs a server binary, as the user `postgres` when this process is root (initdb and the
 * server refuse to run as root). Rejects with its output when it fails or outlives `timeoutMs`.
 */
function runBinary(binaries: string, name: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  const command = join(binaries, name)
  const asRoot = userInfo().uid === 0
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]
  return new Promise((resolve, reject) => {
    // stdio to pipes that close when the binary exits: pg_ctl's server keeps no handle on them (it logs to a file).
    const child = spawn(file, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' } })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${name} took longer than ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(new Error(`${name} could not start (${error.message}); ${INSTALL_HINT}`))
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) resolve(output)
      else reject(new Error(`${name} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${output}`))
    })
  })
}

/**
 * Starts a PostgreSQL (15 or newer) cluster of its own in a temporary folder, listening on
 * 127.0.0.1 at a free port, with fsync off (a test's data need not survive a crash). Trust
 * authentication: only local connections, and only for the test's lifetime.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const binaries = findPostgresBinaries()
  if (!binaries) throw new Error(`PostgreSQL's initdb and pg_ctl were not found; ${INSTALL_HINT}`)
  const root = mkdtempSync(join(tmpdir(), 'voicedesk-pg-'))
  const asRoot = userInfo().uid === 0
  try {
    if (asRoot) {
      const { uid, gid } = postgresUser()
      chownSync(root, uid, gid)
    }
    const data = join(root, 'data')
    await runBinary(
      binaries,
      'initdb',
      ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync'],
      root,
      60_000,
    )
    let port = 0
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort()
      const options = [
        `-p ${port}`,
        "-c listen_addresses='127.0.0.1'",
        `-c unix_socket_directories='${root}'`,
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
      ]
      try {
        await runBinary(
          binaries,
          'pg_ctl',
          ['start', '-D', data, '-w', '-t', String(START_TIMEOUT_MS / 1000), '-l', join(root, 'server.log'), '-o', options.join(' ')],
          root,
          START_TIMEOUT_MS + 5_000,
        )
        break
      } catch (error) {
        // Another process may have taken the port between the probe and the start: try another.
        if (attempt >= 3) throw new Error(`${(error as Error).message}\n${serverLog(root)}`)
      }
    }
    const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`
    let databases = 0
    let stopped = false
    return {
      url: urlOf('postgres'),
      async createDatabase(name) {
        databases += 1
        const database = name ?? `test_${process.pid}_${databases}`
        const client = new pg.Client({ connectionString: urlOf('postgres') })
        await client.connect()
        try {
          await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`)
        } finally {
          await client.end()
        }
        return urlOf(database)
      },
      async stop() {
        if (stopped) return
        stopped = true
        try {
          await runBinary(binaries, 'pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '20'], root, 25_000)
        } finally {
          await rm(root, { recursive: true, force: true })
        }
      },
    }
  } catch (error) {
    rmSync(root, { recursive: true, force: true })
    throw error
  }
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'))
  if (!line) throw new Error(`Running as root, the cluster runs as the user postgres, which does not exist; ${INSTALL_HINT}`)
  const [, , uid, gid] = line.split(':')
  return { uid: Number(uid), gid: Number(gid) }
}

function serverLog(root: string): string {
  try {
    return readFileSync(join(root, 'server.log'), 'utf8').slice(-4000)
  } catch {
    return '(no server log)'
  }
}
