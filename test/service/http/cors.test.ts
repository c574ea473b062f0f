/** CORS over real HTTP on 127.0.0.1: preflights, real answers and errors, from allowed and refused origins. */
import type { AddressInfo } from 'node:net'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { invokeOperation } from '../../../src/service/operator/invoke-operation'
import type { RuntimeConfig } from '../../../src/service/runtime'
import { startTestService } from '../../helpers/test-service'

const AGENT_URL = '/v1/voice-agents/9d6a1707-b717-4e39-b6d2-4bfd68aee57d'

async function listening(config: Partial<RuntimeConfig> = {}) {
  const service = await startTestService({ port: 0, ...config })
  await service.runtime.start()
  const base = `http://127.0.0.1:${(service.runtime.app.server.address() as AddressInfo).port}`
  const send = async (method: 'GET' | 'OPTIONS' | 'POST', path: string, headers: Record<string, string>) => {
    const response = await request(`${base}${path}`, { method, headers })
    const text = await response.body.text()
    return { status: response.statusCode, headers: response.headers, body: text }
  }
  const preflight = (origin: string, path = AGENT_URL) =>
    send('OPTIONS', path, {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization,content-type',
    })
  const get = (origin: string, path = AGENT_URL, key: string | null = service.key) =>
    send('GET', path, { origin, 'content-type': 'application/json', ...(key ? { authorization: `Token ${key}` } : {}) })
  const setOrigins = (corsOrigins: string[] | null) =>
    invokeOperation(service.runtime.operatorHandlers('desktop'), 'settings.setCorsOrigins', { corsOrigins }, () => undefined)
  return { service, preflight, get, send, setOrigins }
}

function expectAllowedPreflight(answer: { status: number; headers: Record<string, unknown> }, origin: string) {
  expect(answer.status).toBe(204)
  expect(answer.headers['access-control-allow-origin']).toBe(origin)
  expect(answer.headers.vary).toMatch(/Origin/)
  expect(answer.headers['access-control-allow-methods']).toBe('GET, POST, PATCH, DELETE')
  expect(answer.headers['access-control-allow-headers']).toBe('authorization, content-type')
  expect(answer.headers['access-control-max-age']).toBe('7200')
}

function expectRefused(answer: { status: number; headers: Record<string, unknown>; body: string }) {
  expect(answer.headers['access-control-allow-origin']).toBeUndefined()
  expect(answer.headers['access-control-allow-methods']).toBeUndefined()
}

describe('CORS on /v1', () => {
  it('answers a preflight from a local dev server without a key, and real answers (a 401 and a 404 too) with the origin', async () => {
    const { preflight, get } = await listening()
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080', 'http://localhost']) {
      expectAllowedPreflight(await preflight(origin), origin)
      const notFound = await get(origin)
      expect(notFound.status).toBe(404)
      expect(notFound.headers['access-control-allow-origin']).toBe(origin)
      const unauthorized = await get(origin, AGENT_URL, null)
      expect(unauthorized.status).toBe(401)
      expect(unauthorized.headers['access-control-allow-origin']).toBe(origin)
      expect(unauthorized.headers.vary).toMatch(/Origin/)
      expect(JSON.parse(unauthorized.body)).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } })
    }
    const ok = await get('http://localhost:5173', '/v1/voices')
    expect(ok.status).toBe(200)
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:5173')
  })

  it('refuses other origins: their preflight is a 403 in the envelope, and no answer carries CORS headers', async () => {
    const { preflight, get } = await listening()
    for (const origin of [
      'https://evil.example',
      'https://localhost:5173',
      'http://localhost.evil.example:5173',
      'http://localhost:5173.evil.example',
      'null',
    ]) {
      const refused = await preflight(origin)
      expect(refused.status, origin).toBe(403)
      expectRefused(refused)
      expect(JSON.parse(refused.body)).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } })
      const real = await get(origin, '/v1/voices')
      expect(real.status).toBe(200) // a non-browser client with the key still works; a browser cannot read it
      expectRefused(real)
    }
  })

  it('answers any origin with * when the list holds *', async () => {
    const { preflight, get } = await listening({ corsOrigins: ['*'] })
    const answer = await preflight('https://anything.example')
    expect(answer.status).toBe(204)
    expect(answer.headers['access-control-allow-origin']).toBe('*')
    expect((await get('https://anything.example', '/v1/voices')).headers['access-control-allow-origin']).toBe('*')
  })

  it('lets --cors-origin replace the default, and beat the setting', async () => {
    const { preflight, setOrigins } = await listening({ corsOrigins: ['https://app.example.com'] })
    expectAllowedPreflight(await preflight('https://app.example.com'), 'https://app.example.com')
    expect((await preflight('http://localhost:5173')).status).toBe(403)
    const saved = await setOrigins(['https://studio.example'])
    expect(saved).toMatchObject({ ok: true, data: { cors: { origins: ['https://app.example.com'], source: 'cli' } } })
    expect((await preflight('https://studio.example')).status).toBe(403)
  })

  it('follows the corsOrigins setting at once, and goes back to the default when it is cleared', async () => {
    const { preflight, setOrigins, service } = await listening()
    expect(await setOrigins(['https://studio.example', 'http://lan-box:*'])).toMatchObject({
      ok: true,
      data: { cors: { origins: ['https://studio.example', 'http://lan-box:*'], source: 'setting' } },
    })
    expectAllowedPreflight(await preflight('https://studio.example'), 'https://studio.example')
    expectAllowedPreflight(await preflight('http://lan-box:9000'), 'http://lan-box:9000')
    expect((await preflight('http://localhost:5173')).status).toBe(403)

    // Saved in the data folder: a restart keeps it.
    expect(await service.runtime.store.settings.get('corsOrigins', z.array(z.string()))).toEqual([
      'https://studio.example',
      'http://lan-box:*',
    ])

    expect(await setOrigins(null)).toMatchObject({ ok: true, data: { cors: { source: 'default' } } })
    expectAllowedPreflight(await preflight('http://localhost:5173'), 'http://localhost:5173')
    expect((await preflight('https://studio.example')).status).toBe(403)
  })

  it('refuses a setting that is not an origin, naming the entry', async () => {
    const { setOrigins } = await listening()
    for (const bad of ['https://app.example.com/path', 'localhost:5173', 'ftp://x', 'http://*.example.com']) {
      const result = await setOrigins([bad])
      expect(result, bad).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR', details: [{ path: 'corsOrigins.0' }] } })
    }
  })
})

describe('same-origin routes', () => {
  it.each(['/healthz', '/ipc/service.info', '/ipc/events?token=x', '/app/', '/media/x.wav', '/preview/x'])(
    '%s carries no CORS header, even for an allowed origin',
    async (path) => {
      const { send } = await listening({ corsOrigins: ['*'] })
      const origin = 'http://localhost:5173'
      for (const answer of [
        await send('GET', path, { origin }),
        await send('OPTIONS', path, {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        }),
      ]) {
        expect(answer.status).not.toBe(204)
        expectRefused(answer)
      }
    },
  )
})
