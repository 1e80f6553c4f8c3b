// The desktop face as built: out/main/index.js and out/preload/index.cjs, with a fake 'electron'
// (no Electron binary can run here) but the real core, simulator and SQLite behind them. Proves
// the bundle paths line up and a request makes the whole trip: preload -> IPC -> core -> back,
// and a push makes the way back: core -> webContents.send -> preload -> page listener.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { runInNewContext } from 'node:vm'
import { describe, expect, it, vi } from 'vitest'
import type { DesktopBridge } from '../../src/shared/client'
import { fakeEvent } from '../support/fake-electron'
import { builtMain as mainBundle, builtPreload as preloadBundle, builtRenderer as rendererFile, useBuiltDesktop } from '../support/built-desktop'

vi.mock('electron', () => import('../support/fake-electron'))
import { app, BrowserWindow, ipcMain } from '../support/fake-electron'

const home = useBuiltDesktop('desktop')

/** Runs the preload bundle as a sandboxed preload would: CommonJS, only 'electron' to require. */
function loadPreload(ipcRenderer: object): DesktopBridge {
  let exposed: { key: string; api: DesktopBridge } | undefined
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: DesktopBridge) => (exposed = { key, api }) },
    ipcRenderer
  }
  const module = { exports: {} }
  const require = (id: string): unknown => {
    if (id === 'electron') return electron
    throw new Error(`a sandboxed preload cannot require "${id}"`)
  }
  runInNewContext(readFileSync(preloadBundle, 'utf8'), { require, module, exports: module.exports, console })
  expect(exposed?.key).toBe('eventwatch')
  return exposed!.api
}

describe('built desktop app with a fake electron', () => {
  it('opens a hardened window on the built files and serves the app API over IPC', async () => {
    await import(/* @vite-ignore */ pathToFileURL(mainBundle).href)
    await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1), { timeout: 20_000 })
    const window = BrowserWindow.instances[0]!

    // The paths baked into the bundle point at files the build produced.
    const prefs = window.options.webPreferences
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false })
    expect(prefs.preload).toBe(preloadBundle)
    expect(window.loadFile).toHaveBeenCalledWith(rendererFile)
    expect(existsSync(join(home, 'userData', 'eventwatch.db'))).toBe(true)

    // Wire a fake IPC: invoke reaches ipcMain's handler as if sent by the app's own frame.
    const appFrame = { url: pathToFileURL(rendererFile).href, parent: null }
    const pageListeners = new Map<string, ((event: unknown, payload: unknown) => void)[]>()
    const ipcRenderer = {
      invoke: async (channel: string, args: unknown) => {
        const handler = ipcMain.handlers.get(channel)
        if (!handler) throw new Error(`no handler for ${channel}`)
        return handler(fakeEvent({ senderFrame: appFrame }), structuredClone(args))
      },
      on: (channel: string, listener: (event: unknown, payload: unknown) => void) => {
        pageListeners.set(channel, [...(pageListeners.get(channel) ?? []), listener])
      },
      removeListener: () => undefined
    }
    window.webContents.send.mockImplementation((channel: string, payload: unknown) => {
      for (const listener of pageListeners.get(channel) ?? []) listener({ sender: 'not for the page' }, structuredClone(payload))
    })
    const bridge = loadPreload(ipcRenderer)
    expect(Object.keys(bridge).sort()).toEqual(['on', 'request'])

    // A push from the core reaches the page as its payload alone.
    const pushes: unknown[] = []
    bridge.on('sessionsChanged', (payload) => pushes.push(payload))
    await vi.waitFor(() => expect(pushes.length).toBeGreaterThan(0), { timeout: 20_000 })
    // The push carries the live rows, each with the core's verdict on it.
    expect(pushes[0]).toMatchObject({ revision: expect.any(Number), liveCount: expect.any(Number), rows: expect.any(Array) })

    const status = (await bridge.request('getStatus', {})) as { ok: boolean; value: { mode: string } }
    expect(status).toMatchObject({ ok: true, value: { mode: 'demo' } })
    const live = (await bridge.request('listLiveSessions', {})) as { ok: boolean; value: { revision: number; sessions: unknown[] } }
    expect(live.ok).toBe(true)
    expect(live.value.sessions.length).toBeGreaterThan(0)
    expect(live.value.sessions[0]).toMatchObject({ health: expect.any(String) })
    expect(live.value.sessions[0]).toHaveProperty('alert')
    expect(await bridge.request('listLiveSessions', { extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' }
    })
    expect(await bridge.request('notARequest', {})).toMatchObject({ ok: false, error: { code: 'unknown-request' } })

    // Saved settings are pushed to the page (every window follows them).
    const settingsPushes: unknown[] = []
    bridge.on('settingsChanged', (payload) => settingsPushes.push(payload))
    const settings = (await bridge.request('getSettings', {})) as { ok: boolean; value: { display: object } }
    expect(await bridge.request('saveSettings', { display: settings.value.display })).toMatchObject({ ok: true })
    await vi.waitFor(() => expect(settingsPushes).toHaveLength(1))
    expect(settingsPushes[0]).toMatchObject({ display: settings.value.display })

    // Quitting waits for the core to close the cache, then quits for real.
    const beforeQuit = app.handlers.get('before-quit')?.[0]
    const quitEvent = fakeEvent({})
    beforeQuit?.(quitEvent)
    expect(quitEvent.preventDefault).toHaveBeenCalled()
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled(), { timeout: 10_000 })
  }, 60_000)
})
