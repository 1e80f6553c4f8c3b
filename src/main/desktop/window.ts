// The main window, locked down: the page is untrusted content that reaches the app only
// through the preload's small API.
import { BrowserWindow } from 'electron'
import type { WindowState } from './window-state'

export interface MainWindowOptions {
  /** Absolute path of the bundled (CommonJS) preload script. */
  preloadPath: string
  /** Dev server URL (electron-vite's ELECTRON_RENDERER_URL); when absent, the built file. */
  rendererUrl?: string
  /** Absolute path of the built renderer's index.html. */
  rendererFile: string
  /** Where to open the page (deep-link.ts), e.g. "session/c1/s1"; none: the start view. */
  hash?: string
  /** Called when the page cannot be loaded; defaults to logging. */
  onLoadError?: (error: unknown) => void
  /** Where the operator left the window (window-state.ts); none: Electron's default place. */
  state?: WindowState
}

/** Loads the app's own page, at `hash` if given. Only the hash varies, so the result is always
 *  the app's URL (the navigation guard's rule); on a page already showing, a new hash is a
 *  same-document navigation, not a reload. */
export function loadAppPage(
  window: Pick<BrowserWindow, 'loadURL' | 'loadFile'>,
  page: Pick<MainWindowOptions, 'rendererUrl' | 'rendererFile'>,
  hash?: string
): Promise<void> {
  if (page.rendererUrl) {
    if (!hash) return window.loadURL(page.rendererUrl)
    const url = new URL(page.rendererUrl)
    url.hash = hash
    return window.loadURL(url.href)
  }
  return hash ? window.loadFile(page.rendererFile, { hash }) : window.loadFile(page.rendererFile)
}

export const WINDOW_BACKGROUND = '#0f1115'

export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    title: 'Eventwatch',
    ...(opts.state ? opts.state.bounds : { width: 1280, height: 800 }),
    minWidth: 900,
    minHeight: 600,
    // Matches the dark UI, so there is no white flash before the first paint.
    backgroundColor: WINDOW_BACKGROUND,
    // Shown once painted (ready-to-show), not as an empty frame.
    show: false,
    // Written out here, not built elsewhere: electronegativity (npm test) then checks these
    // very values instead of reporting them as missing.
    webPreferences: {
      preload: opts.preloadPath, // eng-disable PRELOAD_JS_CHECK: reviewed; src/preload/index.ts exposes only request() and on() limited to the contract's names, never ipcRenderer (preload.test.ts)
      // The page and the preload live in separate JS worlds...
      contextIsolation: true,
      // ...the renderer runs in Chromium's OS sandbox (app.enableSandbox() also sandboxes any
      // other renderer)...
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
      // A middle click fires auxclick, which can open a link in a new window without a click
      // handler seeing it; the window open handler denies it anyway, this removes the path.
      disableBlinkFeatures: 'Auxclick',
      // Dropping a file on the window must not navigate to it.
      navigateOnDragDrop: false,
      // A page cannot lock the user out with an endless stream of alert() dialogs.
      safeDialogs: true
    }
  })

  window.once('ready-to-show', () => {
    if (opts.state?.maximized) window.maximize()
    window.show()
  })

  const onLoadError =
    opts.onLoadError ??
    ((error: unknown) => console.error('eventwatch: could not load the UI', error))
  const loading = loadAppPage(window, opts, opts.hash)
  // A failed load must not become an unhandled rejection.
  loading.catch(onLoadError)

  return window
}
