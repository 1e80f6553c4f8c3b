// nav.svelte.ts: where the operator is, and where `Esc` takes them back to.
import { describe, expect, it } from 'vitest'
import { NavStore, type Route } from '../../../src/renderer/src/lib/stores/nav.svelte'
import { effectRuns } from './effects.svelte'

const key = { connectionId: 'c1', eventSessionId: 's1' }

/** Presses `Esc` until it does nothing: the routes it went through. */
function escapes(nav: NavStore): Route[] {
  const routes: Route[] = []
  while (nav.back() && routes.length < 10) routes.push(nav.route)
  return routes
}

describe('NavStore', () => {
  it('starts on live, at the top: back does nothing', () => {
    const nav = new NavStore()
    expect(nav.top).toBe('live')
    expect(escapes(nav)).toEqual([])
    expect(nav.route).toEqual({ view: 'live' })
  })

  it('opens a session from the top view in use, keeps that view as top, and goes back to it', () => {
    const nav = new NavStore()
    nav.show('history')
    nav.openSession(key)
    expect(nav.route).toEqual({ view: 'session', ...key, from: 'history' })
    expect(nav.top).toBe('history')
    expect(escapes(nav)).toEqual([{ view: 'history' }])
  })

  it('opening a session from a session remembers the top view, not the first session', () => {
    const nav = new NavStore()
    nav.show('alerts')
    nav.openSession(key)
    nav.openSession({ connectionId: 'c2', eventSessionId: 's2' })
    expect(nav.route).toEqual({ view: 'session', connectionId: 'c2', eventSessionId: 's2', from: 'alerts' })
    expect(escapes(nav)).toEqual([{ view: 'alerts' }])
  })

  it('the wall counts as live: a session opened there goes back to live, and so does the wall', () => {
    const nav = new NavStore()
    nav.show('wall')
    expect(nav.top).toBe('live')
    nav.openSession(key)
    expect(nav.route).toMatchObject({ view: 'session', from: 'live' })
    nav.show('wall')
    expect(escapes(nav)).toEqual([{ view: 'live' }])
  })

  it('top is reactive: what reads it re-runs when the view changes, not when a session opens or closes', () => {
    const nav = new NavStore()
    const steps = [() => nav.show('diagnostics'), () => nav.openSession(key), () => nav.back(), () => nav.show('settings')]
    expect(effectRuns(() => nav.top, steps)).toEqual(['live', 'diagnostics', 'settings'])
  })
})
