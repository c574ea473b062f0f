import { app, BrowserWindow, dialog, ipcMain, safeStorage, session, shell } from 'electron'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pino } from 'pino'
import { IPC_EVENT_CHANNEL } from '../shared/ipc/operations'
import { createRuntime, type Runtime } from '../service/runtime'
import { installUnhandledRejectionGuard } from '../service/compose/unhandled-rejection-guard'
import { desktopRuntimeConfig } from './desktop-runtime-config'
import { createMainWindow, isOwnWindowFrame, type RendererSource } from './create-window'
import { registerOperations } from './register-operations'
import { registerStreams } from './register-streams'

/**
 * The Electron shell: it hosts the same runtime as `voicedesk serve`, with its data in
 * userData and its secret key kept by safeStorage, opens the window and connects it to the
 * operator UI's handler table over IPC. Everything else lives in src/service.
 *
 * Content-Security-Policy: the page's own <meta> (src/renderer/index.html, checked by the
 * build test) sets it. A header from session.webRequest would not reach the page: the
 * window loads a file:// URL, and file responses have no headers to rewrite.
 */

/** better-sqlite3 compiled for Electron's ABI, beside the Node build (README: "SQLite in two runtimes"). */
function electronSqliteBinding(): string | undefined {
  const candidate = join(app.getAppPath(), 'native', 'electron', 'better_sqlite3.node')
  return existsSync(candidate) ? candidate : undefined
}

const log = pino({ level: process.env.VOICEDESK_LOG_LEVEL ?? 'warn' }, pino.destination(2))
installUnhandledRejectionGuard(() => log)
let runtime: Runtime | undefined
const windows = new Set<BrowserWindow>()

function rendererSource(): RendererSource {
  return process.env.ELECTRON_RENDERER_URL
    ? { url: process.env.ELECTRON_RENDERER_URL }
    : { file: join(__dirname, '../renderer/index.html') }
}

function openWindow(): void {
  const window = createMainWindow({
    BrowserWindow,
    shell,
    preloadPath: join(__dirname, '../preload/index.cjs'),
    renderer: rendererSource(),
  })
  windows.add(window)
  window.on('closed', () => windows.delete(window))
}

/** An app switch's value (`--name=value`), undefined when it was not given. */
function switchValue(name: string): string | undefined {
  return app.commandLine.hasSwitch(name) ? app.commandLine.getSwitchValue(name) : undefined
}

async function startRuntime(): Promise<Runtime> {
  const dataDir = app.getPath('userData')
  const started = await createRuntime(
    desktopRuntimeConfig({
      dataDir,
      nativeBinding: electronSqliteBinding(),
      resourcesDir: app.isPackaged ? join(process.resourcesPath, 'resources') : undefined,
      keychain: safeStorage,
      log,
      maxCallsSwitch: switchValue('max-calls'),
      sipPortSwitch: switchValue('sip-port'),
      sipHostSwitch: switchValue('sip-host'),
    }),
  )
  // A headless service may already hold the default port; the desktop then takes a free one.
  await started.start({ freePortWhenTaken: true })
  return started
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    const [window] = windows
    if (window?.isMinimized()) window.restore()
    window?.focus()
  })
  app
    .whenReady()
    .then(async () => {
      // The page needs no permission (camera, notifications, ...) but writing the clipboard (copy a new key).
      const allowed = (permission: string) => permission === 'clipboard-sanitized-write'
      session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(allowed(permission)))
      session.defaultSession.setPermissionCheckHandler((_contents, permission) => allowed(permission))
      runtime = await startRuntime()
      const renderer = rendererSource()
      registerOperations({
        ipcMain,
        handlers: runtime.operatorHandlers('desktop'),
        isTrustedSender: (event) => isOwnWindowFrame(event, windows, renderer),
        logInternal: (error, operation) => log.error({ err: error, operation }, 'operator UI operation failed'),
      })
      registerStreams({
        ipcMain,
        streams: runtime.operatorStreams,
        isTrustedSender: (event) => isOwnWindowFrame(event, windows, renderer),
        logInternal: (error, stream) => log.error({ err: error, stream }, 'operator UI stream failed'),
      })
      runtime.events.subscribe((event) => {
        for (const window of windows) if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, event)
      })
      openWindow()
      app.on('activate', () => {
        if (windows.size === 0) openWindow()
      })
    })
    .catch((error: unknown) => {
      log.fatal({ err: error }, 'VoiceDesk could not start')
      // A desktop user sees no log: the reason (a data folder it cannot use, say) goes on screen.
      dialog.showErrorBox('VoiceDesk could not start', error instanceof Error ? error.message : String(error))
      app.exit(1)
    })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  // Graceful shutdown: running jobs finish (or go back to the queue), then the database closes.
  app.on('will-quit', (event) => {
    if (!runtime) return
    event.preventDefault()
    const stopping = runtime
    runtime = undefined
    void stopping.stop().finally(() => app.quit())
  })
}
