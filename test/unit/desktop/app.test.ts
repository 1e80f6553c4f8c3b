import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))
// The real core is not started here: startDesktop's wiring is what is under test.
const start = vi.hoisted(() => ({ startAppCore: vi.fn() }))
vi.mock('../../../src/main/core/app/start', () => start)

import {
  app,
  BrowserWindow,
  dialog,
  FAKE_PATHS,
  fakeCore,
  fakeEvent,
  ipcMain,
  resetDesktop,
  session
} from '../../support/fake-electron'
import { oneLineReason, startDesktop } from '../../../src/main/desktop/app'
import { requestChannel, requestNames } from '../../../src/shared/contract'

let core: ReturnType<typeof fakeCore>

beforeEach(() => {
  core = resetDesktop(start.startAppCore, fakeCore)
})

const started = () => vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1))

describe('startDesktop', () => {
  it('quits at once when another instance holds the lock', () => {
    app.requestSingleInstanceLock.mockReturnValue(false)
    startDesktop()
    expect(app.quit).toHaveBeenCalled()
    expect(app.whenReady).not.toHaveBeenCalled()
    expect(start.startAppCore).not.toHaveBeenCalled()
  })

  it('hardens the session, starts the core, registers IPC and opens the window', async () => {
    startDesktop()
    await started()

    expect(app.handlers.has('web-contents-created')).toBe(true)
    expect(session.defaultSession.setPermissionRequestHandler).toHaveBeenCalled()
    expect(session.defaultSession.setPermissionCheckHandler).toHaveBeenCalled()
    expect(session.defaultSession.webRequest.onHeadersReceived).toHaveBeenCalled()

    expect(start.startAppCore).toHaveBeenCalledWith(
      expect.objectContaining({ db: join(FAKE_PATHS, 'userData', 'eventwatch.db') })
    )
    expect([...ipcMain.handlers.keys()].sort()).toEqual(requestNames.map(requestChannel).sort())

    const window = BrowserWindow.instances[0]!
    expect(window.options.webPreferences.preload).toMatch(/preload[\\/]index\.cjs$/)
    expect(window.options.webPreferences.sandbox).toBe(true)
    expect(window.loadFile).toHaveBeenCalledWith(expect.stringMatching(/renderer[\\/]index\.html$/))
    expect(core.onEvent).toHaveBeenCalled()
  })

  it('trusts IPC only from the app page, in dev from the dev server origin', async () => {
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173'
    startDesktop()
    await started()
    expect(BrowserWindow.instances[0]!.loadURL).toHaveBeenCalledWith('http://localhost:5173')

    const handler = ipcMain.handlers.get(requestChannel('getStatus'))!
    // The tray asks the core for itself at start; only the page's requests matter here.
    await vi.waitFor(() => expect(core.dispatch).toHaveBeenCalled())
    core.dispatch.mockClear()
    await expect(
      handler({ senderFrame: { url: 'https://evil.example/', parent: null } }, {})
    ).resolves.toMatchObject({ ok: false, error: { code: 'forbidden-sender' } })
    expect(core.dispatch).not.toHaveBeenCalled()

    await expect(
      handler({ senderFrame: { url: 'http://localhost:5173/', parent: null } }, {})
    ).resolves.toEqual({ ok: true, value: 'result' })
    expect(core.dispatch).toHaveBeenCalledWith('getStatus', {})
  })

  it('shows one clear line and exits when the core cannot start', async () => {
    start.startAppCore.mockRejectedValue(
      new Error('The module was compiled against a different Node.js version\nusing NODE_MODULE_VERSION 127')
    )
    startDesktop()
    await vi.waitFor(() => expect(app.exit).toHaveBeenCalledWith(1))
    expect(dialog.showErrorBox).toHaveBeenCalledWith(
      'Eventwatch could not start',
      'The module was compiled against a different Node.js version'
    )
    expect(BrowserWindow.instances).toHaveLength(0)
  })

  it('closes the core before quitting', async () => {
    startDesktop()
    await started()

    const first = fakeEvent({})
    app.emit('before-quit', first)
    expect(first.preventDefault).toHaveBeenCalled()
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled())
    expect(core.close).toHaveBeenCalledTimes(1)

    // The second quit, once closed, goes through.
    const second = fakeEvent({})
    app.emit('before-quit', second)
    expect(second.preventDefault).not.toHaveBeenCalled()
    expect(core.close).toHaveBeenCalledTimes(1)
  })

  it('quits when the last window closes (except on macOS)', async () => {
    startDesktop()
    await started()
    app.emit('window-all-closed')
    if (process.platform === 'darwin') expect(app.quit).not.toHaveBeenCalled()
    else expect(app.quit).toHaveBeenCalled()
  })

  it('focuses the existing window when a second instance starts', async () => {
    startDesktop()
    await started()
    const window = BrowserWindow.instances[0]!
    window.isMinimized.mockReturnValue(true)
    app.emit('second-instance', fakeEvent({}), [], '/')
    expect(window.restore).toHaveBeenCalled()
    expect(window.focus).toHaveBeenCalled()
  })

  it('stops forwarding events when the window closes', async () => {
    startDesktop()
    await started()
    // The window's forwarding is one listener; the tray and the notifier hold their own.
    const listening = core.listenerCount()
    BrowserWindow.instances[0]!.emit('closed')
    expect(core.listenerCount()).toBe(listening - 1)
    BrowserWindow.instances[0]!.webContents.send.mockClear()
    core.push('statusChanged', {})
    expect(BrowserWindow.instances[0]!.webContents.send).not.toHaveBeenCalled()
  })
})

describe('oneLineReason', () => {
  it('keeps the first line of an error, bounded', () => {
    expect(oneLineReason(new Error('first\nsecond'))).toBe('first')
    expect(oneLineReason('plain')).toBe('plain')
    expect(oneLineReason(new Error(''))).toBe('Unknown error.')
    expect(oneLineReason(new Error('x'.repeat(1000))).length).toBeLessThanOrEqual(300)
  })
})
