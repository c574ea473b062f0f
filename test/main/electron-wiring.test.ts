/**
 * The Electron shell's wiring, without Electron: `electron` is replaced by a fake module
 * (vi.mock below), the one thing here that is not real. The handler table behind the IPC
 * handlers is the real one, on a real runtime with a temp SQLite file.
 */
import { EventEmitter } from 'node:events'
import type { MessagePort } from 'node:worker_threads'
import { pathToFileURL } from 'node:url'
import type { BrowserWindow as ElectronBrowserWindow, BrowserWindowConstructorOptions, IpcMainInvokeEvent } from 'electron'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { IPC_EVENT_CHANNEL, IPC_OPERATION_NAMES, ipcChannelOf, type VoiceDeskBridge } from '../../src/shared/ipc/operations'
import { IPC_STREAM_CHANNEL, type IpcStreamClose, type TestCallServerFrame } from '../../src/shared/ipc/streams'
import type { OperatorHandlers } from '../../src/service/operator/operator-handlers'
import { startTestService } from '../helpers/test-service'

/** The fake `electron`: just enough of BrowserWindow, shell, ipcMain, ipcRenderer and contextBridge to observe the wiring. */
const fake = vi.hoisted(() => {
  type RequestHandler = (
    contents: unknown,
    permission: string,
    callback: (granted: boolean) => void,
    details: Record<string, unknown>,
  ) => void
  type CheckHandler = (contents: unknown, permission: string, origin: string, details: Record<string, unknown>) => boolean
  class FakeWebContents {
    static nextId = 1
    readonly id = FakeWebContents.nextId++
    readonly listeners = new Map<string, (...args: unknown[]) => void>()
    windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      this.windowOpenHandler = handler
    }
    on(name: string, listener: (...args: unknown[]) => void) {
      this.listeners.set(name, listener)
      return this
    }
    send = (() => {}) as (channel: string, payload: unknown) => void
    url = ''
    getURL() {
      return this.url
    }
    readonly session: {
      requestHandler?: RequestHandler
      checkHandler?: CheckHandler
      setPermissionRequestHandler(handler: RequestHandler): void
      setPermissionCheckHandler(handler: CheckHandler): void
    } = {
      setPermissionRequestHandler(handler) {
        this.requestHandler = handler
      },
      setPermissionCheckHandler(handler) {
        this.checkHandler = handler
      },
    }
  }
  class FakeBrowserWindow {
    static created: FakeBrowserWindow[] = []
    readonly webContents = new FakeWebContents()
    loaded: string | undefined
    constructor(readonly options: BrowserWindowConstructorOptions) {
      FakeBrowserWindow.created.push(this)
    }
    once() {
      return this
    }
    on() {
      return this
    }
    isDestroyed() {
      return false
    }
    loadFile(file: string) {
      this.loaded = file
      return Promise.resolve()
    }
    loadURL(url: string) {
      this.loaded = url
      return Promise.resolve()
    }
  }
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>()
  const listeners = new Map<string, (event: unknown, ...args: unknown[]) => void>()
  return {
    FakeBrowserWindow,
    handlers,
    listeners,
    module: {
      BrowserWindow: FakeBrowserWindow,
      shell: { openExternal: (_url: string) => Promise.resolve() },
      ipcMain: {
        handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => {
          if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
          handlers.set(channel, handler)
        },
        removeHandler: (channel: string) => handlers.delete(channel),
        on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
          listeners.set(channel, listener)
        },
        removeListener: (channel: string) => listeners.delete(channel),
      },
      ipcRenderer: {
        invoke: (_channel: string, _input: unknown) => Promise.resolve({ ok: true, data: null }),
        on: (_channel: string, _listener: unknown) => {},
        removeListener: (_channel: string, _listener: unknown) => {},
        postMessage: (_channel: string, _message: unknown, _transfer?: unknown[]) => {},
      },
      contextBridge: { exposeInMainWorld: (_name: string, _api: unknown) => {} },
    },
  }
})
vi.mock('electron', () => ({ ...fake.module, default: fake.module }))

const electron = await import('electron')
const { createMainWindow, isOwnWindowFrame } = await import('../../src/main/create-window')
const { registerOperations } = await import('../../src/main/register-operations')
const { registerStreams } = await import('../../src/main/register-streams')

const RENDERER = { file: '/opt/voicedesk/out/renderer/index.html' }
const PAGE_URL = `${pathToFileURL(RENDERER.file).href}#/agents`

