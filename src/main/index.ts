import { app, BrowserWindow, ipcMain, shell } from 'electron'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createRuntime, type Runtime } from '../service/runtime'

/**
 * The Electron shell: it hosts the same runtime as `voicedesk serve`, with its data in
 * userData, and opens the window. Everything else lives in src/service.
 */

/** better-sqlite3 compiled for Electron's ABI, beside the Node build (README: "SQLite in two runtimes"). */
function electronSqliteBinding(): string | undefined {
  const candidate = join(app.getAppPath(), 'native', 'electron', 'better_sqlite3.node')
  return existsSync(candidate) ? candidate : undefined
}

let runtime: Runtime | undefined
let serviceUrl = ''

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    show: false,
    title: 'VoiceDesk',
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  })
  window.once('ready-to-show', () => window.show())
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:/.test(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  if (process.env.ELECTRON_RENDERER_URL) void window.loadURL(process.env.ELECTRON_RENDERER_URL)
  else void window.loadFile(join(__dirname, '../renderer/index.html'))
}

async function startRuntime(): Promise<void> {
  runtime = await createRuntime({
    dataDir: app.getPath('userData'),
    nativeBinding: electronSqliteBinding(),
    resourcesDir: app.isPackaged ? join(process.resourcesPath, 'resources') : undefined,
  })
  serviceUrl = await runtime.start().catch((error: NodeJS.ErrnoException) => {
    // A headless service may already hold the default port; the desktop then takes a free one.
    if (error.code === 'EADDRINUSE') return runtime!.app.listen({ port: 0, host: '127.0.0.1' })
    throw error
  })
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => BrowserWindow.getAllWindows()[0]?.focus())
  ipcMain.handle('service:info', () => ({ url: serviceUrl }))
  app.whenReady().then(async () => {
    await startRuntime()
    createWindow()
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow()
    })
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('will-quit', (event) => {
    if (!runtime) return
    event.preventDefault()
    const stopping = runtime
    runtime = undefined
    void stopping.stop().finally(() => app.quit())
  })
}
