// The command line's checks, in-process: src/service/cli/main.ts called as the bundle calls it, stdout
// and stderr captured. Spawning the bundle once per mistake cost a second of Node start-up each (about
// forty seconds a run); serve.test.ts keeps real spawns of a few of these to prove the wiring (exit
// code, streams) end to end. Each mistake here must be refused before anything starts: a check that
// let one through would start a service inside the test worker and the test would see -1, not 2.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { runMain } from '../helpers/run-main'
import { ROOT } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

const { version: VERSION } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('serve refuses bad values before it starts', () => {
  const badPorts = [
    ['--port', 'abc'],
    ['--port', '70000'],
    ['--port', '65536'],
    ['--port=-1'],
    ['--port', '1.5'],
    ['--port', '1e3'],
    ['--port='],
  ]
  it.each(badPorts.map((args) => ({ args, shown: args.join(' ') })))('serve $shown exits 2 with one line on stderr', async ({ args }) => {
    const result = await runMain(['serve', ...args, '--data-dir', makeTempDir()])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(/^voicedesk: --port (must be a port number from 0 to 65535|needs a value)/)
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(result.stdout).toBe('')
  })

  it.each([
    {
      args: ['--max-media-size', 'lots'],
      message: /^voicedesk: --max-media-size must be a size such as 2GiB, 500MB or 1048576 \(bytes\), not "lots"$/,
    },
    { args: ['--max-media-size', '0'], message: /^voicedesk: --max-media-size must be a size/ },
    { args: ['--max-media-size', '2TB!'], message: /^voicedesk: --max-media-size must be a size/ },
    { args: ['--media-fetch-timeout=-3'], message: /^voicedesk: --media-fetch-timeout must be a number of seconds/ },
    { args: ['--media-fetch-timeout', 'soon'], message: /^voicedesk: --media-fetch-timeout must be a number of seconds/ },
    {
      args: ['--media-fetch-deadline', '0'],
      message: /^voicedesk: --media-fetch-deadline must be a number of seconds from 0.001 to 86400, not "0"$/,
    },
    { args: ['--media-fetch-deadline', 'later'], message: /^voicedesk: --media-fetch-deadline must be a number of seconds/ },
    { args: ['--media-fetch-deadline', '90000'], message: /^voicedesk: --media-fetch-deadline must be a number of seconds/ },
  ])('serve $args exits 2 naming the media limit', async ({ args, message }) => {
    const result = await runMain(['serve', ...args, '--data-dir', makeTempDir()])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr.trimEnd()).toMatch(message)
    expect(result.stdout).toBe('')
  })

  it.each([['0'], ['2.5'], ['10001']])('serve --max-calls %j exits 2 naming the range', async (given) => {
    const result = await runMain(['serve', `--max-calls=${given}`, '--data-dir', makeTempDir()])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr.trimEnd()).toBe(
      `voicedesk: --max-calls must be a whole number of calls from 1 to 10000, not ${JSON.stringify(given)}`,
    )
    expect(result.stdout).toBe('')
  })

  it('serve --journal maybe exits 2 naming the choices', async () => {
    const result = await runMain(['serve', '--journal', 'maybe', '--data-dir', makeTempDir()])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr.trimEnd()).toBe('voicedesk: --journal must be on or off, not "maybe"')
  })

  it('a bad VOICEDESK_PORT exits 2 and names the variable', async () => {
    vi.stubEnv('VOICEDESK_PORT', 'abc')
    const result = await runMain(['serve', '--data-dir', makeTempDir()])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^voicedesk: VOICEDESK_PORT must be a port number/)
    expect(result.stderr).not.toContain('Usage:')
  })
})

describe('mistakes on any command', () => {
  it.each([
    { args: ['serve', '--bogus'], message: /^voicedesk: Unknown option --bogus \(see voicedesk --help\)$/m },
    { args: ['frobnicate'], message: /^voicedesk: Unknown command "frobnicate": use serve, keys/ },
    // A name every object has is not a command either.
    { args: ['constructor'], message: /^voicedesk: Unknown command "constructor": use serve, keys/ },
    { args: [], message: /^voicedesk: Which command\?/ },
    { args: ['keys', 'frobnicate'], message: /^voicedesk: Unknown keys action "frobnicate": use create, list or revoke/ },
    { args: ['keys'], message: /^voicedesk: keys needs one of: create, list, revoke/ },
    { args: ['keys', 'revoke'], message: /^voicedesk: keys revoke needs the id/ },
    { args: ['keys', 'list', 'extra'], message: /^voicedesk: Unexpected argument "extra": keys takes/ },
    { args: ['keys', 'list', '--name', 'x'], message: /^voicedesk: --name goes with "keys create" only$/m },
    { args: ['serve', 'now'], message: /^voicedesk: Unexpected argument "now": serve takes no arguments/ },
    { args: ['serve', '--model', 'x'], message: /^voicedesk: serve does not take --model \(it takes --port, / },
    { args: ['serve', '--host', ''], message: /^voicedesk: --host is empty: give an address, such as 127.0.0.1/ },
    { args: ['serve', '--port', '0', '--log-level', 'loud'], message: /^voicedesk: --log-level must be one of/ },
    {
      args: ['ai-engine', 'openai-compatible'],
      message: /^voicedesk: ai-engine openai-compatible needs --base-url and --model, as in: voicedesk ai-engine/,
    },
    {
      args: ['ai-engine', 'openai-compatible', '--model', 'm'],
      message: /^voicedesk: ai-engine openai-compatible needs --base-url, as in: /,
    },
    { args: ['ai-engine', 'openai-compatible', '--model', 'm', '--base-url', 'ftp://x'], message: /^voicedesk: --base-url ftp:\/\/x: / },
    { args: ['ai-engine', 'offline', '--model', 'm'], message: /^voicedesk: --model goes with "ai-engine openai-compatible" only$/m },
    { args: ['ai-engine', 'magic'], message: /^voicedesk: Unknown engine "magic": use offline, or voicedesk ai-engine openai-compatible/ },
    { args: ['webhook-secret', 'set'], message: /^voicedesk: webhook-secret set needs the secret/ },
    { args: ['webhook-secret', 'clear', 'now'], message: /^voicedesk: Unexpected argument "now": webhook-secret takes/ },
  ])('$args exits 2 with one line on stderr that says what to do, not the whole usage', async ({ args, message }) => {
    const result = await runMain([...args, '--data-dir', makeTempDir()])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(result.stderr).not.toContain('Usage:')
    expect(result.stdout).toBe('')
  })

  it.each(['--help', '-h'])('%s exits 0 with the usage on stdout', async (flag) => {
    const result = await runMain([flag])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Usage:')
    expect(result.stdout).toContain('voicedesk serve')
    expect(result.stdout).toContain('voicedesk keys create')
    expect(result.stdout).toContain('voicedesk test-agent <agentId> --suite FILE')
    expect(result.stderr).toBe('')
  })

  it.each(['--version', '-v'])('%s prints the package.json version', async (flag) => {
    const result = await runMain([flag])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe(VERSION)
    expect(result.stderr).toBe('')
  })
})
