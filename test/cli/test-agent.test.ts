// `voicedesk test-agent` against a real, listening service (in this worker, on 127.0.0.1): the
// built CLI spawned for the exit codes CI reads (0 every scenario passed, 1 one failed), its
// JUnit file validated against a JUnit schema (test/fixtures/junit.xsd) with xmllint; the
// refusals (usage, unreachable service, refused key, unknown agent) in-process through main().
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { create } from 'xmlbuilder2'
import { validateXML } from 'xmllint-wasm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { errorEnvelope } from '../../src/shared/api/errors'
import { TestRunSchema, TestSuiteSchema } from '../../src/shared/api/test-suites'
import { runMain } from '../helpers/run-main'
import { findFreePort, ROOT, runCli, spawnCli } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { runEnd, startListeningService, templateAgent } from '../helpers/test-runs'
import { sharedSpeechEngine } from '../helpers/shared-speech-engine'
import { type TestService } from '../helpers/test-service'

const JUNIT_XSD = readFileSync(join(ROOT, 'test', 'fixtures', 'junit.xsd'), 'utf8')

/** Two lines, then the caller hangs up: the outcome holds the name (the Restaurant template asks it first). */
const SHORT_CALL = {
  name: 'short call',
  caller: { say: ['I want to book a table', 'My name is Sara Haddad'] },
  expect: { outcome: { guestName: 'Sara Haddad' }, endReason: 'caller-hangup', maxTurns: 2 },
}
const WRONG_NAME = { ...SHORT_CALL, name: 'wrong expectation', expect: { outcome: { guestName: 'Someone Else' } } }

function baseUrlOf(service: TestService): string {
  const address = service.runtime.app.server.address()
  if (address === null || typeof address === 'string') throw new Error('the service does not listen')
  return `http://127.0.0.1:${address.port}`
}

function writeJson(dir: string, name: string, value: unknown): string {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(value))
  return file
}

