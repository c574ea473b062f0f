// The real CLI (out/main/cli.js, built by `npm run build`) as a child process, over real HTTP
// on 127.0.0.1: start-up banner, auth, keys, usage errors, port handling and clean shutdown.
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { connect, createServer, type AddressInfo, type Server } from 'node:net'
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { LISTENING, ROOT, assertCliBuilt, findFreePort, runCli, spawnCli, startServe, type RunningServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

const { version: VERSION } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }

/** Exit within this after a signal; the service has nothing slow to flush. */
const STOP_TIMEOUT_MS = 5_000

beforeAll(() => {
  assertCliBuilt()
})

function newEnvKey(): string {
  return `vd_env_${randomBytes(16).toString('hex')}`
}

function get(url: string, key?: string, scheme = 'Token'): Promise<Response> {
  return fetch(url, { headers: key === undefined ? {} : { authorization: `${scheme} ${key}` } })
}

async function expectVoices(url: string, key: string | undefined, status: number, scheme?: string): Promise<void> {
  const response = await get(`${url}/v1/voices`, key, scheme)
  const body = (await response.json()) as { data?: unknown[] }
  expect(response.status, JSON.stringify(body)).toBe(status)
  if (status === 200) expect(body.data).toHaveLength(14)
}

async function stop(server: RunningServe, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  server.cli.child.kill(signal)
  const exit = await server.cli.waitForExit(STOP_TIMEOUT_MS)
  expect(exit, server.cli.stderr()).toEqual({ code: 0, signal: null })
  expect(server.cli.stdout()).toMatch(new RegExp(`^${signal}: stopping`, 'm'))
}

