// Preload fuzz: whatever name, arguments or listener the page passes, the bridge answers with a
// Result or a no-op and reaches IPC only on a contract channel. Loaded with the fake electron.
import fc from 'fast-check'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { DesktopBridge } from '../../../src/shared/client'

vi.mock('electron', () => import('../../support/fake-electron'))

import { contextBridge, ipcRenderer } from '../../support/fake-electron'
import { eventChannel, eventNames, requestChannel, requestNames } from '../../../src/shared/contract'

let bridge: DesktopBridge

beforeAll(async () => {
  // The preload runs on import, like the real one.
  await import('../../../src/preload/index')
  bridge = contextBridge.exposeInMainWorld.mock.calls[0]?.[1] as DesktopBridge
})

function resetIpc(): void {
  ipcRenderer.invoke.mockReset()
  ipcRenderer.on.mockClear()
  ipcRenderer.removeListener.mockClear()
  ipcRenderer.listeners.clear()
}

const contractNames = new Set<unknown>([...requestNames, ...eventNames])

/** Names a page might try: near misses of real ones, channel names, prototype keys, anything. */
const nearMiss = fc.constantFrom(...requestNames, ...eventNames).chain((name) =>
  fc.constantFrom(
    name.toUpperCase(),
    ` ${name}`,
    `${name}\u0000`,
    `${name}/`,
    requestChannel(name as never),
    eventChannel(name as never),
    `eventwatch:${name}`
  )
)
const anyName = fc.oneof(
  nearMiss,
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '', 'eventwatch:request:'),
  fc.string(),
  fc.anything({ withNullPrototype: true, withBoxedValues: true, withMap: true, withDate: true })
)
const unknownName = anyName.filter((name) => !contractNames.has(name))
const notAFunction = fc.anything({ withBoxedValues: true, withMap: true, withDate: true, withTypedArray: true })

describe('preload bridge fuzz', () => {
  it('answers an unknown request name with unknown-request, without any IPC', async () => {
    await fc.assert(
      fc.asyncProperty(unknownName, fc.anything(), async (name, args) => {
        resetIpc()
        const result = await bridge.request(name as string, args as never)
        expect(result).toEqual({ ok: false, error: { code: 'unknown-request', message: expect.any(String) } })
        expect(ipcRenderer.invoke).not.toHaveBeenCalled()
      }),
      { numRuns: 500 }
    )
  })

  it('sends a contract request only on its own channel, and a failed invoke comes back as ipc-failed without its text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...requestNames), fc.anything(), fc.string({ minLength: 8 }), async (name, args, reason) => {
        resetIpc()
        ipcRenderer.invoke.mockRejectedValueOnce(new Error(`An object could not be cloned ${reason}`))
        const result = await bridge.request(name, args as never)
        expect(ipcRenderer.invoke).toHaveBeenCalledTimes(1)
        expect(ipcRenderer.invoke).toHaveBeenCalledWith(requestChannel(name), args)
        expect(result).toMatchObject({ ok: false, error: { code: 'ipc-failed' } })
        expect(JSON.stringify(result)).not.toContain(reason)
      }),
      { numRuns: 300 }
    )
  })

  it('ignores a subscription with an unknown name or a listener that is not a function', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(unknownName, fc.oneof(notAFunction, fc.constant(() => undefined))),
          fc.tuple(fc.constantFrom(...eventNames), notAFunction)
        ),
        ([name, listener]) => {
          resetIpc()
          const off = bridge.on(name as string, listener as never)
          expect(typeof off).toBe('function')
          expect(ipcRenderer.on).not.toHaveBeenCalled()
          expect(() => off()).not.toThrow()
          expect(ipcRenderer.removeListener).not.toHaveBeenCalled()
        }
      ),
      { numRuns: 500 }
    )
  })

  it('subscribes a function to a contract event on its channel only, and any payload reaches it alone', () => {
    fc.assert(
      fc.property(fc.constantFrom(...eventNames), fc.anything(), (name, payload) => {
        resetIpc()
        const listener = vi.fn()
        const off = bridge.on(name, listener)
        expect(ipcRenderer.on).toHaveBeenCalledTimes(1)
        expect(ipcRenderer.on).toHaveBeenCalledWith(eventChannel(name), expect.any(Function))
        ipcRenderer.emit(eventChannel(name), { sender: ipcRenderer }, payload)
        expect(listener.mock.calls).toEqual([[payload]])
        off()
        expect(ipcRenderer.listeners.get(eventChannel(name))).toEqual([])
      }),
      { numRuns: 200 }
    )
  })
})
