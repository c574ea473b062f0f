import BetterSqlite3 from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

describe('voicedesk webhook-secret', () => {
  it('shows, generates, sets and clears the signing secret, never storing it in clear', async () => {
    const dataDir = makeTempDir()
    const run = (...args: string[]) => runCli(['webhook-secret', ...args, '--data-dir', dataDir])

    expect((await run()).stdout).toBe('Webhooks are not signed.\n')
    const generated = await run('generate')
    expect(generated.code).toBe(0)
    const secret = generated.stdout.match(/^(whsec_[A-Za-z0-9+/]+=*)$/m)?.[1]
    expect(secret, generated.stdout).toBeDefined()
    expect(Buffer.from(secret!.slice(6), 'base64')).toHaveLength(32)
    expect((await run()).stdout).toBe(`Webhooks are signed (webhook-signature) with the secret ending ${secret!.slice(-4)}.\n`)
    // Stored sealed: the database file alone does not reveal it.
    const db = new BetterSqlite3(join(dataDir, 'voicedesk.db'), { readonly: true })
    const stored = db.prepare("SELECT value FROM settings WHERE key = 'webhooks'").pluck().get() as string
    db.close()
    expect(stored).not.toContain(secret!.slice(6, 20))

    const own = `whsec_${Buffer.alloc(24, 7).toString('base64')}`
    expect((await run('set', own)).code).toBe(0)
    expect((await run()).stdout).toContain(`ending ${own.slice(-4)}`)

    for (const bad of [['set'], ['set', 'hunter2'], ['set', 'whsec_c2hvcnQ='], ['rotate']]) {
      const refused = await run(...bad)
      expect(refused.code, bad.join(' ')).toBe(2)
      expect(refused.stderr, bad.join(' ')).toMatch(/webhook-secret|whsec_/)
    }
    expect((await run()).stdout).toContain(`ending ${own.slice(-4)}`) // a refused change changes nothing

    expect((await run('clear')).stdout).toBe('Webhooks are no longer signed.\n')
    expect((await run()).stdout).toBe('Webhooks are not signed.\n')
  }, 90_000) // nine CLI processes, each a Node start-up: seconds apiece on a busy 2-core machine
})
