import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { WebFrameMain } from 'electron'

vi.mock('electron', () => import('../../support/fake-electron'))

import { fakeCore, FakeWebContents, ipcMain, resetFakeElectron } from '../../support/fake-electron'
import { appFrameCheck, forwardEvents, registerIpcHandlers } from '../../../src/main/desktop/ipc'
import { isAppUrl } from '../../../src/main/desktop/navigation-guard'
import { eventChannel, requestChannel, requestNames } from '../../../src/shared/contract'

const APP = 'http://localhost:5173'
const frame = (url: string, parent: unknown = null) => ({ url, parent }) as unknown as WebFrameMain
const appFrame = frame(`${APP}/`)
const invoke = (channel: string, senderFrame: WebFrameMain | null, args: unknown) => {
  const handler = ipcMain.handlers.get(channel)
  if (!handler) throw new Error(`no handler for ${channel}`)
  return handler({ senderFrame }, args) as Promise<unknown>
}

describe('registerIpcHandlers', () => {
  let core: ReturnType<typeof fakeCore>
  const trusted = vi.fn((f: WebFrameMain | null) => f === appFrame)

  beforeEach(() => {
    resetFakeElectron()
    trusted.mockImplementation((f) => f === appFrame)
    core = fakeCore()
    registerIpcHandlers(ipcMain, core, trusted)
  })

  it('registers exactly one handler per contract request', () => {
    expect(requestNames.length).toBeGreaterThan(0)
    expect([...ipcMain.handlers.keys()].sort()).toEqual(requestNames.map(requestChannel).sort())
  })

  it.each(requestNames)('%s reaches core.dispatch and returns its result', async (name) => {
    const args = { probe: name }
    core.dispatch.mockResolvedValueOnce({ ok: true, value: `value of ${name}` })
    await expect(invoke(requestChannel(name), appFrame, args)).resolves.toEqual({
      ok: true,
      value: `value of ${name}`
    })
    expect(core.dispatch).toHaveBeenCalledWith(name, args)
  })

  it('passes a failed Result from the core through unchanged', async () => {
    const failure = { ok: false, error: { code: 'invalid-arguments', message: 'Bad.' } }
    core.dispatch.mockResolvedValueOnce(failure)
    await expect(invoke(requestChannel('getStatus'), appFrame, {})).resolves.toEqual(failure)
  })

  it('refuses an untrusted or missing sender frame without dispatching', async () => {
    for (const sender of [frame('https://evil.example/'), null]) {
      const result = await invoke(requestChannel('getStatus'), sender, {})
      expect(result).toMatchObject({ ok: false, error: { code: 'forbidden-sender' } })
    }
    expect(core.dispatch).not.toHaveBeenCalled()
  })

  it('turns a throwing or rejecting dispatch into {ok:false}', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    core.dispatch.mockImplementationOnce(() => {
      throw new Error('boom')
    })
    await expect(invoke(requestChannel('getStatus'), appFrame, {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'internal' }
    })
    core.dispatch.mockRejectedValueOnce(new Error('secret-token-xyz'))
    const result = await invoke(requestChannel('refreshNow'), appFrame, {})
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } })
    expect(JSON.stringify(result)).not.toContain('secret-token-xyz')
    errors.mockRestore()
  })

  it('turns a throwing sender check into {ok:false}', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    trusted.mockImplementationOnce(() => {
      throw new Error('frame gone')
    })
    await expect(invoke(requestChannel('getStatus'), appFrame, {})).resolves.toMatchObject({
      ok: false
    })
    expect(core.dispatch).not.toHaveBeenCalled()
    errors.mockRestore()
  })

  it('returns a function removing every handler', () => {
    resetFakeElectron()
    const unregister = registerIpcHandlers(ipcMain, core, trusted)
    unregister()
    expect(ipcMain.handlers.size).toBe(0)
  })
})

describe('appFrameCheck', () => {
  const check = appFrameCheck((url) => isAppUrl(url, APP))

  it('trusts the top-level frame showing the app', () => {
    expect(check(appFrame)).toBe(true)
  })

  it('distrusts a subframe, a foreign page and a missing frame', () => {
    expect(check(frame(`${APP}/`, appFrame))).toBe(false)
    expect(check(frame('https://evil.example/'))).toBe(false)
    expect(check(null)).toBe(false)
  })
})

describe('forwardEvents', () => {
  it('sends core events on the contract channel until unsubscribed', () => {
    const core = fakeCore()
    const contents = new FakeWebContents()
    const stop = forwardEvents(core, contents)

    core.push('statusChanged', { state: 'ok' })
    expect(contents.send).toHaveBeenCalledWith(eventChannel('statusChanged'), { state: 'ok' })

    stop()
    expect(core.listenerCount()).toBe(0)
    core.push('statusChanged', { state: 'later' })
    expect(contents.send).toHaveBeenCalledTimes(1)
  })

  it('sends nothing to destroyed contents and survives a send that throws', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const core = fakeCore()
    const contents = new FakeWebContents()
    forwardEvents(core, contents)

    contents.isDestroyed.mockReturnValue(true)
    core.push('sessionsChanged', {})
    expect(contents.send).not.toHaveBeenCalled()

    contents.isDestroyed.mockReturnValue(false)
    contents.send.mockImplementationOnce(() => {
      throw new Error('An object could not be cloned')
    })
    expect(() => core.push('sessionsChanged', {})).not.toThrow()
    errors.mockRestore()
  })
})
