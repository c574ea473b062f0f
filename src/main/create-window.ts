import type { BrowserWindow, BrowserWindowConstructorOptions, IpcMainInvokeEvent, Shell } from 'electron'
import { pathToFileURL } from 'node:url'

/** Where the window's page comes from: the built renderer file, or electron-vite's dev server. */
export type RendererSource = { file: string } | { url: string }

export interface CreateWindowOptions {
  /** electron's BrowserWindow class (a parameter, so tests can pass a stand-in). */
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow
  shell: Pick<Shell, 'openExternal'>
  preloadPath: string
  renderer: RendererSource
}

/** The URL the window's own page has: navigation and IPC are allowed for it alone. */
export function rendererUrlOf(renderer: RendererSource): string {
  return 'file' in renderer ? pathToFileURL(renderer.file).href : renderer.url
}

/** Whether `url` is the app's page (any fragment or query; the renderer routes with the hash). */
export function isAppPage(url: string, renderer: RendererSource): boolean {
  const app = new URL(rendererUrlOf(renderer))
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return false
  }
  if ('file' in renderer) return target.protocol === 'file:' && target.pathname === app.pathname
  return target.origin === app.origin
}

/** Whether a permission asked by `requestingUrl` is the microphone ('media') for the app's own page. */
export function isMicrophonePermission(permission: string, requestingUrl: string | undefined, renderer: RendererSource): boolean {
  return permission === 'media' && requestingUrl !== undefined && isAppPage(requestingUrl, renderer)
}

/** Opens http(s) links in the user's browser; every other scheme (file:, javascript:, custom) is dropped. */
export function openExternalLink(shell: Pick<Shell, 'openExternal'>, url: string): void {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return
  }
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') void shell.openExternal(parsed.href)
}

/**
 * The main window: isolated, sandboxed, without Node; its only bridge is the preload's
 * named operations. It opens no other window (links go to the browser) and never navigates
 * away from its own page.
 */
export function createMainWindow(options: CreateWindowOptions): BrowserWindow {
  const window = new options.BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'VoiceDesk',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  })
  window.once('ready-to-show', () => window.show())
  window.webContents.setWindowOpenHandler(({ url }) => {
    openExternalLink(options.shell, url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event, url) => {
    if (isAppPage(url, options.renderer)) return
    event.preventDefault()
    openExternalLink(options.shell, url)
  })
  window.webContents.on('will-attach-webview', (event) => event.preventDefault())
  // The microphone for test calls, for our own page alone; every other permission is refused
  // (Electron grants all of them when no handler is set).
  const { session } = window.webContents
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    const audioOnly = !('mediaTypes' in details) || (details.mediaTypes ?? []).every((type) => type === 'audio')
    callback(contents === window.webContents && audioOnly && isMicrophonePermission(permission, details.requestingUrl, options.renderer))
  })
  session.setPermissionCheckHandler(
    (contents, permission, _origin, details) =>
      contents === window.webContents &&
      details.mediaType !== 'video' &&
      isMicrophonePermission(permission, details.requestingUrl ?? contents.getURL(), options.renderer),
  )
  if ('url' in options.renderer) void window.loadURL(options.renderer.url)
  else void window.loadFile(options.renderer.file)
  return window
}

/**
 * Whether an IPC call comes from the top frame of one of `windows`, showing the app's page:
 * not from an iframe, another window or a page the window was somehow taken to.
 */
export function isOwnWindowFrame(
  event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  windows: Iterable<BrowserWindow>,
  renderer: RendererSource,
): boolean {
  const frame = event.senderFrame
  if (!frame || frame.parent !== null) return false
  for (const window of windows) {
    if (!window.isDestroyed() && window.webContents === event.sender) return isAppPage(frame.url, renderer)
  }
  return false
}
