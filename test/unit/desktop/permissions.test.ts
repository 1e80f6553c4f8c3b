import { describe, expect, it, vi } from 'vitest'
import type { Session } from 'electron'

vi.mock('electron', () => import('../../support/fake-electron'))

import { FakeSession } from '../../support/fake-electron'
import { denyAllPermissions } from '../../../src/main/desktop/permissions'

describe('denyAllPermissions', () => {
  const session = new FakeSession()
  denyAllPermissions(session as unknown as Session)

  it.each(['notifications', 'media', 'geolocation', 'clipboard-read', 'openExternal'])(
    'answers a %s request with callback(false)',
    (permission) => {
      const handler = session.setPermissionRequestHandler.mock.calls[0]?.[0]
      expect(handler).toBeTypeOf('function')
      const callback = vi.fn()
      handler({}, permission, callback, {})
      expect(callback).toHaveBeenCalledExactlyOnceWith(false)
    }
  )

  it('answers every permission check with false', () => {
    const check = session.setPermissionCheckHandler.mock.calls[0]?.[0]
    expect(check).toBeTypeOf('function')
    expect(check({}, 'notifications', 'http://localhost:5173', {})).toBe(false)
    expect(check(null, 'media', 'file://', {})).toBe(false)
  })

  it('refuses device access', () => {
    const device = session.setDevicePermissionHandler.mock.calls[0]?.[0]
    expect(device({ deviceType: 'usb', origin: 'file://' })).toBe(false)
  })
})
