import { describe, expect, it } from 'vitest'
import { APP_VIEWS, appTargetHash, parseAppTarget } from '../../../src/shared/deep-link'

describe('app target hashes', () => {
  it('round-trips a session, even with slashes and spaces in its ids', () => {
    const target = { view: 'session', connectionId: 'conn/1', eventSessionId: 'a b#c' } as const
    const hash = appTargetHash(target)
    expect(hash).toBe('session/conn%2F1/a%20b%23c')
    expect(parseAppTarget(hash)).toEqual(target)
    expect(parseAppTarget(`#${hash}`)).toEqual(target)
  })

  it('names every top view and the wall', () => {
    expect(appTargetHash({ view: 'alerts' })).toBe('alerts')
    for (const view of APP_VIEWS) {
      expect(parseAppTarget(`#${view}`)).toEqual({ view })
      expect(parseAppTarget(appTargetHash({ view }))).toEqual({ view })
    }
    expect(APP_VIEWS).toEqual(['live', 'alerts', 'history', 'settings', 'diagnostics', 'wall'])
  })

  it('refuses anything else', () => {
    for (const bad of ['', '#', 'session', 'session/c1', 'session/c1/s1/x', 'session//s1', 'session/%E0%A4%A/s1', 'Settings', 'wall/', 'constructor', `session/c1/${'x'.repeat(201)}`]) {
      expect(parseAppTarget(bad), bad).toBeUndefined()
    }
  })
})
