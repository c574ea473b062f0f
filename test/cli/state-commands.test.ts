import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, spawnCli, startServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

/* The built CLI (out/main/cli.js: `npm run build` first) on real data folders. */

const KEY = 'vd_state_cli_test_key_0123456789'
const AGENT_ID = '3f1c2a9e-5b7d-4c8e-9a1b-2c3d4e5f6a7b'

async function agentsOf(url: string): Promise<string[]> {
  const response = await fetch(`${url}/v1/voice-agents?take=100`, { headers: { authorization: `Token ${KEY}` } })
  const body = (await response.json()) as { data: { agents: { id: string; agentName: string }[] } }
  return body.data.agents.map((agent) => `${agent.id} ${agent.agentName}`).sort()
}

function writeSeed(dataDir: string, seed: unknown, name = 'voicedesk.seed.json'): string {
  const file = join(dataDir, name)
  writeFileSync(file, JSON.stringify(seed))
  return file
}

const SEED = {
  agents: [{ id: AGENT_ID, agentName: 'Seeded front desk', lang: 'en' }, { agentName: 'Seeded second' }],
  phoneNumbers: [
    {
      type: 'TELEPHONY',
      phoneNumber: '+14155550123',
      label: 'Demo line',
      providerAccountSid: 'AC-1',
      providerAuthToken: 'token-1',
      agentId: AGENT_ID,
    },
  ],
}

describe('voicedesk export, import, snapshot, restore, reset, snapshots', () => {
  it('work on a data folder: the project goes out, empties, comes back, and snapshots restore it', { timeout: 90_000 }, async () => {
    const dataDir = makeTempDir()
    writeSeed(dataDir, SEED)
    const env = { env: { VOICEDESK_API_KEY: KEY } }
    // The seed at start: the data folder's voicedesk.seed.json, with the agent's fixed id and the number assigned to it.
    const first = await startServe(dataDir, ['--port', '0'], env)
    const seeded = await agentsOf(first.url)
    expect(seeded).toHaveLength(2)
    expect(seeded).toContain(`${AGENT_ID} Seeded front desk`)
    first.cli.child.kill('SIGTERM')
    await first.cli.waitForExit(15_000)

    const run = (...args: string[]) => runCli([...args, '--data-dir', dataDir], { timeoutMs: 30_000 })
    const passphraseFile = join(makeTempDir(), 'passphrase.txt')
    writeFileSync(passphraseFile, 'a long enough passphrase\n')
    const archive = join(makeTempDir(), 'state.tar.gz')
    const exported = await run('export', archive, '--passphrase-file', passphraseFile)
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout).toMatch(
      /Exported 2 agents, 2 agent versions, 1 phone number, 0 jobs, 0 webhook deliveries, 0 delivery attempts, 0 voice dictionaries, 0 dictionary activations from/,
    )

    const snap = await run('snapshot', 'seeded')
    expect(snap.code, snap.stderr).toBe(0)
    expect((await run('snapshots')).stdout).toMatch(/^seeded {2}\S+ {2}\d+ bytes {2}2 agents, 2 agent versions, 1 phone number, 0 jobs/m)

    expect((await run('reset')).code).toBe(2) // --yes is required
    const reset = await run('reset', '--yes')
    expect(reset.stdout).toMatch(/removed 2 agents, 2 agent versions, 1 phone number, 0 jobs/)
    const refusedImport = await run('import', archive)
    expect(refusedImport.code).toBe(1)
    expect(refusedImport.stderr).toMatch(/passphrase/)
    const imported = await run('import', archive, '--passphrase-file', passphraseFile)
    expect(imported.code, imported.stderr).toBe(0)
    expect((await run('import', archive, '--passphrase-file', passphraseFile)).stderr).toMatch(/reset first/)

    expect((await run('reset', '--yes')).code).toBe(0)
    const restored = await run('restore', 'seeded')
    expect(restored.code, restored.stderr).toBe(0)
    expect((await run('restore', 'no-such')).stderr).toMatch(/No snapshot named no-such/)
    expect((await run('snapshot', '../bad')).code).toBe(2)

    // The seed is not applied again: the project is not empty; the agents are the seeded ones, restored.
    const second = await startServe(dataDir, ['--port', '0'], env)
    expect(await agentsOf(second.url)).toEqual(seeded)
  })

  it('a bad seed stops the start, naming the file and the field', async () => {
    const dataDir = makeTempDir()
    const file = writeSeed(dataDir, { agents: [{ agentName: 'Fine' }, { agentName: 'Bad', lang: 'fr' }] }, 'seed.json')
    const cli = spawnCli(['serve', '--port', '0', '--data-dir', dataDir, '--seed', file], { env: { VOICEDESK_API_KEY: KEY } })
    const exit = await cli.waitForExit(20_000)
    expect(exit.code).not.toBe(0)
    expect(cli.stderr()).toContain(`Seed ${file}: agents[1].lang:`)
    const unknownAgent = writeSeed(dataDir, { phoneNumbers: [{ ...SEED.phoneNumbers[0], agentId: AGENT_ID }] }, 'seed2.json')
    const again = spawnCli(['serve', '--port', '0', '--data-dir', dataDir, '--seed', unknownAgent], { env: { VOICEDESK_API_KEY: KEY } })
    expect((await again.waitForExit(20_000)).code).not.toBe(0)
    expect(again.stderr()).toContain(`Seed ${unknownAgent}: phoneNumbers[0].agentId`)
    // All or nothing: the number added before the failing assignment is gone, so a good seed applies next time.
    const good = writeSeed(dataDir, SEED, 'seed3.json')
    const started = await startServe(dataDir, ['--port', '0', '--seed', good], { env: { VOICEDESK_API_KEY: KEY } })
    expect(await agentsOf(started.url)).toHaveLength(2)
  })
})

