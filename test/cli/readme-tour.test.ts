// README.md's "A first tour", run as written against a real `voicedesk serve` on a free port and
// a temp data folder. Only the two things a reader fills in are replaced: the key the banner
// printed (`vd_…`) and the port (8740, which a developer's own service may hold). Nothing is faked.
import { spawn } from 'node:child_process'
import { readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, childEnv, startServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const KEY = 'vd_readme_tour_key_0123456789'

function tourBlock(): string {
  const start = README.search(/^## A first tour$/m)
  expect(start, 'README.md has no "## A first tour" section').toBeGreaterThanOrEqual(0)
  const block = /```sh\n([\s\S]*?)```/.exec(README.slice(start))
  expect(block, 'the tour has no sh block').not.toBeNull()
  return block![1]!
}

function runBash(script: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // -e: a step that fails stops the tour here, instead of the next step failing obscurely.
    const child = spawn('bash', ['-e', '-c', script], { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe("README's first tour", () => {
  it('runs as written: a TTS job and its audio, AI content, a typed call, a snapshot', { timeout: 150_000 }, async () => {
    const tour = tourBlock()
    expect(tour).toContain('KEY=vd_…')
    expect(tour).toContain('127.0.0.1:8740')
    const server = await startServe(makeTempDir(), ['--port', '0'], { env: { VOICEDESK_API_KEY: KEY } })
    const port = new URL(server.url).port
    // Where a reader runs it: a checkout (the `ws` package for the typed call), here without writing into this one.
    const checkout = makeTempDir()
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'))

    const { code, stdout, stderr } = await runBash(tour.replace('vd_…', KEY).replaceAll('127.0.0.1:8740', `127.0.0.1:${port}`), checkout)
    expect(code, `${stdout}\n${stderr}`).toBe(0)

    // 2: the audio is a WAV file.
    const audio = readFileSync(join(checkout, 'welcome.wav'))
    expect(audio.subarray(0, 4).toString('latin1')).toBe('RIFF')
    expect(audio.length).toBeGreaterThan(10_000)
    // 3: the summary, from the spoken text (the offline engine picks its sentences).
    expect(stdout).toMatch(/close at six|Parking is free|Welcome to the clinic/)
    // 4: the agent greeted, heard the typed turn and answered it; the transcript has both sides.
    expect(stdout).toMatch(/^agent: .+/m)
    expect(stdout).toMatch(/^you: I would like to book an appointment$/m)
    expect(stdout).toMatch(/^caller: I would like to book an appointment$/m)
    // 5: the snapshot was taken, listed and restored.
    const answers = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { success: boolean; data: Record<string, unknown> })
    expect(answers).toHaveLength(3)
    expect(answers.every((answer) => answer.success)).toBe(true)
    expect(answers[0]!.data).toMatchObject({ name: 'after-the-tour', counts: { agents: 1, jobs: 3 } })
    expect(answers[2]!.data).toMatchObject({ counts: { agents: 1, jobs: 3 } })
  })
})
