// `voicedesk stt-engine`, the real CLI (out/main/cli.js) as a child process on a fresh data
// folder: showing, choosing and turning off speech recognition, and its one-line usage errors.
import { beforeAll, describe, expect, it } from 'vitest'
import { assertCliBuilt, runCli } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

beforeAll(() => {
  assertCliBuilt()
})

const KEY = 'sk-stt-test-0123456789abcdef'

describe('voicedesk stt-engine', () => {
  it('is off at first, is set to a server (the key never printed), shows it, and turns off again', async () => {
    const dataDir = makeTempDir()
    const run = async (...args: string[]) => {
      const result = await runCli(['stt-engine', ...args, '--data-dir', dataDir])
      expect(result.code, result.stderr).toBe(0)
      // No service runs on the folder: that warning alone.
      expect(result.stderr).toMatch(/^Warning: no VoiceDesk service is using --data-dir \S+ now;[^\n]*\n$/)
      expect(result.stdout).not.toContain(KEY)
      return result.stdout.trim()
    }
    expect(await run()).toBe('off')
    expect(await run('openai-compatible', '--base-url', 'http://127.0.0.1:8080/v1', '--api-key', KEY)).toBe(
      'Speech recognition will use the server default model at http://127.0.0.1:8080/v1 (with an API key) from the next call.',
    )
    expect(await run()).toBe('openai-compatible http://127.0.0.1:8080/v1 model whisper-1 (the server default)')
    expect(await run('openai-compatible', '--base-url', 'http://10.0.0.5:8000/v1', '--model', 'Systran/faster-whisper-small')).toBe(
      'Speech recognition will use model Systran/faster-whisper-small at http://10.0.0.5:8000/v1 from the next call.',
    )
    expect(await run()).toBe('openai-compatible http://10.0.0.5:8000/v1 model Systran/faster-whisper-small')
    expect(await run('off')).toBe('Speech recognition is off from the next call: calls hear when the caller speaks, not what they say.')
    expect(await run()).toBe('off')
  })

  it.each([
    {
      args: ['openai-compatible'],
      message: /^voicedesk: stt-engine openai-compatible needs --base-url, as in: voicedesk stt-engine openai-compatible --base-url http/,
    },
    { args: ['openai-compatible', '--base-url', 'ftp://x'], message: /^voicedesk: --base-url ftp:\/\/x: .*; as in: voicedesk stt-engine/ },
    { args: ['openai-compatible', '--base-url', 'not a url'], message: /^voicedesk: --base-url not a url: / },
    {
      args: ['off', '--base-url', 'http://127.0.0.1:8080/v1'],
      message: /^voicedesk: --base-url goes with "stt-engine openai-compatible" only$/m,
    },
    { args: ['whisper'], message: /^voicedesk: Unknown engine "whisper": use off, or voicedesk stt-engine openai-compatible/ },
    { args: ['off', 'now'], message: /^voicedesk: Unexpected argument "now": stt-engine takes one engine/ },
    { args: ['--name', 'x'], message: /^voicedesk: stt-engine does not take --name/ },
  ])('$args exits 2 with one line on stderr that says what to do', async ({ args, message }) => {
    const result = await runCli(['stt-engine', ...args, '--data-dir', makeTempDir()])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(result.stdout).toBe('')
  })

  it('is listed in --help', async () => {
    const result = await runCli(['--help'])
    expect(result.stdout).toContain('voicedesk stt-engine [off | openai-compatible --base-url URL [--model NAME] [--api-key KEY]]')
  })
})
