import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))

import { BrowserWindow, dialog, fakeEvent, Notification, resetFakeElectron } from '../../support/fake-electron'
import { keepRunningOnClose, TRAY_HINT_KEY, TRAY_HINT_TITLE } from '../../../src/main/desktop/close-to-tray'
import { oneTimeHints } from '../../../src/main/desktop/one-time-hints'

let dir: string
let file: string

beforeEach(() => {
  resetFakeElectron()
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-hints-'))
  file = join(dir, 'userData', 'desktop-hints.json')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function windowKeptInTray(isQuitting = () => false) {
  const window = new BrowserWindow({})
  keepRunningOnClose(window as never, { isQuitting, hints: oneTimeHints(file) })
  return window
}

const hintsShown = () => Notification.instances.filter((n) => n.options['title'] === TRAY_HINT_TITLE)

describe('closing the window', () => {
  it('hides it instead, and says so the first time only', () => {
    const window = windowKeptInTray()
    const first = fakeEvent({})
    window.emit('close', first)
    expect(first.preventDefault).toHaveBeenCalled()
    expect(window.hide).toHaveBeenCalledTimes(1)
    expect(hintsShown()).toHaveLength(1)
    expect(hintsShown()[0]!.show).toHaveBeenCalled()

    window.emit('close', fakeEvent({}))
    expect(window.hide).toHaveBeenCalledTimes(2)
    expect(hintsShown()).toHaveLength(1)
  })

  it('remembers across restarts that it has said so', () => {
    windowKeptInTray().emit('close', fakeEvent({}))
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ [TRAY_HINT_KEY]: true })
    // A new run reads the file afresh.
    windowKeptInTray().emit('close', fakeEvent({}))
    expect(hintsShown()).toHaveLength(1)
  })

  it('lets the window close during a quit', () => {
    const window = windowKeptInTray(() => true)
    const event = fakeEvent({})
    window.emit('close', event)
    expect(event.preventDefault).not.toHaveBeenCalled()
    expect(window.hide).not.toHaveBeenCalled()
    expect(hintsShown()).toHaveLength(0)
  })

  it('uses a dialog where the OS has no notifications', () => {
    Notification.isSupported.mockReturnValue(false)
    windowKeptInTray().emit('close', fakeEvent({}))
    expect(hintsShown()).toHaveLength(0)
    expect(dialog.showMessageBox).toHaveBeenCalledWith(expect.objectContaining({ message: TRAY_HINT_TITLE }))
  })

  it('treats a damaged hints file as empty, and repairs it', () => {
    windowKeptInTray().emit('close', fakeEvent({})) // creates the folder
    writeFileSync(file, '{ not json')
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    windowKeptInTray().emit('close', fakeEvent({}))
    expect(error).toHaveBeenCalledWith(expect.stringContaining('unreadable hints file'))
    error.mockRestore()
    expect(hintsShown()).toHaveLength(2)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ [TRAY_HINT_KEY]: true })
  })
})
