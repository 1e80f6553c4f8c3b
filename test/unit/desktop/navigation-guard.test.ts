import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Mock } from 'vitest'
import type { WebContents } from 'electron'

vi.mock('electron', () => import('../../support/fake-electron'))

import { app, fakeEvent, FakeWebContents, resetFakeElectron, shell } from '../../support/fake-electron'
import {
  hardenAllWebContents,
  hardenWebContents,
  isAppUrl,
  isSafeExternalUrl
} from '../../../src/main/desktop/navigation-guard'

const DEV = 'http://localhost:5173'
const FILE = 'file:///opt/eventwatch/out/renderer/index.html'

describe('isAppUrl', () => {
  it('accepts any path of the dev server origin', () => {
    expect(isAppUrl('http://localhost:5173/', DEV)).toBe(true)
    expect(isAppUrl('http://localhost:5173/sessions?x=1#top', DEV)).toBe(true)
  })

  it('rejects another host, port or scheme', () => {
    expect(isAppUrl('http://localhost:5174/', DEV)).toBe(false)
    expect(isAppUrl('https://localhost:5173/', DEV)).toBe(false)
    expect(isAppUrl('http://evil.example/', DEV)).toBe(false)
    expect(isAppUrl('http://localhost:5173.evil.example/', DEV)).toBe(false)
  })

  it('accepts only the exact index.html for a file: app', () => {
    expect(isAppUrl(FILE, FILE)).toBe(true)
    expect(isAppUrl(`${FILE}#/session/1`, FILE)).toBe(true)
    expect(isAppUrl('file:///etc/passwd', FILE)).toBe(false)
    expect(isAppUrl('file:///opt/eventwatch/out/renderer/other.html', FILE)).toBe(false)
    expect(isAppUrl('https://example.com/', FILE)).toBe(false)
  })

  it('rejects javascript:, data:, malformed URLs and a malformed base', () => {
    expect(isAppUrl('javascript:alert(1)', DEV)).toBe(false)
    expect(isAppUrl('data:text/html,<h1>x</h1>', DEV)).toBe(false)
    expect(isAppUrl('not a url', DEV)).toBe(false)
    expect(isAppUrl('', DEV)).toBe(false)
    expect(isAppUrl('http://localhost:5173/', 'not a url')).toBe(false)
  })
})

describe('isSafeExternalUrl', () => {
  it('accepts https URLs', () => {
    expect(isSafeExternalUrl('https://example.com/docs?a=1')).toBe(true)
    expect(isSafeExternalUrl('HTTPS://EXAMPLE.COM')).toBe(true)
  })

  it.each([
    'http://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'smb://server/share',
    'https://user:secret@example.com/',
    'https://bank.example@evil.example/',
    '//example.com/',
    'https//example.com',
    'not a url',
    ''
  ])('rejects %j', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false)
  })
})

describe('hardenWebContents', () => {
  let contents: FakeWebContents
  let openExternal: Mock<(url: string) => Promise<void>>
  const appUrlCheck = (url: string): boolean => isAppUrl(url, DEV)

  beforeEach(() => {
    resetFakeElectron()
    contents = new FakeWebContents()
    openExternal = vi.fn(async (_url: string) => undefined)
    hardenWebContents(contents as unknown as WebContents, appUrlCheck, openExternal)
  })

  const navigate = (event: string, url: string) => {
    const e = fakeEvent({ url })
    contents.emit(event, e, url)
    return e.preventDefault
  }

  it('prevents navigation to another origin or a javascript: URL', () => {
    expect(navigate('will-navigate', 'https://evil.example/')).toHaveBeenCalled()
    expect(navigate('will-navigate', 'javascript:alert(1)')).toHaveBeenCalled()
    expect(navigate('will-navigate', 'file:///etc/passwd')).toHaveBeenCalled()
  })

  it('lets the app navigate within itself', () => {
    expect(navigate('will-navigate', 'http://localhost:5173/other')).not.toHaveBeenCalled()
  })

  it('prevents a redirect away from the app', () => {
    expect(navigate('will-redirect', 'https://evil.example/landing')).toHaveBeenCalled()
  })

  it('denies window.open and opens only https URLs externally', async () => {
    const handler = contents.windowOpenHandler
    expect(handler).toBeTypeOf('function')
    for (const url of [
      'https://example.com/help',
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
      'http://localhost:5173/'
    ]) {
      expect(handler?.({ url })).toEqual({ action: 'deny' })
    }
    await vi.waitFor(() => expect(openExternal).toHaveBeenCalledTimes(1))
    expect(openExternal).toHaveBeenCalledWith('https://example.com/help')
  })

  it('survives an openExternal that rejects or throws', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    openExternal.mockRejectedValueOnce(new Error('no handler'))
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' })
    openExternal.mockImplementationOnce(() => {
      throw new Error('sync failure')
    })
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' })
    await vi.waitFor(() => expect(errors).toHaveBeenCalledTimes(2))
    errors.mockRestore()
  })

  it('prevents attaching a webview', () => {
    const e = fakeEvent({})
    contents.emit('will-attach-webview', e, {}, {})
    expect(e.preventDefault).toHaveBeenCalled()
  })
})

describe('hardenAllWebContents', () => {
  beforeEach(() => resetFakeElectron())

  it('hardens every webContents the app creates and opens links with shell.openExternal', async () => {
    hardenAllWebContents((url) => isAppUrl(url, DEV))
    expect(app.on).toHaveBeenCalledWith('web-contents-created', expect.any(Function))

    const contents = new FakeWebContents()
    app.emit('web-contents-created', fakeEvent({}), contents)

    const e = fakeEvent({ url: 'https://evil.example/' })
    contents.emit('will-navigate', e)
    expect(e.preventDefault).toHaveBeenCalled()

    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' })
    await vi.waitFor(() => expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/'))
  })
})
