import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DesktopBridge } from '../../../src/shared/client'

vi.mock('electron', () => import('../../support/fake-electron'))

import { contextBridge, ipcRenderer } from '../../support/fake-electron'
import { eventChannel, requestChannel } from '../../../src/shared/contract'

let bridge: DesktopBridge

beforeAll(async () => {
  // The preload runs on import, like the real one.
  await import('../../../src/preload/index')
  const call = contextBridge.exposeInMainWorld.mock.calls[0]
  bridge = call?.[1] as DesktopBridge
})

beforeEach(() => {
  ipcRenderer.invoke.mockClear()
  ipcRenderer.on.mockClear()
  ipcRenderer.removeListener.mockClear()
  ipcRenderer.listeners.clear()
})

describe('preload', () => {
  it('exposes exactly request and on under "eventwatch", never ipcRenderer', () => {
    expect(contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1)
    expect(contextBridge.exposeInMainWorld.mock.calls[0]?.[0]).toBe('eventwatch')
    expect(Object.keys(bridge).sort()).toEqual(['on', 'request'])
    expect(typeof bridge.request).toBe('function')
    expect(typeof bridge.on).toBe('function')
    expect(Object.values(bridge)).not.toContain(ipcRenderer)
  })

  it('sends a contract request through ipcRenderer.invoke on its channel', async () => {
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, value: 42 })
    await expect(bridge.request('getStatus', {})).resolves.toEqual({ ok: true, value: 42 })
    expect(ipcRenderer.invoke).toHaveBeenCalledWith(requestChannel('getStatus'), {})
  })

  it.each(['nope', 'constructor', '__proto__', 'toString', 42, null])(
    'refuses the unknown request %j without touching IPC',
    async (name) => {
      await expect(bridge.request(name as string, {})).resolves.toMatchObject({
        ok: false,
        error: { code: 'unknown-request' }
      })
      expect(ipcRenderer.invoke).not.toHaveBeenCalled()
    }
  )

  it('turns a rejected invoke into {ok:false}', async () => {
    ipcRenderer.invoke.mockRejectedValueOnce(new Error("No handler registered for 'x'"))
    await expect(bridge.request('refreshNow', {})).resolves.toMatchObject({ ok: false })
  })

  it('passes only the payload to an event listener and unsubscribes', () => {
    const listener = vi.fn()
    const off = bridge.on('statusChanged', listener)
    expect(ipcRenderer.on).toHaveBeenCalledWith(eventChannel('statusChanged'), expect.any(Function))

    const ipcEvent = { sender: ipcRenderer, ports: [] }
    ipcRenderer.emit(eventChannel('statusChanged'), ipcEvent, { state: 'ok' })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(listener.mock.calls[0]).toEqual([{ state: 'ok' }])
    expect(listener.mock.calls.flat()).not.toContain(ipcEvent)

    off()
    ipcRenderer.emit(eventChannel('statusChanged'), ipcEvent, { state: 'later' })
    expect(listener).toHaveBeenCalledTimes(1)
  })

  it('ignores a subscription to an unknown event', () => {
    const off = bridge.on('eventwatch:request:getStatus', vi.fn())
    expect(ipcRenderer.on).not.toHaveBeenCalled()
    expect(() => off()).not.toThrow()
  })
})
