/**
 * The History tab's operations (agents.versions, agents.version, agents.restoreVersion) over
 * browser mode's /ipc carrier, on a real runtime and SQLite file: bad input refused in the
 * contract's shape, unknown agents and versions NOT_FOUND, and restores made at once each a
 * version of their own.
 */
import { describe, expect, it } from 'vitest'
import { startBrowserMode } from './ipc-client'

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000'

describe('agent versions over the operator contract', () => {
  it('refuses versions that are not whole numbers from 1, and pages out of range', async () => {
    const { ipc } = await startBrowserMode()
    const agent = await ipc.ok('agents.create', { agentName: 'Versions', lang: 'en' })
    for (const version of [0, -1, 1.5, 2_147_483_648, '1', null]) {
      for (const name of ['agents.version', 'agents.restoreVersion'] as const) {
        const { body } = await ipc.post(name, { id: agent.id, version })
        expect(body, `${name} ${String(version)}`).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } })
      }
    }
    for (const input of [
      { id: agent.id, take: 0 },
      { id: agent.id, take: 101 },
      { id: agent.id, skip: 0 },
      { id: agent.id, extra: 1 },
    ]) {
      expect((await ipc.post('agents.versions', input)).body, JSON.stringify(input)).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION_ERROR' },
      })
    }
  })

  it('answers NOT_FOUND for an unknown agent or a version the agent does not have, and restores nothing', async () => {
    const { ipc } = await startBrowserMode()
    const agent = await ipc.ok('agents.create', { agentName: 'Versions', lang: 'en' })
    for (const [name, input] of [
      ['agents.versions', { id: UNKNOWN_ID }],
      ['agents.version', { id: UNKNOWN_ID, version: 1 }],
      ['agents.restoreVersion', { id: UNKNOWN_ID, version: 1 }],
      ['agents.version', { id: agent.id, version: 2 }],
      ['agents.restoreVersion', { id: agent.id, version: 999_999 }],
    ] as const) {
      expect((await ipc.post(name, input)).body, `${name} ${JSON.stringify(input)}`).toMatchObject({
        ok: false,
        error: { code: 'NOT_FOUND' },
      })
    }
    expect(await ipc.ok('agents.versions', { id: agent.id })).toMatchObject({ total: 1, versions: [{ version: 1, source: 'create' }] })
  })

  it('restores made at once each make their own version, newest first, and the agent is the last one', async () => {
    const { ipc } = await startBrowserMode()
    const agent = await ipc.ok('agents.create', { agentName: 'Versions', lang: 'en', greetingMessage: 'First.' })
    await ipc.ok('agents.update', { id: agent.id, changes: { greetingMessage: 'Second.' } })
    await ipc.ok('agents.update', { id: agent.id, changes: { greetingMessage: 'Third.' } })
    const restores = await Promise.all([1, 2, 1, 2, 1, 2].map((version) => ipc.ok('agents.restoreVersion', { id: agent.id, version })))
    expect(restores.every((restored) => restored.id === agent.id)).toBe(true)
    const page = await ipc.ok('agents.versions', { id: agent.id, take: 100 })
    expect(page.total).toBe(9)
    expect(page.versions.map((item) => item.version)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1])
    expect(
      page.versions
        .slice(0, 6)
        .map((item) => item.source)
        .sort(),
    ).toEqual(['restore:1', 'restore:1', 'restore:1', 'restore:2', 'restore:2', 'restore:2'])
    // The agent now is what the newest version holds, and paging reads the rest in order.
    const newest = await ipc.ok('agents.version', { id: agent.id, version: 9 })
    expect((await ipc.ok('agents.get', { id: agent.id })).greetingMessage).toBe(newest.agent.greetingMessage)
    expect(newest.source.startsWith('restore:')).toBe(true)
    const second = await ipc.ok('agents.versions', { id: agent.id, take: 4, skip: 2 })
    expect(second.versions.map((item) => item.version)).toEqual([5, 4, 3, 2])
  })
})
