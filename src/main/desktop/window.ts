// The main window, locked down: the page is untrusted content that reaches the app only
// through the preload's small API.
import { BrowserWindow } from 'electron'
import type { WebPreferences } from 'electron'

export interface MainWindowOptions {
  /** Absolute path of the bundled (CommonJS) preload script. */
  preloadPath: string
  /** Dev server URL (electron-vite's ELECTRON_RENDERER_URL); when absent, the built file. */
  rendererUrl?: string
  /** Absolute path of the built renderer's index.html. */
  rendererFile: string
  /** Called when the page cannot be loaded; defaults to logging. */
  onLoadError?: (error: unknown) => void
}

export const WINDOW_BACKGROUND = '#0f1115'

/** The hardened web preferences, exported so tests can assert every one. */
export function hardenedWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    // The page and the preload live in separate JS worlds...
    contextIsolation: true,
    // ...the renderer runs in Chromium's OS sandbox...
    sandbox: true,
    // ...and no Node in the page, its workers or its frames.
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    // Same-origin policy on, no http content inside the app, no <webview>.
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    // Dropping a file on the window must not navigate to it.
    navigateOnDragDrop: false,
    // A page cannot lock the user out with an endless stream of alert() dialogs.
    safeDialogs: true
  }
}

export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    title: 'Eventwatch',
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    // Matches the dark UI, so there is no white flash before the first paint.
    backgroundColor: WINDOW_BACKGROUND,
    // Shown once painted (ready-to-show), not as an empty frame.
    show: false,
    webPreferences: hardenedWebPreferences(opts.preloadPath)
  })

  window.once('ready-to-show', () => window.show())

  const onLoadError =
    opts.onLoadError ??
    ((error: unknown) => console.error('eventwatch: could not load the UI', error))
  const loading = opts.rendererUrl
    ? window.loadURL(opts.rendererUrl)
    : window.loadFile(opts.rendererFile)
  // A failed load must not become an unhandled rejection.
  loading.catch(onLoadError)

  return window
}
