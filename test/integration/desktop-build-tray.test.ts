// The built bundle (out/main/index.js) with a fake 'electron' but the real core and simulator:
// proves the tray finds its icon files from where the bundle lives, lists the simulator's live
// sessions, opens one in the window through the URL hash, and that closing hides the window.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { fakeEvent } from '../support/fake-electron'
import { builtMain as mainBundle, builtRenderer as rendererFile, root, useBuiltDesktop } from '../support/built-desktop'

vi.mock('electron', () => import('../support/fake-electron'))
import { app, BrowserWindow, Tray } from '../support/fake-electron'
import { trayIconPath } from '../../src/main/desktop/tray-icons'

const home = useBuiltDesktop('desktop-tray')

type MenuItem = { label?: string; click?: () => void }

describe('built desktop app: tray', () => {
  it('shows a real icon file, lists live sessions, opens one, and hides on close', async () => {
    await import(/* @vite-ignore */ pathToFileURL(mainBundle).href)
    await vi.waitFor(() => expect(Tray.instances).toHaveLength(1), { timeout: 20_000 })
    const tray = Tray.instances[0]!
    const window = BrowserWindow.instances[0]!

    // The path baked into the bundle reaches resources/ at the project root.
    expect(tray.image.path).toBe(trayIconPath(join(root, 'resources'), 'ok', process.platform))
    expect(existsSync(tray.image.path)).toBe(true)

    // The simulator's live sessions appear in the menu, each with the core's verdict in words.
    const sessionItems = (): MenuItem[] => {
      const menu = tray.setContextMenu.mock.calls.at(-1)?.[0] as { items: MenuItem[] } | undefined
      return (menu?.items ?? []).filter((i) =>
        / — (good|warning|critical|no reliability score|cannot reach the service)(, .+)?$/.test(i.label ?? '')
      )
    }
    await vi.waitFor(() => expect(sessionItems().length).toBeGreaterThan(0), { timeout: 20_000 })
    expect(tray.setToolTip).toHaveBeenCalledWith(expect.stringMatching(/^Eventwatch — /))

    sessionItems()[0]!.click!()
    expect(window.loadFile).toHaveBeenLastCalledWith(rendererFile, { hash: expect.stringMatching(/^session\/[^/]+\/[^/]+$/) })

    // Closing hides; the hint is remembered under userData.
    const close = fakeEvent({})
    window.emit('close', close)
    expect(close.preventDefault).toHaveBeenCalled()
    expect(window.hide).toHaveBeenCalled()
    expect(JSON.parse(readFileSync(join(home, 'userData', 'desktop-hints.json'), 'utf8'))).toMatchObject({
      closeKeepsRunningInTray: true
    })

    // Quit: the core closes, the tray goes.
    const quitEvent = fakeEvent({})
    app.handlers.get('before-quit')?.[0]?.(quitEvent)
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled(), { timeout: 10_000 })
    expect(tray.destroy).toHaveBeenCalled()
  }, 60_000)
})
