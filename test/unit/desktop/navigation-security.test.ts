// The navigation-security suite, desktop side: the real startDesktop wiring (window, hardening,
// IPC, session) with a mocked electron, attacked the ways a page can try to leave the app or
// reach the OS. Each attack is shown failing, next to the one legitimate path succeeding.
import { pathToFileURL } from 'node:url'
import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))
// The real core is not started: the desktop wiring around it is under test.
const start = vi.hoisted(() => ({ startAppCore: vi.fn() }))
vi.mock('../../../src/main/core/app/start', () => start)

import {
  app,
  BrowserWindow,
  fakeCore,
  fakeEvent,
  FakeWebContents,
  ipcMain,
  resetDesktop,
  session,
  shell
} from '../../support/fake-electron'
import { startDesktop } from '../../../src/main/desktop/app'
import { requestChannel, requestNames } from '../../../src/shared/contract'

const DEV_SERVER = 'http://localhost:5173'
const HTTPS_PAGE = 'https://docs.example.com/guide?topic=alerts#rules'

let core: ReturnType<typeof fakeCore>

/** Lets the window open handler's openExternal (queued as a microtask chain) run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Starts the desktop app as packaged (file:) or in development (dev server); returns its
 *  window's webContents and the URL the app itself is shown at. */
async function startApp(mode: 'packaged' | 'dev'): Promise<{ contents: FakeWebContents; appUrl: string }> {
  if (mode === 'dev') process.env['ELECTRON_RENDERER_URL'] = DEV_SERVER
  startDesktop({ platform: 'linux' })
  await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1))
  const window = BrowserWindow.instances[0]!
  const appUrl =
    mode === 'dev' ? `${DEV_SERVER}/` : pathToFileURL(window.loadFile.mock.calls[0]![0]).href
  return { contents: window.webContents, appUrl }
}

/** Fires a navigation event as Electron does (the URL on the event); true if it was stopped. */
function stopped(contents: FakeWebContents, eventName: string, url: string, extra: object = {}): boolean {
  const event = fakeEvent({ url, ...extra })
  contents.emit(eventName, event, url)
  return event.preventDefault.mock.calls.length > 0
}

/** What window.open / target=_blank gets back from the app's open handler. */
function openWindow(contents: FakeWebContents, url: string): unknown {
  expect(contents.windowOpenHandler).toBeTypeOf('function')
  return contents.windowOpenHandler!({ url, frameName: '_blank', features: '', disposition: 'foreground-tab' })
}

beforeEach(() => {
  core = resetDesktop(start.startAppCore, fakeCore)
})

const FOREIGN_PAGES = [
  'https://evil.example/',
  'http://evil.example/',
  'http://localhost:5174/',
  'file:///etc/passwd',
  'file:///tmp/evil/index.html',
  'javascript:alert(document.domain)',
  'data:text/html,<script>alert(1)</script>',
  'eventwatch-evil://run',
  'about:blank'
]

