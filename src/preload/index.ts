// The preload: the page's only door to the app. It exposes `window.eventwatch` with exactly
// two functions, restricted to the names in the contract — never ipcRenderer itself, never a
// channel the page chooses. Runs sandboxed, so it is bundled to CommonJS with its imports.
import { contextBridge, ipcRenderer } from 'electron'
import type { IpcRendererEvent } from 'electron'
import type { DesktopBridge } from '../shared/client'
import { eventChannel, isEventName, isRequestName, requestChannel } from '../shared/contract'
import { fail } from '../shared/result'

const bridge: DesktopBridge = {
  request(name, args) {
    if (!isRequestName(name)) {
      return Promise.resolve(fail('unknown-request', 'There is no such request.'))
    }
    // invoke rejects if no handler answers or the args cannot be cloned: keep the page's
    // promise a Result either way, without the raw IPC error text.
    return ipcRenderer
      .invoke(requestChannel(name), args)
      .catch(() => fail('ipc-failed', 'The app did not answer the request.'))
  },

  on(name, listener) {
    if (!isEventName(name) || typeof listener !== 'function') return () => {}
    const channel = eventChannel(name)
    // The page gets the payload only: the IpcRendererEvent holds `sender` (ipcRenderer).
    const wrapped = (_event: IpcRendererEvent, payload: unknown): void => listener(payload)
    ipcRenderer.on(channel, wrapped)
    return () => {
      ipcRenderer.removeListener(channel, wrapped)
    }
  }
}

contextBridge.exposeInMainWorld('eventwatch', bridge)
