import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))

import { BrowserWindow, resetFakeElectron } from '../../support/fake-electron'
import { createMainWindow } from '../../../src/main/desktop/window'

const PRELOAD = '/app/out/preload/index.cjs'
const FILE = '/app/out/renderer/index.html'

const lastWindow = (): BrowserWindow => {
  const window = BrowserWindow.instances.at(-1)
  if (!window) throw new Error('no window created')
  return window
}

describe('createMainWindow', () => {
  beforeEach(() => resetFakeElectron())

  it('creates the window with the hardened preferences and the preload path', () => {
    createMainWindow({ preloadPath: PRELOAD, rendererFile: FILE })
    const { options } = lastWindow()
    // Every preference, exactly: a new one (e.g. enableBlinkFeatures) must be looked at here.
    expect(options.webPreferences).toEqual({
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      disableBlinkFeatures: 'Auxclick',
      navigateOnDragDrop: false,
      safeDialogs: true
    })
    expect(options).toMatchObject({
      title: 'Eventwatch',
      width: 1280,
      height: 800,
      minWidth: 900,
      minHeight: 600,
      backgroundColor: '#0f1115',
      show: false
    })
  })

  it('shows the window only once it is ready to show', () => {
    createMainWindow({ preloadPath: PRELOAD, rendererFile: FILE })
    const window = lastWindow()
    expect(window.show).not.toHaveBeenCalled()
    window.emit('ready-to-show')
    expect(window.show).toHaveBeenCalledTimes(1)
  })

  it('loads the built file in production', () => {
    createMainWindow({ preloadPath: PRELOAD, rendererFile: FILE })
    expect(lastWindow().loadFile).toHaveBeenCalledWith(FILE)
    expect(lastWindow().loadURL).not.toHaveBeenCalled()
  })

  it('loads the dev server URL when given', () => {
    createMainWindow({ preloadPath: PRELOAD, rendererFile: FILE, rendererUrl: 'http://localhost:5173' })
    expect(lastWindow().loadURL).toHaveBeenCalledWith('http://localhost:5173')
    expect(lastWindow().loadFile).not.toHaveBeenCalled()
  })

  it('opens the page at a hash, still on the app\'s own URL', () => {
    createMainWindow({ preloadPath: PRELOAD, rendererFile: FILE, hash: 'session/c1/s1' })
    expect(lastWindow().loadFile).toHaveBeenCalledWith(FILE, { hash: 'session/c1/s1' })
    createMainWindow({ preloadPath: PRELOAD, rendererFile: FILE, rendererUrl: 'http://localhost:5173', hash: 'alerts' })
    expect(lastWindow().loadURL).toHaveBeenCalledWith('http://localhost:5173/#alerts')
  })

  it('reports a failed load instead of leaving an unhandled rejection', async () => {
    const failure = new Error('ERR_FILE_NOT_FOUND')
    BrowserWindow.load = async () => {
      throw failure
    }
    const onLoadError = vi.fn()
    createMainWindow({ preloadPath: PRELOAD, rendererFile: FILE, onLoadError })
    await vi.waitFor(() => expect(onLoadError).toHaveBeenCalledWith(failure))
  })
})