function openWindow() {
  const openExternal = vi.spyOn(electron.shell, 'openExternal')
  const window = createMainWindow({
    BrowserWindow: electron.BrowserWindow,
    shell: electron.shell,
    preloadPath: '/opt/voicedesk/out/preload/index.cjs',
    renderer: RENDERER,
  })
  return { window, fakeWindow: window as unknown as InstanceType<typeof fake.FakeBrowserWindow>, openExternal }
}

function invokeEvent(
  window: ElectronBrowserWindow,
  frame: { parent: unknown; url: string } | null = { parent: null, url: PAGE_URL },
): IpcMainInvokeEvent {
  return { sender: window.webContents, senderFrame: frame } as unknown as IpcMainInvokeEvent
}

beforeEach(() => {
  fake.handlers.clear()
  fake.listeners.clear()
  vi.restoreAllMocks()
})

describe('the main window', () => {
  it('is isolated and sandboxed, without Node, with our preload', () => {
    const { fakeWindow } = openWindow()
    expect(fakeWindow.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      preload: '/opt/voicedesk/out/preload/index.cjs',
    })
    expect(fakeWindow.loaded).toBe(RENDERER.file)
  })

  it('opens no new window: http(s) links go to the browser, other schemes nowhere', () => {
    const { fakeWindow, openExternal } = openWindow()
    const handler = fakeWindow.webContents.windowOpenHandler!
    expect(handler({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' })
    expect(handler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(handler({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' })
    expect(openExternal.mock.calls).toEqual([['https://example.com/docs']])
  })

  it('never navigates away from its own page', () => {
    const { fakeWindow } = openWindow()
    const willNavigate = fakeWindow.webContents.listeners.get('will-navigate')!
    const away = { preventDefault: vi.fn() }
    willNavigate(away, 'https://evil.example/')
    expect(away.preventDefault).toHaveBeenCalled()
    const inside = { preventDefault: vi.fn() }
    willNavigate(inside, PAGE_URL)
    expect(inside.preventDefault).not.toHaveBeenCalled()
  })
})

describe('permissions', () => {
  it('grant the microphone to our own page alone, and nothing else', () => {
    const { fakeWindow } = openWindow()
    const { session } = fakeWindow.webContents
    const ask = (contents: unknown, permission: string, details: Record<string, unknown>) => {
      let granted: boolean | undefined
      session.requestHandler!(contents, permission, (answer: boolean) => (granted = answer), details)
      return granted
    }
    const own = fakeWindow.webContents
    expect(ask(own, 'media', { requestingUrl: PAGE_URL, mediaTypes: ['audio'] })).toBe(true)
    expect(ask(own, 'media', { requestingUrl: PAGE_URL, mediaTypes: ['audio', 'video'] })).toBe(false)
    expect(ask(own, 'media', { requestingUrl: 'https://evil.example/', mediaTypes: ['audio'] })).toBe(false)
    expect(ask(own, 'geolocation', { requestingUrl: PAGE_URL })).toBe(false)
    expect(ask(openWindow().fakeWindow.webContents, 'media', { requestingUrl: PAGE_URL, mediaTypes: ['audio'] })).toBe(false)
    own.url = PAGE_URL
    expect(session.checkHandler!(own, 'media', 'file:///', { mediaType: 'audio' })).toBe(true)
    expect(session.checkHandler!(own, 'media', 'file:///', { mediaType: 'video' })).toBe(false)
    expect(session.checkHandler!(own, 'notifications', 'file:///', {})).toBe(false)
    expect(session.checkHandler!(null, 'media', 'file:///', { requestingUrl: PAGE_URL })).toBe(false)
  })
})

describe('IPC registration', () => {
  async function register() {
    const service = await startTestService()
    const real = service.runtime.operatorHandlers('desktop')
    const reached: string[] = []
    const handlers = Object.fromEntries(
      Object.entries(real).map(([name, handler]) => [
        name,
        (input: never) => (reached.push(name), (handler as (input: never) => unknown)(input)),
      ]),
    ) as unknown as OperatorHandlers
    const { window } = openWindow()
    const dispose = registerOperations({
      ipcMain: electron.ipcMain,
      handlers,
      isTrustedSender: (event) => isOwnWindowFrame(event, [window], RENDERER),
    })
    const invoke = (name: string, event: IpcMainInvokeEvent, input?: unknown) =>
      fake.handlers.get(ipcChannelOf(name as never))!(event, input)
    return { service, window, reached, dispose, invoke }
  }

  it('registers exactly one handler per operation, on its own channel', async () => {
    const { dispose } = await register()
    expect([...fake.handlers.keys()].sort()).toEqual(IPC_OPERATION_NAMES.map((name) => `voicedesk:${name}`).sort())
    dispose()
    expect(fake.handlers.size).toBe(0)
  })

  it('runs an operation from our window through the real handler table', async () => {
    const { window, invoke, service } = await register()
    const result = await invoke('agents.create', invokeEvent(window), { agentName: 'From the window' })
    expect(result).toMatchObject({ ok: true, data: { agentName: 'From the window', apiKeyId: service.runtime.appCaller.apiKeyId } })
    expect(await invoke('service.info', invokeEvent(window))).toMatchObject({ ok: true, data: { host: 'desktop' } })
  })

  it('answers a bad payload with VALIDATION_ERROR, validated in main: it never reaches the use case', async () => {
    const { window, invoke, reached } = await register()
    const result = await invoke('agents.update', invokeEvent(window), { id: 'x', changes: { lang: 'xx' }, extra: true })
    expect(result).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } })
    expect((result as { error: { details: { path: string }[] } }).error.details.map((detail) => detail.path).sort()).toEqual([
      'changes.lang',
      'extra',
    ])
    expect(await invoke('agents.get', invokeEvent(window), 'not an object')).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    })
    expect(reached).toEqual([])
  })

  it('refuses other windows, iframes and foreign pages with FORBIDDEN', async () => {
    const { window, invoke, reached } = await register()
    const { window: other } = openWindow()
    const forbidden = { ok: false, error: { code: 'FORBIDDEN' } }
    expect(await invoke('keys.list', invokeEvent(other))).toMatchObject(forbidden)
    expect(await invoke('keys.list', invokeEvent(window, { parent: {}, url: PAGE_URL }))).toMatchObject(forbidden)
    expect(await invoke('keys.list', invokeEvent(window, { parent: null, url: 'https://evil.example/' }))).toMatchObject(forbidden)
    expect(await invoke('keys.list', invokeEvent(window, null))).toMatchObject(forbidden)
    expect(reached).toEqual([])
  })
})

describe('the preload', () => {
  it('exposes one named function per operation, each on its own channel, and no raw invoke', async () => {
    const expose = vi.spyOn(electron.contextBridge, 'exposeInMainWorld')
    const invoke = vi.spyOn(electron.ipcRenderer, 'invoke')
    const on = vi.spyOn(electron.ipcRenderer, 'on')
    const removeListener = vi.spyOn(electron.ipcRenderer, 'removeListener')
    vi.resetModules()
    await import('../../src/preload/index')

    expect(expose).toHaveBeenCalledTimes(1)
    const [name, exposed] = expose.mock.calls[0]!
    expect(name).toBe('voicedesk')
    const bridge = exposed as VoiceDeskBridge
    expect(Object.keys(bridge).sort()).toEqual(['host', 'onEvent', 'openStream', 'operations'])
    expect(bridge.host).toBe('desktop')
    expect(Object.keys(bridge.operations).sort()).toEqual([...IPC_OPERATION_NAMES].sort())
    expect(JSON.stringify(Object.keys(bridge))).not.toMatch(/invoke|send|ipc/i)

    for (const operation of IPC_OPERATION_NAMES) {
      invoke.mockClear()
      await (bridge.operations[operation] as (input: unknown) => Promise<unknown>)({ probe: operation })
      expect(invoke.mock.calls).toEqual([[`voicedesk:${operation}`, { probe: operation }]])
    }

    const listener = vi.fn()
    const unsubscribe = bridge.onEvent(listener)
    const [channel, forward] = on.mock.calls[0]! as [string, (event: unknown, payload: unknown) => void]
    expect(channel).toBe(IPC_EVENT_CHANNEL)
    const payload = { type: 'job.changed' }
    forward({ sender: 'the IpcRendererEvent' }, payload)
    expect(listener.mock.calls).toEqual([[payload]]) // the page never sees the event object
    unsubscribe()
    expect(removeListener.mock.calls).toEqual([[IPC_EVENT_CHANNEL, forward]])
  })
})

/**
 * A double of MessagePortMain, main's end of a stream's port (Electron cannot run here): it
 * records what main posts, and plays the page's side with fromPage() and pageCloses(). Like
 * Electron's, it emits 'close' when either end closes. Frames cross as structured clones.
 */
class FakePortMain extends EventEmitter {
  readonly posted: unknown[] = []
  started = false
  closed = false
  private readonly waiters = new Set<() => void>()

  postMessage(message: unknown) {
    if (this.closed) return
    this.posted.push(structuredClone(message))
    for (const waiter of [...this.waiters]) waiter()
  }
  start() {
    this.started = true
  }
  close() {
    if (this.closed) return
    this.closed = true
    this.emit('close')
    for (const waiter of [...this.waiters]) waiter()
  }
  fromPage(data: unknown) {
    this.emit('message', { data: structuredClone(data), ports: [] })
  }
  pageCloses() {
    this.close()
  }
  frames(): TestCallServerFrame[] {
    return this.posted as TestCallServerFrame[]
  }
  waitFor(predicate: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    if (predicate()) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate()) return
        clearTimeout(timer)
        this.waiters.delete(check)
        resolve()
      }
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `Timed out waiting for ${what}; posted: ${JSON.stringify(this.posted.map((frame) => (frame as { type: string }).type))}`,
            ),
          ),
        timeoutMs,
      )
      this.waiters.add(check)
    })
  }
}