describe.each(['packaged', 'dev'] as const)('the %s desktop app', (mode) => {
  it.each(FOREIGN_PAGES)('a link cannot navigate the window to %s', async (url) => {
    const { contents, appUrl } = await startApp(mode)
    expect(stopped(contents, 'will-navigate', url)).toBe(true)
    // Control: the same guard lets the app move within itself.
    expect(stopped(contents, 'will-navigate', `${appUrl}#/alerts`)).toBe(false)
    expect(shell.openExternal).not.toHaveBeenCalled()
  })

  it.each(FOREIGN_PAGES)('a redirect cannot take the window to %s', async (url) => {
    const { contents, appUrl } = await startApp(mode)
    expect(stopped(contents, 'will-redirect', url, { isMainFrame: true })).toBe(true)
    expect(stopped(contents, 'will-redirect', appUrl, { isMainFrame: true })).toBe(false)
  })

  it('a frame inside the page cannot navigate anywhere but the app', async () => {
    const { contents } = await startApp(mode)
    expect(stopped(contents, 'will-frame-navigate', 'https://evil.example/', { isMainFrame: false })).toBe(true)
    expect(stopped(contents, 'will-frame-navigate', 'javascript:alert(1)', { isMainFrame: false })).toBe(true)
  })

  it('the app other than the exact page is not the app', async () => {
    const { contents, appUrl } = await startApp(mode)
    const sibling = new URL('other.html', appUrl).href
    expect(stopped(contents, 'will-navigate', sibling)).toBe(mode === 'packaged')
  })

  it('target=_blank and window.open never open a window; only https reaches the OS browser, once, as that URL', async () => {
    const { contents, appUrl } = await startApp(mode)
    const refused = [
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<h1>x</h1>',
      'eventwatch-evil://run',
      'ms-msdt:/id PCWDiagnostic',
      'smb://server/share',
      'https://user:secret@example.com/',
      'https://bank.example@evil.example/',
      'https://',
      'HTTP://EXAMPLE.COM/',
      'not a url',
      '',
      appUrl
    ]
    for (const url of [...refused, HTTPS_PAGE]) {
      expect(openWindow(contents, url)).toEqual({ action: 'deny' })
    }
    await settle()
    expect(shell.openExternal).toHaveBeenCalledTimes(1)
    expect(shell.openExternal).toHaveBeenCalledWith(HTTPS_PAGE)
  })

  it('hands the OS the URL as parsed, not the raw text', async () => {
    const { contents } = await startApp(mode)
    expect(openWindow(contents, '  https://docs.example.com/a\tb\n')).toEqual({ action: 'deny' })
    await settle()
    expect(shell.openExternal).toHaveBeenCalledTimes(1)
    expect(shell.openExternal).toHaveBeenCalledWith('https://docs.example.com/ab')
  })

  it('refuses to attach a <webview>, which is also switched off', async () => {
    const { contents } = await startApp(mode)
    const event = fakeEvent({})
    contents.emit('will-attach-webview', event, { preload: '/evil.js' }, { src: 'https://evil.example/' })
    expect(event.preventDefault).toHaveBeenCalled()
    expect(BrowserWindow.instances[0]!.options.webPreferences.webviewTag).toBe(false)
  })

  it('hardens any other webContents the app creates in the same way', async () => {
    await startApp(mode)
    const other = new FakeWebContents()
    app.emit('web-contents-created', fakeEvent({}), other)
    expect(stopped(other, 'will-navigate', 'https://evil.example/')).toBe(true)
    expect(openWindow(other, 'http://example.com/')).toEqual({ action: 'deny' })
    await settle()
    expect(shell.openExternal).not.toHaveBeenCalled()
  })

  describe('IPC', () => {
    const ask = (senderFrame: unknown) =>
      ipcMain.handlers.get(requestChannel('getStatus'))!({ senderFrame }, {}) as Promise<unknown>

    it('answers the app page itself (control)', async () => {
      const { appUrl } = await startApp(mode)
      await expect(ask({ url: appUrl, parent: null })).resolves.toEqual({ ok: true, value: 'result' })
    })

    it.each(requestNames)('refuses %s from an iframe, a navigated-away frame and a foreign page', async (name) => {
      const { appUrl } = await startApp(mode)
      // The tray asks the core for itself at start; only the page's requests count here.
      await vi.waitFor(() => expect(core.dispatch).toHaveBeenCalled())
      core.dispatch.mockClear()
      const handler = ipcMain.handlers.get(requestChannel(name))!
      const senders = [
        { url: appUrl, parent: { url: appUrl, parent: null } }, // an iframe showing the app
        null, // the frame navigated away or is gone
        { url: 'https://evil.example/', parent: null }
      ]
      for (const senderFrame of senders) {
        await expect(handler({ senderFrame }, {})).resolves.toMatchObject({
          ok: false,
          error: { code: 'forbidden-sender' }
        })
      }
      expect(core.dispatch).not.toHaveBeenCalled()
    })

    it('listens on the contract channels only', async () => {
      await startApp(mode)
      expect([...ipcMain.handlers.keys()].sort()).toEqual(requestNames.map(requestChannel).sort())
    })
  })

  it('denies every permission request and check', async () => {
    await startApp(mode)
    const requestHandler = session.defaultSession.setPermissionRequestHandler.mock.calls[0]![0]
    const checkHandler = session.defaultSession.setPermissionCheckHandler.mock.calls[0]![0]
    const deviceHandler = session.defaultSession.setDevicePermissionHandler.mock.calls[0]![0]
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen']) {
      const callback = vi.fn()
      requestHandler({}, permission, callback, { requestingUrl: 'https://evil.example/' })
      expect(callback).toHaveBeenCalledExactlyOnceWith(false)
      expect(checkHandler({}, permission, 'https://evil.example/', {})).toBe(false)
    }
    expect(deviceHandler({ deviceType: 'usb', origin: 'https://evil.example' })).toBe(false)
  })

  it('sandboxes every renderer before the app is ready', async () => {
    await startApp(mode)
    expect(app.enableSandbox).toHaveBeenCalled()
    expect(app.enableSandbox.mock.invocationCallOrder[0]).toBeLessThan(app.whenReady.mock.invocationCallOrder[0]!)
  })
})