/** Resolves to the connect error code, or 'connected' when something accepted the connection. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    socket.setTimeout(2_000, () => {
      socket.destroy()
      resolve('timeout')
    })
    socket.once('connect', () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

const busyServers: Server[] = []
afterEach(async () => {
  await Promise.all(busyServers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

describe('stopping', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('stops cleanly on %s sent the moment the banner appears', async (signal) => {
    // Supervisors signal as soon as they see the banner: the handlers must already be in place.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const cli = spawnCli(['serve', '--port', '0', '--data-dir', makeTempDir()], {
        env: { VOICEDESK_API_KEY: 'vd_signal_test_key_0123456789' },
      })
      await cli.waitForStdout(/listening on/)
      cli.child.kill(signal)
      expect(await cli.waitForExit(STOP_TIMEOUT_MS), cli.stderr()).toEqual({ code: 0, signal: null })
    }
  })

  it('goes on serving, and stops cleanly, when the reader of its stdout has gone away', async () => {
    const cli = spawnCli(['serve', '--port', '0', '--data-dir', makeTempDir()], {
      env: { VOICEDESK_API_KEY: 'vd_signal_test_key_0123456789' },
    })
    const [, url] = await cli.waitForStdout(LISTENING)
    cli.child.stdout!.destroy()
    expect((await fetch(`${url}/healthz`)).status).toBe(200)
    cli.child.kill('SIGTERM')
    expect(await cli.waitForExit(STOP_TIMEOUT_MS), cli.stderr()).toEqual({ code: 0, signal: null })
  })
})

describe('serve with VOICEDESK_API_KEY', () => {
  it('runs the bundled contract: validation errors in the envelope, a clone of a template, the OpenAPI document', async () => {
    const key = newEnvKey()
    const server = await startServe(makeTempDir(), ['--port', '0'], { env: { VOICEDESK_API_KEY: key } })
    const headers = { authorization: `Token ${key}`, 'content-type': 'application/json' }
    const invalid = await fetch(`${server.url}/v1/voice-agents`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ agentName: 'x', lang: 'fr' }),
    })
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: [{ path: 'body.lang' }] } })
    const templates = (await (await fetch(`${server.url}/v1/voice-agents/templates`, { headers })).json()) as { data: { id: string }[] }
    const clone = await fetch(`${server.url}/v1/voice-agents/clone?voiceAgentId=${templates.data[0]!.id}`, {
      method: 'POST',
      headers,
      body: '{}',
    })
    expect(clone.status).toBe(200)
    const openapi = await fetch(`${server.url}/v1/openapi.json`, { headers })
    expect(((await openapi.json()) as { openapi: string }).openapi).toBe('3.1.0')
  })

  it.each(['SIGTERM', 'SIGINT'] as const)('answers /healthz and /v1 over HTTP, hides the key, and exits 0 on %s', async (signal) => {
    const dataDir = makeTempDir()
    const key = newEnvKey()
    const server = await startServe(dataDir, ['--port', '0'], { env: { VOICEDESK_API_KEY: key } })

    const url = new URL(server.url)
    expect(url.hostname).toBe('127.0.0.1')
    expect(Number(url.port)).toBeGreaterThan(0)
    expect(server.cli.stdout()).toContain(`VoiceDesk ${VERSION} listening on ${server.url}`)
    expect(server.cli.stdout()).toContain(`Data folder: ${dataDir}`)

    const health = await fetch(`${server.url}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok', version: VERSION })

    await expectVoices(server.url, key, 200)
    await expectVoices(server.url, key, 200, 'Bearer')
    await expectVoices(server.url, undefined, 401)
    await expectVoices(server.url, `${key}x`, 401)
    await expectVoices(server.url, key, 401, 'Basic')

    // The banner names the key by its hint only, and nothing logged afterwards repeats it.
    const stdout = server.cli.stdout()
    expect(stdout).toMatch(/^API key: the one in VOICEDESK_API_KEY \(.+\)$/m)
    expect(stdout).toContain(`${key.slice(0, 6)}…${key.slice(-4)}`)
    expect(stdout).not.toContain(key)
    expect(server.cli.stderr()).not.toContain(key)

    await stop(server, signal)
    expect(server.cli.stdout()).not.toContain(key)
    // Nothing listens on the port any more.
    expect(await tryConnect('127.0.0.1', Number(url.port))).toBe('ECONNREFUSED')
  })

  it('binds 127.0.0.1 only: other local addresses on the same port refuse connections', async () => {
    const server = await startServe(makeTempDir(), ['--port', '0'], { env: { VOICEDESK_API_KEY: newEnvKey() } })
    const port = Number(new URL(server.url).port)
    expect(new URL(server.url).hostname).toBe('127.0.0.1')
    expect(await tryConnect('127.0.0.1', port)).toBe('connected')

    const others = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address !== undefined && !address.internal && address.family === 'IPv4')
      .map((address) => address!.address)
    // On Linux all of 127/8 is loopback, so 127.0.0.2 reaches this machine but not a 127.0.0.1 socket.
    if (process.platform === 'linux') others.push('127.0.0.2')
    for (const host of others) {
      expect(await tryConnect(host, port), host).not.toBe('connected')
    }
    expect(server.cli.stdout()).not.toMatch(/^Warning:/m)
    await stop(server)
  })

  it('warns when --host is not a loopback address', async () => {
    const server = await startServe(makeTempDir(), ['--port', '0', '--host', '0.0.0.0'], { env: { VOICEDESK_API_KEY: newEnvKey() } })
    expect(server.cli.stdout()).toMatch(/^Warning: listening on 0\.0\.0\.0, not only this machine/m)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    await stop(server)
  })
})

describe('serve without VOICEDESK_API_KEY', () => {
  it('shows the first key at every start until it is used, then only its hint', async () => {
    const dataDir = makeTempDir()
    const first = await startServe(dataDir)
    const match = /^API key \(new[^)]*\): (\S+)$/m.exec(first.cli.stdout())
    expect(match, first.cli.stdout()).not.toBeNull()
    const key = match![1]!
    expect(key).toMatch(/^vd_/)
    await stop(first)

    // Never used (the banner scrolled away, or the start failed after it): shown again.
    const second = await startServe(dataDir)
    expect(second.cli.stdout()).toMatch(new RegExp(`^API key \\(made at an earlier start, not used yet[^)]*\\): ${key}$`, 'm'))
    await expectVoices(second.url, key, 200)
    await stop(second)

    const third = await startServe(dataDir)
    const stdout = third.cli.stdout()
    expect(stdout).not.toContain(key)
    expect(stdout).toMatch(/^API key: .+ \(created earlier/m)
    expect(stdout).toContain(`${key.slice(0, 6)}…${key.slice(-4)}`)
    await expectVoices(third.url, key, 200)
    await expectVoices(third.url, undefined, 401)
    await stop(third)
  })

  it('a start that fails after making the first key shows the key again on the next start', async () => {
    const busy = createServer()
    busyServers.push(busy)
    await new Promise<void>((resolve, reject) => {
      busy.once('error', reject)
      busy.listen(0, '127.0.0.1', resolve)
    })
    const port = (busy.address() as { port: number }).port
    const dataDir = makeTempDir()
    const failed = await runCli(['serve', '--port', String(port), '--data-dir', dataDir])
    expect(failed.code, failed.stderr).toBe(1)

    const next = await startServe(dataDir)
    const key = /^API key \([^)]*not used yet[^)]*\): (vd_\S+)$/m.exec(next.cli.stdout())?.[1]
    expect(key, next.cli.stdout()).toBeDefined()
    await expectVoices(next.url, key, 200)
    await stop(next)
  })
})

describe('ports', () => {
  it('exits 1 with a clear message when the port is already in use', async () => {
    const busy = createServer()
    busyServers.push(busy)
    await new Promise<void>((resolve, reject) => {
      busy.once('error', reject)
      busy.listen(0, '127.0.0.1', resolve)
    })
    const port = (busy.address() as { port: number }).port

    const result = await runCli(['serve', '--port', String(port), '--data-dir', makeTempDir()])
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toBe(
      `voicedesk: --port ${port}: port ${port} on 127.0.0.1 is already in use. Stop the other service, or pass --port 0 for a free port\n`,
    )
    expect(result.stdout).not.toMatch(/listening on/)
  })

  it('honours VOICEDESK_PORT when --port is not given', async () => {
    const port = await findFreePort()
    const server = await startServe(makeTempDir(), [], { env: { VOICEDESK_API_KEY: newEnvKey(), VOICEDESK_PORT: String(port) } })
    expect(server.url).toBe(`http://127.0.0.1:${port}`)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    await stop(server)
  })

  it('prefers --port over VOICEDESK_PORT (and starts with media limits given)', async () => {
    const [envPort, flagPort] = [await findFreePort(), await findFreePort()]
    const limits = ['--max-media-size', '500MB', '--media-fetch-timeout', '60', '--media-fetch-deadline', '900']
    const server = await startServe(makeTempDir(), ['--port', String(flagPort), ...limits], {
      env: { VOICEDESK_API_KEY: newEnvKey(), VOICEDESK_PORT: String(envPort) },
    })
    expect(server.url).toBe(`http://127.0.0.1:${flagPort}`)
    await stop(server)
  })
})

describe('usage', () => {
  // Every refusal is checked in-process in usage.test.ts; these few go through the real bundle to prove the
  // wiring: the exit code reaches the shell, the one line goes to stderr, nothing is started.
  it.each([
    { args: ['serve', '--port', 'abc'], message: /^voicedesk: --port must be a port number from 0 to 65535/ },
    { args: ['serve', '--max-media-size', 'lots'], message: /^voicedesk: --max-media-size must be a size/ },
    { args: ['serve', '--bogus'], message: /^voicedesk: Unknown option --bogus \(see voicedesk --help\)$/m },
    { args: ['keys', 'revoke'], message: /^voicedesk: keys revoke needs the id/ },
  ])('$args exits 2 with one line on stderr and nothing on stdout', async ({ args, message }) => {
    const result = await runCli([...args, '--data-dir', makeTempDir()])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(result.stdout).toBe('')
  })

  it('ends a media fetch at --media-fetch-deadline, though its server sends a byte every 200 ms (never silent)', async () => {
    // The media site is a loopback server written here that drips; the speech server is never reached (the fetch comes first).
    const drip = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'audio/mpeg' })
      const timer = setInterval(() => response.write('x'), 200)
      response.on('close', () => clearInterval(timer))
    })
    await new Promise<void>((resolve) => drip.listen(0, '127.0.0.1', resolve))
    try {
      const dataDir = makeTempDir()
      const key = newEnvKey()
      expect((await runCli(['stt-engine', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--data-dir', dataDir])).code).toBe(0)
      const server = await startServe(dataDir, ['--port', '0', '--media-fetch-deadline', '1'], { env: { VOICEDESK_API_KEY: key } })
      const headers = { authorization: `Token ${key}`, 'content-type': 'application/json' }
      const mediaUrl = `http://127.0.0.1:${(drip.address() as AddressInfo).port}/talk.mp3`
      const created = await fetch(`${server.url}/v1/jobs/transcribe`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: 'General-V2.0', processingType: 'async', mediaUrl }),
      })
      const { id } = ((await created.json()) as { data: { id: string } }).data
      let job: { status: string; error?: { code: string; message: string } } = { status: 'PENDING' }
      for (
        const deadline = Date.now() + 15_000;
        job.status === 'PENDING' && Date.now() < deadline;
        await new Promise((resolve) => setTimeout(resolve, 100))
      ) {
        job = ((await (await fetch(`${server.url}/v1/jobs?jobId=${id}`, { headers })).json()) as { data: typeof job }).data
      }
      expect(job).toMatchObject({
        status: 'FAILED',
        error: { code: 'MEDIA_FETCH_FAILED', message: `${mediaUrl} did not send the whole media within 1 s; nothing was kept` },
      })
      await stop(server)
    } finally {
      drip.closeAllConnections()
      await new Promise((resolve) => drip.close(resolve))
    }
  })

  it('journals /v1 requests into journal.db in the data folder, and not with --journal off', async () => {
    const key = newEnvKey()
    const headers = { authorization: `Token ${key}` }
    const dataDir = makeTempDir()
    const on = await startServe(dataDir, ['--port', '0'], { env: { VOICEDESK_API_KEY: key } })
    await fetch(`${on.url}/v1/voices`, { headers })
    const listed = (await (await fetch(`${on.url}/_voicedesk/requests`, { headers })).json()) as { data: { requests: { path: string }[] } }
    expect(listed.data.requests.map((entry) => entry.path)).toEqual(['/v1/voices'])
    expect(existsSync(join(dataDir, 'journal.db'))).toBe(true)
    await stop(on)
    const off = await startServe(makeTempDir(), ['--port', '0', '--journal', 'off'], { env: { VOICEDESK_API_KEY: key } })
    expect((await fetch(`${off.url}/_voicedesk/requests`, { headers })).status).toBe(404)
    await stop(off)
  })

  it('a bad VOICEDESK_PORT exits 2 and names the variable', async () => {
    const result = await runCli(['serve', '--data-dir', makeTempDir()], { env: { VOICEDESK_PORT: 'abc' } })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^voicedesk: VOICEDESK_PORT must be a port number/)
    expect(result.stderr).not.toContain('Usage:')
  })

  it('--help exits 0 with the usage on stdout', async () => {
    const result = await runCli(['--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Usage:')
    expect(result.stdout).toContain('voicedesk serve')
    expect(result.stdout).toContain('voicedesk keys create')
    expect(result.stderr).toBe('')
  })

  it('--version prints the package.json version', async () => {
    const result = await runCli(['--version'])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe(VERSION)
    expect(result.stderr).toBe('')
  })
})

describe('keys', () => {
  async function createKey(dataDir: string, name: string): Promise<{ id: string; key: string }> {
    const result = await runCli(['keys', 'create', '--name', name, '--data-dir', dataDir])
    expect(result.code, result.stderr).toBe(0)
    const id = new RegExp(`^Created key (\\S+) \\(${name}\\)`, 'm').exec(result.stdout)?.[1]
    const key = /^(vd_\S+)$/m.exec(result.stdout)?.[1]
    expect(id, result.stdout).toBeDefined()
    expect(key, result.stdout).toBeDefined()
    return { id: id!, key: key! }
  }

  it('create prints a key that works; list shows only its hint; revoke makes it 401 on the next start', async () => {
    const dataDir = makeTempDir()
    const { id, key } = await createKey(dataDir, 'ci')

    const listed = await runCli(['keys', 'list', '--data-dir', dataDir])
    expect(listed.code, listed.stderr).toBe(0)
    const line = listed.stdout.split('\n').find((entry) => entry.startsWith(id))
    expect(line, listed.stdout).toBeDefined()
    expect(line).toContain(`${key.slice(0, 6)}…${key.slice(-4)}`)
    expect(line).toContain('ci')
    expect(line).toContain('last used never')
    expect(listed.stdout).not.toContain(key)

    const server = await startServe(dataDir)
    await expectVoices(server.url, key, 200)
    await stop(server)

    const revoked = await runCli(['keys', 'revoke', id, '--data-dir', dataDir])
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(revoked.stdout).toContain(`Revoked key ${id}`)
    const relisted = await runCli(['keys', 'list', '--data-dir', dataDir])
    expect(relisted.stdout.split('\n').find((entry) => entry.startsWith(id))).toMatch(/revoked /)

    const restarted = await startServe(dataDir)
    await expectVoices(restarted.url, key, 401)
    await stop(restarted)
  })

  it('revoking a key takes effect on a service that is already running', async () => {
    const dataDir = makeTempDir()
    const server = await startServe(dataDir, ['--port', '0'], { env: { VOICEDESK_API_KEY: newEnvKey() } })
    const { id, key } = await createKey(dataDir, 'live')
    await expectVoices(server.url, key, 200)
    const revoked = await runCli(['keys', 'revoke', id, '--data-dir', dataDir])
    expect(revoked.code, revoked.stderr).toBe(0)
    await expectVoices(server.url, key, 401)
    await stop(server)
  })

  it('revoke of an unknown id exits 1 with a message', async () => {
    const result = await runCli(['keys', 'revoke', '00000000-0000-4000-8000-000000000000', '--data-dir', makeTempDir()])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^voicedesk: No active API key with id/m)
  })

  it('list never prints a full key, including the one created by the first serve', async () => {
    const dataDir = makeTempDir()
    const server = await startServe(dataDir)
    const key = /^API key \(new[^)]*\): (\S+)$/m.exec(server.cli.stdout())![1]!
    await stop(server)
    const listed = await runCli(['keys', 'list', '--data-dir', dataDir])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(`${key.slice(0, 6)}…${key.slice(-4)}`)
    expect(listed.stdout).not.toContain(key)
  })

  it('keys create on a fresh data folder leaves exactly one key: the one it showed', async () => {
    const dataDir = makeTempDir()
    const { id } = await createKey(dataDir, 'first')
    const listed = await runCli(['keys', 'list', '--data-dir', dataDir])
    const lines = listed.stdout.split('\n').filter((entry) => entry.trim() !== '')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`^${id} `))
  })
})