describe("stream registration (Electron's carrier, with doubles of ipcMain and MessagePortMain)", () => {
  async function registerStreamsOn() {
    const service = await startTestService()
    const { window } = openWindow()
    const dispose = registerStreams({
      ipcMain: electron.ipcMain,
      streams: service.runtime.operatorStreams,
      isTrustedSender: (event) => isOwnWindowFrame(event, [window], RENDERER),
    })
    const post = (message: unknown, frame: { parent: unknown; url: string } | null = { parent: null, url: PAGE_URL }, from = window) => {
      const port = new FakePortMain()
      fake.listeners.get(IPC_STREAM_CHANNEL)!({ sender: from.webContents, senderFrame: frame, ports: [port] }, message)
      return port
    }
    const agentId = async () => {
      const created = await service.runtime
        .operatorHandlers('desktop')
        ['agents.create']({ agentName: 'Port agent', lang: 'en', greetingMessage: 'Hello there.' } as never)
      return created.id
    }
    const conversations = async () =>
      (await service.runtime.operatorHandlers('desktop')['jobs.list']({ type: 'CONVERSATION' } as never)).jobs
    return { service, window, dispose, post, agentId, conversations }
  }

  it('listens on the one stream channel, and stops when disposed', async () => {
    const { dispose } = await registerStreamsOn()
    expect([...fake.listeners.keys()]).toEqual([IPC_STREAM_CHANNEL])
    dispose()
    expect(fake.listeners.size).toBe(0)
  })

  it('refuses other windows, iframes and foreign pages on their port (refused FORBIDDEN, then closed), before reading the message', async () => {
    const { post, agentId, conversations } = await registerStreamsOn()
    const { window: other } = openWindow()
    const input = { name: 'calls.test', input: { agentId: await agentId() } }
    for (const port of [
      post(input, { parent: null, url: PAGE_URL }, other),
      post(input, { parent: {}, url: PAGE_URL }),
      post(input, { parent: null, url: 'https://evil.example/' }),
      post(input, null),
    ]) {
      expect(port.frames()).toEqual([{ type: 'refused', error: expect.objectContaining({ code: 'FORBIDDEN' }) }])
      expect(port.closed).toBe(true)
    }
    expect(await conversations()).toEqual([])
  })

  it('validates in main: no name, a bad input and an unknown agent are refused on the port', async () => {
    const { post } = await registerStreamsOn()
    const noName = post('calls.test')
    expect(noName.frames()).toEqual([{ type: 'refused', error: expect.objectContaining({ code: 'VALIDATION_ERROR' }) }])
    const badInput = post({ name: 'calls.test', input: { agentId: '', extra: 1 } })
    expect(badInput.frames()[0]).toMatchObject({
      type: 'refused',
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'agentId' }, { path: 'extra' }] },
    })
    expect(badInput.closed).toBe(true)
    const unknownAgent = post({ name: 'calls.test', input: { agentId: '00000000-0000-4000-8000-000000000000' } })
    await unknownAgent.waitFor(() => unknownAgent.closed, 'the refusal')
    expect(unknownAgent.frames()).toEqual([{ type: 'refused', error: expect.objectContaining({ code: 'NOT_FOUND' }) }])
  })

  it('bridges a test call to the service: started, a bad frame answered with info, hang-up then ended, and main closes the port', async () => {
    const { post, agentId, conversations } = await registerStreamsOn()
    const port = post({ name: 'calls.test', input: { agentId: await agentId() } })
    expect(port.started).toBe(true)
    await port.waitFor(() => port.frames().some((frame) => frame.type === 'started'), 'started')
    port.fromPage({ type: 'text' })
    await port.waitFor(
      () => port.frames().some((frame) => frame.type === 'info' && frame.code === 'INVALID_FRAME'),
      'the info about the bad frame',
    )
    port.fromPage({ type: 'hang-up' })
    await port.waitFor(() => port.closed, 'the port closed by main')
    expect(port.frames().at(-1)).toMatchObject({ type: 'ended', status: 'COMPLETED', endReason: 'caller-hangup' })
    expect(await conversations()).toEqual([expect.objectContaining({ status: 'COMPLETED' })])
  })

  it('ends the call when the page closes its port', async () => {
    const { post, agentId, service } = await registerStreamsOn()
    const port = post({ name: 'calls.test', input: { agentId: await agentId() } })
    await port.waitFor(() => port.frames().some((frame) => frame.type === 'started'), 'started')
    const jobId = (port.frames().find((frame) => frame.type === 'started') as { jobId: string }).jobId
    port.pageCloses()
    const until = Date.now() + 5_000
    let job = await service.runtime.store.jobs.findInProject(jobId, service.runtime.appCaller.projectId)
    while (job?.status !== 'COMPLETED' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      job = await service.runtime.store.jobs.findInProject(jobId, service.runtime.appCaller.projectId)
    }
    expect(job).toMatchObject({ status: 'COMPLETED', jobResponse: { endReason: 'caller-hangup' } })
  })
})

