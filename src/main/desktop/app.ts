// The desktop face: wires the core to one hardened window over IPC, a tray and OS
// notifications. Order matters — hardening is installed before the first webContents exists,
// and the IPC handlers before the page loads and starts asking. Closing the window hides it
// (the tray keeps watching); only a quit ends the app.
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, net, Notification, screen, session } from 'electron'
import { startDeskCore } from '../core/app/desk-core'
import { teamConfigFile } from '../core/team/team-config'
import { setDefaultFetch } from '../core/net/connection-fetch'
import type { AlertsChanged } from '../../shared/alerts'
import type { AppSettings } from '../../shared/settings'
import { soundChoiceOf } from '../../shared/alert-sound'
import type { AppCore } from '../core/app/types'
import { applyAppIdentity } from './app-identity'
import { keepRunningOnClose } from './close-to-tray'
import { applyContentSecurityPolicy } from './csp'
import { appTargetHash } from '../../shared/deep-link'
import type { AppTarget } from '../../shared/deep-link'
import { appFrameCheck, forwardEvents, registerIpcHandlers } from './ipc'
import { electronNativeBindingPath } from './native-binding'
import { hardenAllWebContents, isAppUrl } from './navigation-guard'
import { createAlertNotifier } from './notifications'
import { oneTimeHints } from './one-time-hints'
import type { OneTimeHints } from './one-time-hints'
import { denyAllPermissions } from './permissions'
import { createTrayController } from './tray'
import type { TrayController } from './tray'
import { realTimers, type Timers } from '../../shared/timers'
import { createMainWindow, loadAppPage } from './window'
import { currentPlace, startedHidden } from './login-item'
import { keepLoginItem } from './keep-login-item'
import { watchRenderer } from './renderer-watch'
import { followTeam } from './team-desk'
import { startMainLog, type MainLog } from './main-log'
import { installAppImageCommand } from './appimage-command'
import { placeWindow, readWindowState, writeWindowState } from './window-state'
import { deskCacheFile } from '../core/store/cache-location'
import { claimDeskLinks, deskLinks } from './desk-links'
import { alertActor, type ActOnAlert } from './alert-actions'

// electron-vite layout: out/main/index.js, out/preload/index.cjs, out/renderer/index.html.
const here = dirname(fileURLToPath(import.meta.url))

/** One line a person can read in an error box; native-module errors run to many lines. */
export function oneLineReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  const first = text.split('\n', 1)[0]?.trim() || 'Unknown error.'
  return first.length > 300 ? `${first.slice(0, 297)}...` : first
}

export interface DesktopOptions {
  /** The OS to behave as (tests); defaults to process.platform. */
  platform?: NodeJS.Platform
  /** Timers for the tray menu's throttle and the clock for notification pauses (tests). */
  timers?: Timers
  now?: () => number
}

/** An AppImage puts `eventwatch` on the PATH itself (appimage-command.ts); a failure costs only that. */
function offerCommandLine(log: MainLog): void {
  try {
    const outcome = installAppImageCommand(process.env)
    if ('installed' in outcome) log.write('info', `the eventwatch command is ${outcome.installed}`)
  } catch (error) {
    log.write('warn', `could not put the eventwatch command on the PATH: ${oneLineReason(error)}`)
  }
}

