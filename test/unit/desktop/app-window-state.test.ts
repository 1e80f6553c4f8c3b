// The desktop's main window opens where the operator left it, on a display still there, and
// keeps its place when it is closed (issue 15). The electron module is the recording fake.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))
const start = vi.hoisted(() => ({ startAppCore: vi.fn() }))
vi.mock('../../../src/main/core/app/start', () => start)

import { app, BrowserWindow, FAKE_PATHS, fakeCore, fakeEvent, resetDesktop, screen } from '../../support/fake-electron'
import { startDesktop } from '../../../src/main/desktop/app'

let userData = ''
beforeEach(() => {
  resetDesktop(start.startAppCore, fakeCore)
  userData = mkdtempSync(join(tmpdir(), 'eventwatch-user-data-'))
  app.getPath.mockImplementation((name: string) => (name === 'userData' ? userData : join(FAKE_PATHS, name)))
})
afterEach(() => rmSync(userData, { recursive: true, force: true }))

const opened = async (): Promise<BrowserWindow> => {
  await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1))
  return BrowserWindow.instances[0]!
}
const saveState = (state: object): void => writeFileSync(join(userData, 'window-state.json'), JSON.stringify(state))
const laptop = { id: 1, workArea: { x: 0, y: 0, width: 1366, height: 728 } }
const dock = { id: 2, workArea: { x: 1366, y: 0, width: 1920, height: 1040 } }

describe('the main window\'s place', () => {
  it('opens where it was left, maximized again if it was', async () => {
    screen.getAllDisplays.mockReturnValue([laptop, dock])
    screen.getPrimaryDisplay.mockReturnValue(laptop)
    saveState({ bounds: { x: 1500, y: 60, width: 1600, height: 900 }, maximized: true })
    startDesktop()
    const window = await opened()
    expect(window.options).toMatchObject({ x: 1500, y: 60, width: 1600, height: 900 })
    window.emit('ready-to-show')
    expect(window.maximize).toHaveBeenCalled()
    expect(window.show).toHaveBeenCalled()
  })

  it('opens on the primary display when the one it was on is gone', async () => {
    screen.getAllDisplays.mockReturnValue([laptop])
    screen.getPrimaryDisplay.mockReturnValue(laptop)
    saveState({ bounds: { x: 1500, y: 60, width: 1600, height: 900 }, maximized: false })
    startDesktop()
    const window = await opened()
    expect(window.options).toMatchObject({ x: 0, y: 0, width: 1366, height: 728 })
    window.emit('ready-to-show')
    expect(window.maximize).not.toHaveBeenCalled()
  })

  it('keeps its place when closed, for the next start', async () => {
    screen.getAllDisplays.mockReturnValue([laptop])
    screen.getPrimaryDisplay.mockReturnValue(laptop)
    startDesktop()
    const window = await opened()
    expect(window.options).toMatchObject({ width: 1280, height: 800 }) // nothing saved yet: the default size
    window.getNormalBounds.mockReturnValue({ x: 40, y: 30, width: 1200, height: 700 })
    window.isMaximized.mockReturnValue(true)
    window.emit('close', fakeEvent({}))
    expect(JSON.parse(readFileSync(join(userData, 'window-state.json'), 'utf8'))).toEqual({
      bounds: { x: 40, y: 30, width: 1200, height: 700 },
      maximized: true
    })
  })
})
