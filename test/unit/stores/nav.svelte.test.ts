// nav.svelte.ts: where the operator is, and where `Esc` takes them back to.
import { flushSync } from 'svelte'
import { describe, expect, it } from 'vitest'
import { NavStore } from '../../../src/renderer/src/lib/stores/nav.svelte'

const key = { connectionId: 'c1', eventSessionId: 's1' }

describe('NavStore', () => {
  it('starts on live, at the top', () => {
    const nav = new NavStore()
    expect(nav.route).toEqual({ view: 'live' })
    expect(nav.top).toBe('live')
    expect(nav.back()).toBe(false)
    expect(nav.route).toEqual({ view: 'live' })
  })

  it('opens a session from the top view in use, keeps that view as top, and goes back to it', () => {
    const nav = new NavStore()
    nav.show('history')
    nav.openSession(key)
    expect(nav.route).toEqual({ view: 'session', ...key, from: 'history' })
    expect(nav.top).toBe('history')
    expect(nav.back()).toBe(true)
    expect(nav.route).toEqual({ view: 'history' })
    expect(nav.back()).toBe(false)
    expect(nav.route).toEqual({ view: 'history' })
  })

  it('opening a session from a session remembers the top view, not the first session', () => {
    const nav = new NavStore()
    nav.show('alerts')
    nav.openSession(key)
    nav.openSession({ connectionId: 'c2', eventSessionId: 's2' })
    expect(nav.route).toEqual({ view: 'session', connectionId: 'c2', eventSessionId: 's2', from: 'alerts' })
    nav.back()
    expect(nav.route).toEqual({ view: 'alerts' })
  })

  it('the wall counts as live: a session opened there goes back to live, and so does the wall', () => {
    const nav = new NavStore()
    nav.show('wall')
    expect(nav.top).toBe('live')
    nav.openSession(key)
    expect(nav.route).toMatchObject({ view: 'session', from: 'live' })
    nav.show('wall')
    expect(nav.back()).toBe(true)
    expect(nav.route).toEqual({ view: 'live' })
  })

  it('top is reactive: an effect reading it re-runs when the view changes, not when a session opens', () => {
    const nav = new NavStore()
    const seen: string[] = []
    const stop = $effect.root(() => {
      $effect(() => {
        seen.push(nav.top)
      })
    })
    try {
      flushSync()
      nav.show('diagnostics')
      flushSync()
      nav.openSession(key)
      flushSync()
      nav.back()
      flushSync()
      nav.show('settings')
      flushSync()
      expect(seen).toEqual(['live', 'diagnostics', 'settings'])
    } finally {
      stop()
    }
  })
})