async function junitErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: { fileName: 'report.xml', contents: xml }, schema: JUNIT_XSD })
  return result.valid ? [] : result.errors.map((error) => error.message)
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('voicedesk test-agent against a running service', () => {
  it('a passing suite exits 0 with a valid JUnit file; a wrong expectation exits 1 with the diff on stdout', async () => {
    const service = await startListeningService(undefined, { speechEngine: await sharedSpeechEngine() })
    const agent = await templateAgent(service, 'Restaurant Reservations')
    const dir = makeTempDir()
    const passing = writeJson(dir, 'passing.json', { agentId: agent.id, scenarios: [SHORT_CALL] })
    const failing = writeJson(dir, 'failing.json', { scenarios: [WRONG_NAME] })
    const common = ['--base-url', baseUrlOf(service)]
    const env = { env: { VOICEDESK_API_KEY: service.key }, timeoutMs: 90_000 }
    const [pass, fail] = await Promise.all([
      runCli(
        ['test-agent', agent.id, '--suite', passing, '--repeat', '2', '--concurrency', '2', '--junit', join(dir, 'pass.xml'), ...common],
        env,
      ),
      runCli(
        ['test-agent', agent.id, '--suite', failing, '--junit', join(dir, 'fail.xml'), '--json', join(dir, 'fail.json'), ...common],
        env,
      ),
    ])

    expect(pass.code, pass.stdout + pass.stderr).toBe(0)
    const passLines = pass.stdout.trimEnd().split('\n')
    expect(passLines[0]).toMatch(/^Run \S+: 1 scenario, 2 rounds against agent /)
    // One line per scenario and round, as each ends (in whatever order they end).
    expect(passLines.filter((line) => line.startsWith('PASS  ')).sort()).toEqual([
      expect.stringMatching(/^PASS {2}short call \(round 1\) {2}\[conversation [0-9a-f-]{36}\]$/),
      expect.stringMatching(/^PASS {2}short call \(round 2\) {2}\[conversation [0-9a-f-]{36}\]$/),
    ])
    expect(pass.stdout).toMatch(/^PASSED: 2 passed, 0 failed of 2 \(agent version 1\)$/m)
    expect(pass.stdout).toMatch(/^first audio p50 \d+ ms, p95 \d+ ms; voice-to-voice p50 \d+ ms, p95 \d+ ms$/m)

    const passXml = readFileSync(join(dir, 'pass.xml'), 'utf8')
    expect(await junitErrors(passXml)).toEqual([])
    const report = create(passXml).end({ format: 'object' }) as {
      testsuites: { '@tests': string; '@failures': string; testsuite: { testcase: { '@name': string; failure?: unknown }[] } }
    }
    expect(report.testsuites).toMatchObject({ '@tests': '2', '@failures': '0' })
    expect(report.testsuites.testsuite.testcase.map((testcase) => testcase['@name']).sort()).toEqual([
      'short call (round 1)',
      'short call (round 2)',
    ])
    expect(report.testsuites.testsuite.testcase.every((testcase) => testcase.failure === undefined)).toBe(true)
    // The schema bites: the same report without a testcase's classname is refused.
    expect(await junitErrors(passXml.replace(/ classname="[^"]*"/, ''))).toEqual([
      expect.stringMatching(/Element 'testcase': The attribute 'classname' is required but missing/),
    ])

    expect(fail.code, fail.stdout + fail.stderr).toBe(1)
    expect(fail.stdout).toMatch(
      /^FAIL {2}wrong expectation {2}guestName: expected "Someone Else", got "Sara Haddad" {2}\[conversation [0-9a-f-]{36}\]$/m,
    )
    expect(fail.stdout).toMatch(/^FAILED: 0 passed, 1 failed of 1/m)
    const failXml = readFileSync(join(dir, 'fail.xml'), 'utf8')
    expect(await junitErrors(failXml)).toEqual([])
    expect(failXml).toContain(
      '<failure message="guestName: expected &quot;Someone Else&quot;, got &quot;Sara Haddad&quot;" type="expectation">',
    )
    // --json: the final run object, as GET /_voicedesk/test-runs/{id} answers it.
    const run = TestRunSchema.parse(JSON.parse(readFileSync(join(dir, 'fail.json'), 'utf8')))
    expect(run).toMatchObject({ agentId: agent.id, status: 'FAILED', summary: { passed: 0, failed: 1 } })
    expect(run.results[0]?.fields).toEqual([{ field: 'guestName', expected: 'Someone Else', got: 'Sara Haddad', pass: false }])
  }, 120_000)

  it('--generate writes the agent’s starter suite, keeps an existing file unless --force, and the suite passes', async () => {
    const service = await startListeningService(undefined, { speechEngine: await sharedSpeechEngine() })
    const agent = await templateAgent(service, 'Restaurant Reservations')
    vi.stubEnv('VOICEDESK_API_KEY', service.key)
    const file = join(makeTempDir(), 'starter.json')
    const generate = ['test-agent', agent.id, '--generate', file, '--base-url', baseUrlOf(service)]

    const first = await runMain(generate)
    expect(first.code, first.stderr).toBe(0)
    const suite = TestSuiteSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
    expect(first.stdout).toBe(
      `Wrote a starter suite of ${suite.scenarios.length} scenarios to ${file}.\n` +
        `Edit it, then run: voicedesk test-agent ${agent.id} --suite ${file}\n`,
    )
    writeFileSync(file, '{ "edited": true }')
    const again = await runMain(generate)
    expect(again).toMatchObject({ code: 2, stdout: '' })
    expect(again.stderr.trimEnd()).toBe(`voicedesk: ${file} exists already; pass --force to replace it`)
    expect(readFileSync(file, 'utf8')).toBe('{ "edited": true }')
    const forced = await runMain([...generate, '--force'])
    expect(forced.code, forced.stderr).toBe(0)
    expect(TestSuiteSchema.parse(JSON.parse(readFileSync(file, 'utf8')))).toEqual(suite)

    // What CI does with it: the starter suite, as written, passes against the agent (spawned: the exit code).
    const played = await runCli(['test-agent', agent.id, '--suite', file, '--concurrency', '5', '--base-url', baseUrlOf(service)], {
      env: { VOICEDESK_API_KEY: service.key },
      timeoutMs: 90_000,
    })
    expect(played.code, played.stdout + played.stderr).toBe(0)
    expect(played.stdout.match(/^PASS {2}/gm)).toHaveLength(suite.scenarios.length)
  }, 120_000)

  it('waits out a busy service (503 with Retry-After) while it follows the run', async () => {
    const service = await startListeningService(undefined, { speechEngine: await sharedSpeechEngine() })
    const agent = await templateAgent(service, 'Restaurant Reservations')
    const suite = writeJson(makeTempDir(), 'suite.json', { scenarios: [SHORT_CALL] })
    // In front of the service: its first two answers to the run's GET are the busy database's.
    let busyAnswers = 0
    const proxy = createServer((request, response) => {
      if (request.method === 'GET' && request.url?.startsWith('/_voicedesk/test-runs/') && busyAnswers < 2) {
        busyAnswers++
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' })
        return response.end(JSON.stringify(errorEnvelope('UNAVAILABLE', 'The database is busy; try again')))
      }
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const body = chunks.length ? Buffer.concat(chunks) : undefined
        const headers = {
          authorization: request.headers.authorization ?? '',
          'content-type': request.headers['content-type'] ?? 'application/json',
        }
        fetch(baseUrlOf(service) + request.url, { method: request.method, headers, body }).then(
          async (answer) => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()),
          () => response.writeHead(502).end(),
        )
      })
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    try {
      const port = (proxy.address() as AddressInfo).port
      vi.stubEnv('VOICEDESK_API_KEY', service.key)
      const result = await runMain(['test-agent', agent.id, '--suite', suite, '--base-url', `http://127.0.0.1:${port}`])
      expect(result.code, result.stdout + result.stderr).toBe(0)
      expect(busyAnswers).toBe(2)
      expect(result.stdout).toMatch(/^PASS {2}short call {2}\[conversation /m)
    } finally {
      await new Promise((resolve) => proxy.close(resolve))
    }
  }, 60_000)

  it('exits 2 on a refused key (never echoed), an unknown agent and a service that is not there; 130 on Ctrl-C', async () => {
    const service = await startListeningService(undefined, { speechEngine: await sharedSpeechEngine() })
    const agent = await templateAgent(service, 'Restaurant Reservations')
    const suite = writeJson(makeTempDir(), 'suite.json', { scenarios: [SHORT_CALL] })
    const baseUrl = baseUrlOf(service)

    const badKey = 'vd_not_a_key_of_this_service_0123456789'
    const spawned = await runCli(['test-agent', agent.id, '--suite', suite, '--base-url', baseUrl], {
      env: { VOICEDESK_API_KEY: badKey },
    })
    expect(spawned.code, spawned.stderr).toBe(2)
    expect(spawned.stderr).toMatch(/^voicedesk: The service answered 401 UNAUTHORIZED: .*check VOICEDESK_API_KEY or --api-key/)
    const viaOption = await runMain(['test-agent', agent.id, '--suite', suite, '--base-url', baseUrl, '--api-key', badKey])
    expect(viaOption.code).toBe(2)
    for (const output of [spawned.stdout, spawned.stderr, viaOption.stdout, viaOption.stderr]) expect(output).not.toContain(badKey)
    // A key no header can carry is refused before anything is sent, without quoting it either.
    const unsendable = await runMain(['test-agent', agent.id, '--suite', suite, '--base-url', baseUrl, '--api-key', 'secret with spaces'])
    expect(unsendable).toMatchObject({ code: 2, stdout: '' })
    expect(unsendable.stderr).not.toContain('secret with')

    // Ctrl-C stops following the run (the service finishes it) and says where to read it.
    const followed = spawnCli(['test-agent', agent.id, '--suite', suite, '--base-url', baseUrl], {
      env: { VOICEDESK_API_KEY: service.key },
    })
    const [, runId] = (await followed.waitForStdout(/^Run (\S+): /m)) as [string, string]
    followed.child.kill('SIGINT')
    expect(await followed.waitForExit()).toEqual({ code: 130, signal: null })
    expect(followed.stderr()).toBe(
      `voicedesk: Interrupted; the run goes on in the service until it ends: GET /_voicedesk/test-runs/${runId}\n`,
    )
    expect((await runEnd(service, runId)).status).toBe('PASSED')

    vi.stubEnv('VOICEDESK_API_KEY', service.key)
    const unknown = await runMain(['test-agent', 'no-such-agent', '--suite', suite, '--base-url', baseUrl])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/^voicedesk: The service answered 404 NOT_FOUND: .*check the agent id/)

    const down = await runMain(['test-agent', agent.id, '--suite', suite, '--base-url', `http://127.0.0.1:${await findFreePort()}`])
    expect(down.code).toBe(2)
    expect(down.stderr).toMatch(/^voicedesk: Cannot reach the VoiceDesk service at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): start it/)
    expect(down.stdout).toBe('')
  }, 60_000)
})

