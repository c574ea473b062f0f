#!/usr/bin/env node
// `npm test` runs this first (pretest): the end-to-end tests drive Debian's chromium with
// playwright-core, which downloads no browser of its own, and the store tests start throwaway
// PostgreSQL clusters with its server binaries (initdb, pg_ctl), and the SIP line's tests call the
// service with real SIP clients (SIPp from sip-tester, and baresip). A machine without them gets
// them from Debian's packages when this user may install them (root, or sudo without a
// password); otherwise this stops with one line saying what to install.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { delimiter, join } from 'node:path'

const chromium = process.env.VOICEDESK_CHROMIUM || '/usr/bin/chromium'

function run(command, args) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
  return result.status === 0
}

function aptInstall(packages) {
  const asRoot = process.getuid?.() === 0
  const sudo = !asRoot && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0
  if (!hasApt || (!asRoot && !sudo)) return false
  const prefix = asRoot ? [] : ['sudo', '-n']
  const [command, ...args] = [...prefix, 'apt-get']
  return run(command, [...args, 'update', '-qq']) && run(command, [...args, 'install', '-y', '-qq', ...packages])
}

if (!existsSync(chromium)) {
  if (process.env.VOICEDESK_CHROMIUM) {
    console.error(`ensure-test-tools: VOICEDESK_CHROMIUM is ${chromium}, which does not exist; point it at a Chromium or Chrome binary`)
    process.exit(1)
  }
  console.log("ensure-test-tools: installing Debian's chromium for the end-to-end tests (about 30 s)…")
  if (!aptInstall(['chromium']) || !existsSync(chromium)) {
    console.error(
      'ensure-test-tools: the end-to-end tests need Chromium at /usr/bin/chromium: install it (Debian/Ubuntu: sudo apt-get install chromium), or set VOICEDESK_CHROMIUM to a Chromium or Chrome binary',
    )
    process.exit(1)
  }
}

/** Where test/helpers/postgres-cluster.ts looks: initdb and pg_ctl on PATH, or Debian's /usr/lib/postgresql/<15 or newer>/bin. */
function hasPostgresServer() {
  const folders = (process.env.PATH ?? '').split(delimiter).filter(Boolean)
  if (folders.some((folder) => existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'pg_ctl')))) return true
  const debian = '/usr/lib/postgresql'
  if (!existsSync(debian)) return false
  return readdirSync(debian).some(
    (version) => /^\d+$/.test(version) && Number(version) >= 15 && existsSync(join(debian, version, 'bin', 'pg_ctl')),
  )
}

if (!hasPostgresServer()) {
  console.log("ensure-test-tools: installing Debian's postgresql for the store tests (about 30 s)…")
  if (!aptInstall(['postgresql']) || !hasPostgresServer()) {
    console.error(
      'ensure-test-tools: the store tests need the PostgreSQL 15+ server binaries (initdb, pg_ctl): install them (Debian/Ubuntu: sudo apt-get install -y postgresql), or put their folder on PATH',
    )
    process.exit(1)
  }
}

/** The SIP line's tests (test/telephony): SIPp dials the service, baresip stands for a softphone. */
const SIP_TOOLS = [
  { binary: '/usr/bin/sipp', debianPackage: 'sip-tester', what: 'SIPp' },
  { binary: '/usr/bin/baresip', debianPackage: 'baresip', what: 'baresip' },
]
const missingSipTools = SIP_TOOLS.filter((tool) => !existsSync(tool.binary))
if (missingSipTools.length > 0) {
  const packages = missingSipTools.map((tool) => tool.debianPackage)
  console.log(`ensure-test-tools: installing Debian's ${packages.join(' and ')} for the SIP line's tests (about 20 s)…`)
  if (!aptInstall(packages) || missingSipTools.some((tool) => !existsSync(tool.binary))) {
    console.error(
      `ensure-test-tools: the SIP line's tests need ${missingSipTools.map((tool) => `${tool.what} at ${tool.binary}`).join(' and ')}: install them (Debian/Ubuntu: sudo apt-get install -y ${packages.join(' ')})`,
    )
    process.exit(1)
  }
}
