// The desktop face: wires the core to one hardened window over IPC. Order matters —
// hardening is installed before the first webContents exists, and the IPC handlers before
// the page loads and starts asking.
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, session } from 'electron'
import { startAppCore } from '../core/app/start'
import type { AppCore } from '../core/app/types'
import { applyContentSecurityPolicy } from './csp'
import { appFrameCheck, forwardEvents, registerIpcHandlers } from './ipc'
import { electronNativeBindingPath } from './native-binding'
import { hardenAllWebContents, isAppUrl } from './navigation-guard'
import { denyAllPermissions } from './permissions'
import { createMainWindow } from './window'

// electron-vite layout: out/main/index.js, out/preload/index.cjs, out/renderer/index.html.
const here = dirname(fileURLToPath(import.meta.url))

/** One line a person can read in an error box; native-module errors run to many lines. */
export function oneLineReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  const first = text.split('\n', 1)[0]?.trim() || 'Unknown error.'
  return first.length > 300 ? `${first.slice(0, 297)}...` : first
}

export function startDesktop(): void {
  // A second copy would open a second writer on the same SQLite cache.
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }

  const rendererUrl = process.env['ELECTRON_RENDERER_URL'] || undefined
  const rendererFile = join(here, '../renderer/index.html')
  const appOrigin = rendererUrl ? new URL(rendererUrl).origin : pathToFileURL(rendererFile).href
  const appUrlCheck = (url: string): boolean => isAppUrl(url, appOrigin)

  let core: AppCore | undefined
  let mainWindow: BrowserWindow | undefined
  let closing: Promise<void> | undefined
  let closed = false

  const openWindow = (started: AppCore): void => {
    const window = createMainWindow({
      preloadPath: join(here, '../preload/index.cjs'),
      rendererUrl,
      rendererFile
    })
    const stopForwarding = forwardEvents(started, window.webContents)
    window.on('closed', () => {
      stopForwarding()
      if (mainWindow === window) mainWindow = undefined
    })
    mainWindow = window
  }

  // Closes the core once, whoever asks first; never rejects.
  const closeCore = (): Promise<void> => {
    closing ??= Promise.resolve()
      .then(() => core?.close())
      .catch((error: unknown) => console.error('eventwatch: closing the core failed', error))
      .finally(() => {
        closed = true
      })
    return closing
  }

  const fatal = (error: unknown): void => {
    dialog.showErrorBox('Eventwatch could not start', oneLineReason(error))
    // Release the database if it was opened, then leave with a failure status.
    void closeCore().then(() => app.exit(1))
  }

  app.on('second-instance', () => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })

  // Must precede the first window: its webContents is hardened on creation.
  hardenAllWebContents(appUrlCheck)

  const run = async (): Promise<void> => {
    denyAllPermissions(session.defaultSession)
    applyContentSecurityPolicy(session.defaultSession)

    const started = await startAppCore({
      // EVENTWATCH_DB points the app and the CLI at the same other file.
      dbFile: process.env['EVENTWATCH_DB'] || join(app.getPath('userData'), 'eventwatch.db'),
      nativeBinding: electronNativeBindingPath(app.getAppPath(), process.versions.electron ?? '')
    })
    core = started
    registerIpcHandlers(ipcMain, started, appFrameCheck(appUrlCheck))
    openWindow(started)

    // macOS: clicking the dock icon with no window open brings one back.
    app.on('activate', () => {
      if (!mainWindow && !closing) openWindow(started)
    })
  }

  // Quit when the last window closes, except on macOS where apps stay in the dock.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  // Closing the core is asynchronous: hold the quit until the database is closed, then quit
  // again (this time `closed` lets it through).
  app.on('before-quit', (event) => {
    if (!core || closed) return
    event.preventDefault()
    void closeCore().then(() => app.quit())
  })

  app.whenReady().then(run).catch(fatal)
}