describe('voicedesk test-agent usage errors exit 2 before anything is sent', () => {
  /** The suite files of a test, in a folder of its own: `{dir}`, `{good}`, `{notJson}`, `{invalid}` in args stand for them. */
  function files(): Record<string, string> {
    const dir = makeTempDir()
    const notJson = join(dir, 'not.json')
    writeFileSync(notJson, '{ "scenarios": [ ')
    return {
      dir,
      good: writeJson(dir, 'good.json', { scenarios: [SHORT_CALL] }),
      notJson,
      invalid: writeJson(dir, 'invalid.json', {
        scenarios: [
          { ...SHORT_CALL, expect: { outcome: { date: { date: 'someday' } } } },
          { name: 'x', caller: { say: [] }, expect: {} },
        ],
      }),
    }
  }
  /** Runs `args` with the files filled in; nothing listens at the base URL, so a check that let the command through would fail "Cannot reach". */
  function run(args: string[]) {
    const paths = files()
    const filled = args.map((arg) => arg.replace(/\{(\w+)\}/g, (_, name: string) => paths[name] ?? name))
    return runMain([...filled, ...(args.includes('--base-url') ? [] : ['--base-url', 'http://127.0.0.1:9'])])
  }

  it.each([
    { args: ['test-agent', '--suite', '{good}'], message: /^voicedesk: test-agent needs the agent id/ },
    { args: ['test-agent', 'a1'], message: /^voicedesk: test-agent needs --suite FILE .* or --generate FILE/ },
    {
      args: ['test-agent', 'a1', 'a2', '--suite', '{good}'],
      message: /^voicedesk: Unexpected argument "a2": test-agent takes one agent id/,
    },
    { args: ['test-agent', 'a1', '--suite', '{good}', '--frobnicate'], message: /^voicedesk: Unknown option --frobnicate/ },
    { args: ['test-agent', 'a1', '--suite', '{good}', '--data-dir', '{dir}'], message: /^voicedesk: test-agent does not take --data-dir/ },
    {
      args: ['test-agent', 'a1', '--suite', '{dir}/missing.json'],
      message: /^voicedesk: Cannot read the suite file .*missing\.json \(ENOENT\)/,
    },
    { args: ['test-agent', 'a1', '--suite', '{notJson}'], message: /^voicedesk: The suite file .*not\.json is not JSON: / },
    {
      args: ['test-agent', 'a1', '--suite', '{good}', '--concurrency', '0'],
      message: /^voicedesk: --concurrency must be a whole number from 1 to 20, not "0"/,
    },
    {
      args: ['test-agent', 'a1', '--suite', '{good}', '--repeat', 'many'],
      message: /^voicedesk: --repeat must be a whole number from 1 to 50, not "many"/,
    },
    {
      args: ['test-agent', 'a1', '--suite', '{good}', '--generate', '{dir}/new.json'],
      message: /^voicedesk: Give --suite FILE or --generate FILE, not both/,
    },
    { args: ['test-agent', 'a1', '--generate', '{dir}/new.json', '--junit', 'x.xml'], message: /^voicedesk: --junit goes with --suite/ },
    { args: ['test-agent', 'a1', '--generate', '{good}'], message: /^voicedesk: .*good\.json exists already; pass --force to replace it/ },
    { args: ['test-agent', 'a1', '--suite', '{good}', '--force'], message: /^voicedesk: --force goes with --generate only/ },
    {
      args: ['test-agent', 'a1', '--suite', '{good}', '--base-url', 'ftp://x'],
      message: /^voicedesk: --base-url must be an http:\/\/ or https:\/\/ address/,
    },
  ])('$args', async ({ args, message }) => {
    vi.stubEnv('VOICEDESK_API_KEY', 'vd_usage_test_key_0123456789abcdef')
    const result = await run(args)
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stdout).toBe('')
  })

  it('names each bad part of a suite file by its path', async () => {
    vi.stubEnv('VOICEDESK_API_KEY', 'vd_usage_test_key_0123456789abcdef')
    const result = await run(['test-agent', 'a1', '--suite', '{invalid}'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^voicedesk: The suite file .*invalid\.json is not a valid suite:$/m)
    expect(result.stderr).toMatch(/^ {2}scenarios\.0\.expect\.outcome\.date\.date: A date is today/m)
    expect(result.stderr).toMatch(/^ {2}scenarios\.1\.caller\.say: /m)
  })

  it('needs a key, from VOICEDESK_API_KEY or --api-key', async () => {
    vi.stubEnv('VOICEDESK_API_KEY', '')
    const result = await run(['test-agent', 'a1', '--suite', '{good}'])
    expect(result.code).toBe(2)
    expect(result.stderr.trimEnd()).toBe(
      'voicedesk: test-agent needs an API key of the service: set VOICEDESK_API_KEY or pass --api-key KEY',
    )
  })
})