// The first-run mistake: the service runs on ./data, a command runs on another folder (the
// per-user default when --data-dir is left out) and silently works on the wrong data.
describe('data-folder commands and the folder a service uses', () => {
  const WARNING =
    /^Warning: no VoiceDesk service is using --data-dir (\S+) now; if yours runs on another folder, pass that folder with --data-dir/gm
  /** The commands that only read, or write settings: run all at once (many CLIs on one folder). */
  const readers = (archive: string) => [
    ['export', archive],
    ['snapshots'],
    ['keys', 'list'],
    ['ai-engine'],
    ['stt-engine'],
    ['webhook-secret'],
  ]
  /** The commands that change the project, in an order that works: one at a time. */
  const writers = (archive: string, name: string) => [
    ['snapshot', name],
    ['restore', name],
    ['reset', '--yes'],
    ['import', archive],
  ]

  async function runEach(dataDir: string, archive: string, name: string, writersToRun = writers(archive, name)) {
    const run = (args: string[]) =>
      runCli([...args, '--data-dir', dataDir], { timeoutMs: 30_000 }).then((result) => ({ args: args.join(' '), ...result }))
    const results = await Promise.all(readers(archive).map(run))
    for (const args of writersToRun) results.push(await run(args))
    for (const result of results) expect(result.code, `${result.args}: ${result.stderr}`).toBe(0)
    return results
  }

  it('each warns on stderr, once, when no running service uses the folder, and only then', { timeout: 90_000 }, async () => {
    const dataDir = makeTempDir()
    writeSeed(dataDir, SEED)
    const archive = join(makeTempDir(), 'state.tar.gz')
    const server = await startServe(dataDir, ['--port', '0'], { env: { VOICEDESK_API_KEY: KEY } })
    for (const served of await runEach(dataDir, archive, 'served', [['snapshot', 'served']]))
      expect(served.stderr, served.args).not.toMatch(/Warning/)
    server.cli.child.kill('SIGTERM')
    await server.cli.waitForExit(15_000)

    for (const alone of await runEach(dataDir, archive, 'alone')) {
      const warnings = [...alone.stderr.matchAll(WARNING)]
      expect(
        warnings.map((warning) => warning[1]),
        alone.args,
      ).toEqual([dataDir])
    }
  })

  it('export and snapshots without --data-dir name the default folder, refuse when it holds nothing and do not create it', async () => {
    const home = makeTempDir()
    const defaultFolder = join(home, 'voicedesk') // env-paths: $XDG_DATA_HOME/voicedesk on Linux
    const env = { XDG_DATA_HOME: home }
    const archive = join(makeTempDir(), 'state.tar.gz')
    for (const [args, verb] of [
      [['export', archive], 'export'],
      [['snapshots'], 'list'],
    ] as const) {
      const refused = await runCli([...args], { env })
      expect(refused.code, refused.stderr).toBe(2)
      expect(refused.stderr).toBe(
        `voicedesk: the default data folder ${defaultFolder}: nothing to ${verb} there, it holds no VoiceDesk data (no voicedesk.db); is your service using another folder? Pass it with --data-dir\n`,
      )
      expect(refused.stdout).toBe('')
      expect(existsSync(defaultFolder)).toBe(false)
    }
    expect(existsSync(archive)).toBe(false)

    // An existing folder without a database is left exactly as it was (no media/ or snapshots/ made in it).
    const empty = makeTempDir()
    const refused = await runCli(['export', archive, '--data-dir', empty])
    expect(refused.code).toBe(2)
    expect(readdirSync(empty)).toEqual([])
  })
})
