// The desk's protocol handler, wired by startDesktop with a fake electron: the app claims
// eventwatch:// links, and a session link from a cold start's arguments, a second launch's, or
// macOS's 'open-url' before 'ready' lands the window on that session; a hostile link does
// nothing but leave one escaped line in the log.
import { resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))
const start = vi.hoisted(() => ({ startAppCore: vi.fn() }))
vi.mock('../../../src/main/core/app/start', () => start)

import { app, BrowserWindow, fakeEvent, resetDesktop } from '../../support/fake-electron'
import { answeringCore, world } from './alert-fixtures'
import { startDesktop } from '../../../src/main/desktop/app'
import { claimDeskLinks, deskLinks, refusedLinkLine } from '../../../src/main/desktop/desk-links'
import { sessionLink } from '../../../src/shared/session-link'

const argv = process.argv
let warn: MockInstance<typeof console.warn>

beforeEach(() => {
  resetDesktop(start.startAppCore, () => answeringCore(world()))
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
})
afterEach(() => {
  process.argv = argv
  warn.mockRestore()
})

const LINK = sessionLink({ kind: 'desk' }, { connectionId: 'c1', eventSessionId: 'town/hall' })
const HASH = 'session/c1/town%2Fhall'
const HOSTILE = 'eventwatch://session/c1/s1?\u001b[31mowned\u001b]0;title\u0007\u202e'

const started = () => vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1))
/** Every hash the window was sent to (loadFile's options), in order. */
const hashes = (window: BrowserWindow): unknown[] => window.loadFile.mock.calls.map((call) => (call as unknown[])[1])
const loggedLines = (): string[] => warn.mock.calls.map((call) => String(call[0]))

describe('eventwatch:// links on the desk', () => {
  it('claims the eventwatch scheme when it starts', async () => {
    startDesktop({ platform: 'linux' })
    await started()
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('eventwatch')
  })

  it('run from the sources, registers Electron with the app as its argument', () => {
    claimDeskLinks(app as never, { defaultApp: true, execPath: '/opt/electron', argv: ['/opt/electron', 'out/main/index.js'] })
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('eventwatch', '/opt/electron', [resolve('out/main/index.js')])
  })

  it('a cold start with a link in its arguments opens the window on that session', async () => {
    process.argv = ['/opt/Eventwatch/eventwatch', LINK]
    startDesktop({ platform: 'linux' })
    await started()
    expect(hashes(BrowserWindow.instances[0]!)).toEqual([{ hash: HASH }])
  })

  it('a second launch with a link brings the window up on that session', async () => {
    startDesktop({ platform: 'win32' })
    await started()
    const window = BrowserWindow.instances[0]!
    window.emit('close', fakeEvent({}))
    // Windows adds a trailing '/' to a protocol argument, and Chromium's switches come first.
    app.emit('second-instance', fakeEvent({}), ['C:\\Eventwatch\\Eventwatch.exe', '--allow-file-access-from-files', `${LINK}/`], 'C:\\')
    expect(hashes(window).at(-1)).toEqual({ hash: HASH })
    expect(window.show).toHaveBeenCalled()
    expect(window.focus).toHaveBeenCalled()
    expect(BrowserWindow.instances).toHaveLength(1)
  })

  it("macOS's open-url before 'ready' is kept until the window exists, then opens it there", async () => {
    let ready!: () => void
    app.whenReady.mockImplementation(() => new Promise<undefined>((resolve) => (ready = () => resolve(undefined))))
    startDesktop({ platform: 'darwin' })
    const openUrl = fakeEvent({})
    app.emit('open-url', openUrl, LINK)
    expect(openUrl.preventDefault).toHaveBeenCalled()
    expect(BrowserWindow.instances).toHaveLength(0)
    ready()
    await started()
    expect(hashes(BrowserWindow.instances[0]!)).toEqual([{ hash: HASH }])
  })

  it('open-url once running takes the window there', async () => {
    startDesktop({ platform: 'darwin' })
    await started()
    app.emit('open-url', fakeEvent({}), sessionLink({ kind: 'desk' }, { connectionId: 'c2', eventSessionId: 's2' }))
    expect(hashes(BrowserWindow.instances[0]!).at(-1)).toEqual({ hash: 'session/c2/s2' })
  })

  it('a hostile link does nothing, and is logged in one line with its control characters escaped', async () => {
    process.argv = ['/opt/Eventwatch/eventwatch', HOSTILE]
    let ready!: () => void
    app.whenReady.mockImplementation(() => new Promise<undefined>((resolve) => (ready = () => resolve(undefined))))
    startDesktop({ platform: 'darwin' })
    app.emit('open-url', fakeEvent({}), 'eventwatch://session/c1/s1/../../settings')
    ready()
    await started()
    const window = BrowserWindow.instances[0]!
    // The start view: neither link took the window anywhere.
    expect(hashes(window)).toEqual([undefined])

    window.show.mockClear()
    app.emit('second-instance', fakeEvent({}), ['eventwatch', 'EVENTWATCH://alerts'], '/')
    app.emit('open-url', fakeEvent({}), 'eventwatch://session/c1/%E0%A4%A/s1')
    expect(hashes(window)).toEqual([undefined])
    expect(window.show).not.toHaveBeenCalled()

    const lines = loggedLines()
    expect(lines).toHaveLength(4)
    for (const line of lines) {
      expect(line).toMatch(/^eventwatch: ignored a link that is not an Eventwatch session link: "/)
      expect(line).not.toMatch(/[\p{Cc}\p{Cf}]/u)
    }
    expect(lines[0]).toContain('\\u001b[31mowned\\u001b]0;title\\u0007\\u202e')
  })

  it('a second launch without a link still brings the window up, as before', async () => {
    startDesktop({ platform: 'linux' })
    await started()
    const window = BrowserWindow.instances[0]!
    app.emit('second-instance', fakeEvent({}), ['/usr/bin/eventwatch', '--hidden'], '/')
    expect(window.show).toHaveBeenCalled()
    expect(hashes(window)).toEqual([undefined])
    expect(loggedLines()).toEqual([])
  })
})

describe('deskLinks', () => {
  it('keeps only the last link that came before ready, then opens later ones at once', () => {
    const open = vi.fn()
    const links = deskLinks(open, () => undefined)
    links.fromUrl('eventwatch://session/a/1')
    links.fromUrl('eventwatch://session/b/2')
    expect(open).not.toHaveBeenCalled()
    expect(links.ready()).toEqual({ connectionId: 'b', eventSessionId: '2' })
    links.fromArgs(['x', 'eventwatch://session/c/3'])
    expect(open).toHaveBeenCalledWith({ connectionId: 'c', eventSessionId: '3' })
  })

  it('bounds the refused line however long the link', () => {
    expect(refusedLinkLine(`eventwatch://${'x'.repeat(100_000)}`).length).toBeLessThan(300)
  })
})