export function startDesktop(options: DesktopOptions = {}): void {
  const platform = options.platform ?? process.platform
  const now = options.now ?? Date.now
  // Before any notification can be shown.
  applyAppIdentity(platform)
  // Every renderer sandboxed, not only the windows that ask for it (must precede 'ready').
  app.enableSandbox()

  // A second copy would open a second writer on the same SQLite cache.
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  // From here on, what the main process says is kept on disk too (main-log.ts).
  const log = startMainLog(app.getPath('logs'))
  log.write('info', `Eventwatch ${app.getVersion()} starting (Electron ${process.versions.electron ?? '?'}, pid ${process.pid})`)
  if (platform === 'linux') offerCommandLine(log)

  const rendererUrl = process.env['ELECTRON_RENDERER_URL'] || undefined
  const rendererFile = join(here, '../renderer/index.html')
  const page = { rendererUrl, rendererFile }
  const resourcesDir = join(here, '../../resources')
  const appOrigin = rendererUrl ? new URL(rendererUrl).origin : pathToFileURL(rendererFile).href
  const appUrlCheck = (url: string): boolean => isAppUrl(url, appOrigin)

  let core: AppCore | undefined
  let mainWindow: BrowserWindow | undefined
  let closing: Promise<void> | undefined
  let closed = false
  // Set by any quit (tray menu, Cmd+Q, OS logout): from then on closing the window closes it.
  let quitting = false
  let tray: TrayController | undefined
  let stopNotifying: (() => void) | undefined
  let stopLoginItem: (() => void) | undefined
  let hints: OneTimeHints | undefined

  const openWindow = (started: AppCore, target?: AppTarget): void => {
    // Where the operator left it, on a display still there (window-state.ts).
    const stateFile = join(app.getPath('userData'), 'window-state.json')
    const state = placeWindow(readWindowState(stateFile), screen.getAllDisplays(), screen.getPrimaryDisplay())
    const window = createMainWindow({
      preloadPath: join(here, '../preload/index.cjs'),
      ...page,
      ...(target ? { hash: appTargetHash(target) } : {}),
      ...(state ? { state } : {})
    })
    watchRenderer(window, {
      reload: () => {
        loadAppPage(window, page).catch((error: unknown) => console.error('eventwatch: could not reload the window', error))
      },
      record: (message) => started.recordProblem({ endpoint: 'window', message }),
      notify: (message) => {
        if (Notification.isSupported()) new Notification({ title: 'Eventwatch', body: message, silent: true }).show()
      }
    })
    // Closing hides it to the tray or closes it: either way its place is kept for the next start.
    window.on('close', () => {
      if (!window.isDestroyed()) writeWindowState(stateFile, { bounds: window.getNormalBounds(), maximized: window.isMaximized() })
    })
    hints ??= oneTimeHints(join(app.getPath('userData'), 'desktop-hints.json'))
    // Without a tray there would be no way back to a hidden window: then closing closes.
    keepRunningOnClose(window, { isQuitting: () => quitting || !tray, hints })
    const stopForwarding = forwardEvents(started, window.webContents)
    window.on('closed', () => {
      stopForwarding()
      if (mainWindow === window) mainWindow = undefined
    })
    mainWindow = window
  }

  /** Brings the window up (from the tray, a notification, a second launch), at `target` if given. */
  const showWindow = (target?: AppTarget): void => {
    if (!core || closing) return
    const window = mainWindow
    if (!window || window.isDestroyed()) {
      openWindow(core, target) // shows itself once painted
      return
    }
    if (target) {
      loadAppPage(window, page, appTargetHash(target)).catch((error: unknown) =>
        console.error('eventwatch: could not open that view', error)
      )
    }
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
  }

  const isWindowFocused = (): boolean =>
    !!mainWindow && !mainWindow.isDestroyed() && mainWindow.isVisible() && mainWindow.isFocused()

  // Closes the core once, whoever asks first; never rejects.
  const closeCore = (): Promise<void> => {
    tray?.dispose()
    stopNotifying?.()
    stopLoginItem?.()
    closing ??= Promise.resolve()
      .then(() => core?.close())
      .catch((error: unknown) => console.error('eventwatch: closing the core failed', error))
      .finally(() => {
        closed = true
        log.write('info', 'Eventwatch stopped')
        void log.close()
      })
    return closing
  }

  const fatal = (error: unknown): void => {
    dialog.showErrorBox('Eventwatch could not start', oneLineReason(error))
    // Release the database if it was opened, then leave with a failure status.
    void closeCore().then(() => app.exit(1))
  }

  // eventwatch://session/<c>/<s> links (desk-links.ts): kept until the core and window can take
  // them. A cold start's link is in this process's arguments; macOS sends one as 'open-url',
  // perhaps before 'ready'; a second launch (the lock above sent it away) brings its arguments.
  claimDeskLinks(app)
  const links = deskLinks((target) => showWindow({ view: 'session', ...target }))
  links.fromArgs(process.argv)
  app.on('open-url', (event, url) => {
    event.preventDefault()
    links.fromUrl(url)
  })
  // A second launch brings this one's window up, even from the tray; at the session its link
  // names, if it holds one, and not at all if its link was refused.
  app.on('second-instance', (_event, argv) => {
    if (links.fromArgs(Array.isArray(argv) ? argv : []) === 'none') showWindow()
  })

  // A tray that cannot be created costs the tray, not the app.
  const startTray = (started: AppCore, act: ActOnAlert, mayAct: () => boolean): void => {
    try {
      tray = createTrayController({
        core: started,
        resourcesDir,
        platform,
        open: showWindow,
        quit: () => app.quit(),
        acknowledge: (alertId) => void act(alertId, 'acknowledge'),
        mayAcknowledge: mayAct,
        timers: options.timers ?? realTimers,
        now
      })
    } catch (error) {
      console.error('eventwatch: no tray icon; closing the window will quit', error)
    }
  }

  // Must precede the first window: its webContents is hardened on creation.
  hardenAllWebContents(appUrlCheck)

  const run = async (): Promise<void> => {
    denyAllPermissions(session.defaultSession)
    applyContentSecurityPolicy(session.defaultSession)
    // Chromium's network stack: the system proxy (PAC, WPAD, proxy authentication) and the OS
    // certificate store, as the company set them up. A connection with a proxy or CA of its own
    // keeps undici, set up for exactly that (connection-fetch.ts).
    setDefaultFetch((url, init) => net.fetch(url, init))

    // Its own core, or a team server's (eventwatch team join): every other part is the same.
    const { core: started, team } = await startDeskCore({
      // EVENTWATCH_DB points the app and the CLI at the same other file; a postgres:// URL is a
      // team server's database, and the desktop keeps its own file.
      db: deskCacheFile(process.env['EVENTWATCH_DB'], join(app.getPath('userData'), 'eventwatch.db')),
      nativeBinding: electronNativeBindingPath(app.getAppPath(), process.versions.electron ?? ''),
      // The same file `eventwatch team join` writes (EVENTWATCH_TEAM_FILE overrides).
      teamFile: teamConfigFile()
    })
    core = started
    if (team) log.write('info', 'using a team server: this desk polls nothing itself')
    const teamDesk = team
      ? followTeam(team, () => {
          const window = mainWindow
          if (window && !window.isDestroyed()) {
            loadAppPage(window, page).catch((error: unknown) => console.error('eventwatch: could not reload the window', error))
          }
        })
      : null
    registerIpcHandlers(ipcMain, started, appFrameCheck(appUrlCheck))
    // Settings → Display → each severity's sound, as last saved (every face follows settingsChanged).
    let sounds = soundChoiceOf(undefined)
    void started.dispatch('getSettings', {}).then((result) => {
      if (result.ok) sounds = soundChoiceOf((result.value as AppSettings | undefined)?.display)
    })
    // Acknowledge and snooze from a notification or the tray: the window's requests, to this
    // desk's core (on a team desk the server's, as its user), a refusal told in a notification.
    const act = alertActor(started, (message) => notifier.tell(message))
    const mayAct = (): boolean => teamDesk?.mayAct() ?? true
    const notifier = createAlertNotifier({
      open: showWindow,
      isWindowFocused,
      now,
      sounds: () => sounds,
      self: () => teamDesk?.self() ?? null,
      platform,
      act: (alertId, action) => void act(alertId, action),
      mayAct,
      // A team desk's notification names the server's page, which a teammate can open too.
      linkBase: () => (team ? { kind: 'server', origin: team.origin } : null)
    })
    startTray(started, act, mayAct)
    // Started at login: the tray watches, the window waits to be asked for (not without a tray).
    // A link that came while starting opens it, at its session.
    const linked = links.ready()
    if (linked) openWindow(started, { view: 'session', ...linked })
    else if (!(tray && startedHidden(process.argv, platform))) openWindow(started)
    stopLoginItem = keepLoginItem(started, currentPlace(platform))
    stopNotifying = started.onEvent((name, payload) => {
      if (name === 'alertsChanged') notifier.onAlertsChanged(payload as AlertsChanged)
      if (name === 'settingsChanged') sounds = soundChoiceOf((payload as AppSettings).display)
    })

    // macOS: clicking the dock icon brings the window back.
    app.on('activate', () => showWindow())
  }

  // Closing the window only hides it (close-to-tray.ts), so this runs when windows really
  // close: during a quit. Quit then, except on macOS where apps stay in the dock.
  app.on('window-all-closed', () => {
    if (platform !== 'darwin') app.quit()
  })

  // Closing the core is asynchronous: hold the quit until the database is closed, then quit
  // again (this time `closed` lets it through).
  app.on('before-quit', (event) => {
    quitting = true
    if (!core || closed) return
    event.preventDefault()
    void closeCore().then(() => app.quit())
  })

  app.whenReady().then(run).catch(fatal)
}
