import { describe, expect, it } from 'vitest'
import { startServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'

const KEY = 'vd_two_processes_key_0123456789abcdef'
const PATCHES = 400
const IN_FLIGHT = 16

describe('two serve processes on one data folder', () => {
  it('answers every concurrent PATCH 2xx: write transactions take the lock up front and wait for it', { timeout: 120_000 }, async () => {
    const dataDir = makeTempDir()
    const env = { VOICEDESK_API_KEY: KEY }
    const first = await startServe(dataDir, ['--port', '0'], { env })
    const second = await startServe(dataDir, ['--port', '0'], { env })
    const headers = { authorization: `Token ${KEY}`, 'content-type': 'application/json' }
    const created = await fetch(`${first.url}/v1/voice-agents`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ agentName: 'Shared agent' }),
    })
    expect(created.status).toBe(200)
    const id = ((await created.json()) as { data: { id: string } }).data.id

    const statuses = new Map<number, number>()
    let next = 0
    const worker = async () => {
      while (next < PATCHES) {
        const index = next++
        const url = index % 2 === 0 ? first.url : second.url
        const response = await fetch(`${url}/v1/voice-agents/${id}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ agentName: `Agent ${index}`, silenceThreshold: 1 + (index % 60) }),
        })
        await response.arrayBuffer()
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
    expect(Object.fromEntries(statuses)).toEqual({ 200: PATCHES })
    expect(first.cli.stderr()).not.toMatch(/SQLITE_BUSY/)
    expect(second.cli.stderr()).not.toMatch(/SQLITE_BUSY/)
  })
})
