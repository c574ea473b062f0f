/**
 * `voicedesk … --database-url` (team mode) from the command line, against a real PostgreSQL
 * cluster (postgres-global-setup.ts): the banner, keys made on one instance working on
 * another, and every mistake as one line on stderr that says what to do, exit 2 (or 1 when
 * the database cannot be reached).
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { assertCliBuilt, spawnCli } from '../helpers/spawn-cli'
import { createTestDatabase } from '../helpers/test-engine'

const SECRET = randomBytes(32).toString('base64')

async function run(args: string[], env: Record<string, string | undefined> = {}) {
  const cli = spawnCli(args, { env })
  const exit = await cli.waitForExit(60_000)
  return { ...exit, stdout: cli.stdout(), stderr: cli.stderr() }
}

describe('team mode on the command line', () => {
  assertCliBuilt()

  it('serves on PostgreSQL, says so in the banner, and takes keys made by the keys command on the same database', async () => {
    const url = await createTestDatabase()
    const env = { VOICEDESK_DATABASE_URL: url, VOICEDESK_SECRET_KEY: SECRET }
    const made = await run(['keys', 'create', '--name', 'Team key'], env)
    expect(made.code, made.stderr).toBe(0)
    const key = /^(vd_\S+)$/m.exec(made.stdout)![1]!
    expect(made.stdout).toContain('in the database postgres://127.0.0.1:')
    expect(made.stdout).toContain('It works at once on every instance using this database.')

    const serve = spawnCli(['serve', '--port', '0'], { env })
    const [, listening] = await serve.waitForStdout(/listening on (\S+)/, 60_000)
    expect(serve.stdout()).toMatch(/Database: postgres:\/\/127\.0\.0\.1:\d+\/\S+ \(team mode/)
    expect(serve.stdout()).not.toContain('Data folder')
    const response = await fetch(`${listening}/v1/voice-agents/templates`, { headers: { authorization: `Token ${key}` } })
    expect(response.status).toBe(200)
    serve.child.kill('SIGTERM')
    expect((await serve.waitForExit(30_000)).code).toBe(0)
  }, 120_000)

  it.each([
    [['serve'], { VOICEDESK_SECRET_KEY: undefined }, /needs VOICEDESK_SECRET_KEY.*openssl rand -base64 32/],
    [['serve'], { VOICEDESK_SECRET_KEY: 'too-short' }, /VOICEDESK_SECRET_KEY must be 32 bytes in base64 or hex \(9 characters given\)/],
    [['serve', '--data-dir', './data'], {}, /--data-dir goes with SQLite only/],
    [['serve', '--force-new'], {}, /--force-new goes with a data folder only/],
    [['keys', 'list', '--database-url', 'mysql://db/x'], {}, /--database-url must start with postgres:\/\//],
    [['keys', 'list', '--database-url', 'not a url'], {}, /--database-url is not a URL/],
  ])('%j refuses with one line and exit 2', async (args, extra, message) => {
    const result = await run(args, {
      VOICEDESK_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      VOICEDESK_SECRET_KEY: SECRET,
      ...extra,
    })
    expect(result.code).toBe(2)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(message)
  })

  it('names the database (never its password) and the cause when it cannot be reached', async () => {
    const result = await run(['keys', 'list'], {
      VOICEDESK_DATABASE_URL: 'postgres://alice:s3cret-pass@127.0.0.1:1/teamdb',
      VOICEDESK_SECRET_KEY: SECRET,
    })
    expect(result.code).toBe(1)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(
      /VOICEDESK_DATABASE_URL postgres:\/\/127\.0\.0\.1:1\/teamdb: nothing answers at that host and port.*\(ECONNREFUSED\)/,
    )
    expect(result.stderr).not.toContain('s3cret-pass')
  }, 60_000)

  it('refuses an instance whose VOICEDESK_SECRET_KEY is not the one the database was set up with', async () => {
    const url = await createTestDatabase()
    expect((await run(['keys', 'list'], { VOICEDESK_DATABASE_URL: url, VOICEDESK_SECRET_KEY: SECRET })).code).toBe(0)
    const other = await run(['serve', '--port', '0'], {
      VOICEDESK_DATABASE_URL: url,
      VOICEDESK_SECRET_KEY: randomBytes(32).toString('hex'),
    })
    expect(other.code).toBe(2)
    expect(other.stderr).toMatch(/VOICEDESK_SECRET_KEY is not the key this database was set up with/)
  }, 60_000)
})