describe("the preload's openStream", () => {
  async function preloadBridge() {
    const expose = vi.spyOn(electron.contextBridge, 'exposeInMainWorld')
    const postMessage = vi.spyOn(electron.ipcRenderer, 'postMessage')
    vi.resetModules()
    await import('../../src/preload/index')
    const bridge = expose.mock.calls[0]![1] as VoiceDeskBridge
    return { bridge, postMessage }
  }

  /** Main's end of the channel, as the preload handed it over (Node's own MessagePort stands for the page's). */
  function mainEnd(postMessage: { mock: { calls: unknown[][] } }): MessagePort {
    const [channel, message, transfer] = postMessage.mock.calls[0]! as [string, unknown, MessagePort[]]
    expect(channel).toBe(IPC_STREAM_CHANNEL)
    expect(message).toEqual({ name: 'calls.test', input: { agentId: 'agent-1' } })
    expect(transfer).toHaveLength(1)
    return transfer[0]!
  }

  it('posts { name, input } with one port, and gives the page four functions over it, never the port', async () => {
    const { bridge, postMessage } = await preloadBridge()
    const handle = bridge.openStream('calls.test', { agentId: 'agent-1' })
    expect(Object.keys(handle).sort()).toEqual(['close', 'onClose', 'onFrame', 'send'])
    expect(Object.values(handle).every((value) => typeof value === 'function')).toBe(true)
    const main = mainEnd(postMessage)
    const fromPage: unknown[] = []
    main.on('message', (frame) => fromPage.push(frame))
    const frames: unknown[] = []
    handle.onFrame((frame) => frames.push(frame))
    const closed = new Promise<IpcStreamClose>((resolve) => handle.onClose(resolve))
    handle.send({ type: 'text', content: 'Hello' })
    main.postMessage({ type: 'activity', activity: 'listening' })
    await vi.waitFor(() => expect(fromPage).toEqual([{ type: 'text', content: 'Hello' }]))
    await vi.waitFor(() => expect(frames).toEqual([{ type: 'activity', activity: 'listening' }]))
    main.close() // main ends the stream
    expect(await closed).toEqual({ kind: 'closed' })
  })

  it("says failed, with the error, when main refused the stream; close() from the page closes main's end", async () => {
    const { bridge, postMessage } = await preloadBridge()
    const refused = bridge.openStream('calls.test', { agentId: 'agent-1' })
    const main = mainEnd(postMessage)
    const closed = new Promise<IpcStreamClose>((resolve) => refused.onClose(resolve))
    const error = { code: 'NOT_FOUND', message: 'No voice agent', details: [] }
    main.postMessage({ type: 'refused', error })
    setTimeout(() => main.close(), 20)
    expect(await closed).toEqual({ kind: 'failed', error })

    postMessage.mockClear()
    const leaving = bridge.openStream('calls.test', { agentId: 'agent-1' })
    const other = mainEnd(postMessage)
    const mainSawClose = new Promise<void>((resolve) => other.once('close', () => resolve()))
    const pageClosed = new Promise<IpcStreamClose>((resolve) => leaving.onClose(resolve))
    leaving.close()
    expect(await pageClosed).toEqual({ kind: 'closed' })
    await mainSawClose
  })
})
