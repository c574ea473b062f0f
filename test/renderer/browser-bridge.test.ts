import { describe, expect, it } from 'vitest'
import type { IpcEvent } from '../../src/shared/ipc/operations'
import { createBrowserBridge, type EventSourceLike } from '../../src/renderer/src/api/browser-bridge'
import { createCall } from '../../src/renderer/src/api/call'
import { OperatorError } from '../../src/renderer/src/api/operator-error'
import { UI_TOKEN_STORAGE_KEY, takeUiToken } from '../../src/renderer/src/api/ui-token'

function answer(status: number, body: unknown) {
  return Promise.resolve({ status, json: () => Promise.resolve(body) })
}

describe('the browser bridge', () => {
  it('POSTs each operation with the bearer token and answers its IpcResult', async () => {
    const requests: { url: string; init: { headers: Record<string, string>; body: string } }[] = []
    const bridge = createBrowserBridge({
      token: 'tok',
      fetch: (url, init) => {
        requests.push({ url, init })
        return answer(200, { ok: true, data: [] })
      },
      createEventSource: () => ({ onmessage: null, close() {} }),
    })
    expect(bridge.host).toBe('browser')
    expect(await bridge.operations['templates.list']({})).toEqual({ ok: true, data: [] })
    expect(requests).toEqual([
      {
        url: '/ipc/templates.list',
        init: expect.objectContaining({
          method: 'POST',
          headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
          body: '{}',
        }),
      },
    ])
  })

  it('turns a /v1 error envelope (a refused token) and a network failure into IpcResult failures', async () => {
    const unauthorized = createBrowserBridge({
      token: 'bad',
      fetch: () => answer(401, { success: false, message: 'Missing or wrong UI token', error: { code: 'UNAUTHORIZED', details: [] } }),
    })
    expect(await unauthorized.operations['service.info']({})).toEqual({
      ok: false,
      error: { code: 'UNAUTHORIZED', message: 'Missing or wrong UI token', details: [] },
    })
    const down = createBrowserBridge({ token: 't', fetch: () => Promise.reject(new Error('ECONNREFUSED')) })
    expect(await down.operations['service.info']({})).toMatchObject({ ok: false, error: { code: 'INTERNAL' } })
  })

  it('call() unwraps data, throws OperatorError with field details, and reports a refused token', async () => {
    let refused = 0
    const details = [{ path: 'changes.lang', message: 'Invalid option' }]
    const bridge = createBrowserBridge({
      token: 't',
      fetch: (url) =>
        url.endsWith('agents.update')
          ? answer(200, { ok: false, error: { code: 'VALIDATION_ERROR', message: 'Invalid input', details } })
          : url.endsWith('keys.list')
            ? answer(401, { success: false, message: 'no', error: { code: 'UNAUTHORIZED', details: [] } })
            : answer(200, { ok: true, data: { voices: 1 } }),
    })
    const call = createCall(bridge, () => (refused += 1))
    expect(await call('voices.list', {})).toEqual({ voices: 1 })
    const error = await call('agents.update', { id: 'x', changes: {} }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(OperatorError)
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', details })
    await expect(call('keys.list', {})).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    expect(refused).toBe(1)
  })

  it('opens one event stream with the token in the query, and closes it with the last listener', () => {
    const sources: (EventSourceLike & { url: string; closed: boolean })[] = []
    const bridge = createBrowserBridge({
      token: 'a b',
      fetch: () => answer(200, {}),
      createEventSource: (url) => {
        const source = { url, closed: false, onmessage: null, close: () => void (source.closed = true) }
        sources.push(source)
        return source
      },
    })
    const seen: IpcEvent[] = []
    const stopA = bridge.onEvent((event) => seen.push(event))
    const stopB = bridge.onEvent(() => {})
    expect(sources.map((source) => source.url)).toEqual(['/ipc/events?token=a%20b'])
    const event: IpcEvent = {
      type: 'job.changed',
      job: { id: '00000000-0000-4000-8000-000000000001', status: 'COMPLETED', type: 'TTS', title: 'x' },
      runningJobs: 0,
      pendingJobs: 0,
    }
    sources[0]!.onmessage!({ data: JSON.stringify(event) })
    sources[0]!.onmessage!({ data: 'not json' })
    expect(seen).toEqual([event])
    stopA()
    expect(sources[0]!.closed).toBe(false)
    stopB()
    expect(sources[0]!.closed).toBe(true)
  })
})

it('says when the event stream came back after a break, not when it first opened', () => {
  let source: EventSourceLike | undefined
  const bridge = createBrowserBridge({
    token: 't',
    fetch: () => answer(200, {}),
    createEventSource: () => (source = { onmessage: null, close() {} }),
  })
  let reconnects = 0
  bridge.onReconnect(() => (reconnects += 1))
  bridge.onEvent(() => {})
  source!.onopen!()
  expect(reconnects).toBe(0)
  source!.onopen!()
  expect(reconnects).toBe(1)
})

describe('the UI token', () => {
  function sources(hash: string, stored: string | null = null) {
    const storage = new Map<string, string>(stored ? [[UI_TOKEN_STORAGE_KEY, stored]] : [])
    const replaced: string[] = []
    return {
      replaced,
      storage,
      input: {
        location: { hash, pathname: '/app/', search: '' },
        history: { state: null, replaceState: (_data: unknown, _unused: string, url?: string | null) => void replaced.push(url ?? '') },
        storage: {
          getItem: (key: string) => storage.get(key) ?? null,
          setItem: (key: string, value: string) => void storage.set(key, value),
        },
      },
    }
  }

  it('is taken from the fragment, kept for the session and removed from the address', () => {
    const given = sources('#token=abc123')
    expect(takeUiToken(given.input)).toBe('abc123')
    expect(given.storage.get(UI_TOKEN_STORAGE_KEY)).toBe('abc123')
    expect(given.replaced).toEqual(['/app/'])
  })

  it('comes from the session after a reload, and is null when there is none', () => {
    expect(takeUiToken(sources('', 'kept').input)).toBe('kept')
    expect(takeUiToken(sources('').input)).toBeNull()
  })
})
