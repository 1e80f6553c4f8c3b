// How the core's alert situation reads on the faces, and how a list of alerts follows a push
// (src/renderer/src/lib/alert-situation.ts). The tone and headline are the core's; these only show them.
import { describe, expect, it } from 'vitest'
import type { Alert } from '../../src/shared/alerts'
import { navCount, patchAlerts, TONE_ICON, windowTitle } from '../../src/renderer/src/lib/alert-situation'
import { isolatedName } from '../../src/shared/plain-text'
import { alertOf as alert, situationOf as situation } from '../support/alert-fixtures'

describe('the situation on the faces', () => {
  it('puts the core headline in the window title, with the icon of its tone', () => {
    expect(windowTitle(null)).toBe('Eventwatch')
    expect(windowTitle(situation())).toBe('✓ No alerts — Eventwatch')
    expect(windowTitle(situation({ tone: 'critical', firing: 2, headline: '2 alerts firing' }))).toBe('✖ 2 alerts firing — Eventwatch')
  })

  it('makes the title one plain line: no isolate mark, control or override from a name', () => {
    const headline = `Cannot reach ${isolatedName('Con\u202etoso\u001b]0;x\u0007')} · 1 alert firing`
    expect(windowTitle(situation({ tone: 'blind', headline }))).toBe('⊘ Cannot reach Contoso ]0;x  · 1 alert firing — Eventwatch')
  })

  it('has the tick for "ok" only: held, pending and worse each have their own icon', () => {
    const others = (['held', 'pending', 'warning', 'critical', 'blind'] as const).map((tone) => TONE_ICON[tone])
    expect(others).not.toContain(TONE_ICON.ok)
    expect(new Set(others).size).toBe(others.length)
  })

  it('counts alerts firing (acknowledged ones included) beside "Alerts", else those pending, else nothing', () => {
    expect(navCount(situation({ firing: 2, acknowledged: 1, pending: 3 }))).toEqual({ n: 2, label: '2 firing' })
    expect(navCount(situation({ pending: 3 }))).toEqual({ n: 3, label: '3 pending' })
    expect(navCount(situation({ snoozed: 1, tone: 'held' }))).toBeNull()
    expect(navCount(null)).toBeNull()
  })
})

describe('patchAlerts', () => {
  it('replaces changed alerts by id, adds new ones, drops removed ones', () => {
    const next = patchAlerts([alert(1), alert(2), alert(3)], {
      changed: [alert(2, { state: 'acknowledged' }), alert(4)],
      removed: [3]
    })
    expect(next.map((a) => [a.id, a.state])).toEqual([
      [1, 'firing'],
      [2, 'acknowledged'],
      [4, 'firing']
    ])
  })

  it("adds only the alerts that belong to the list (one session's)", () => {
    const mine = (a: Alert) => a.eventSessionId === 's1'
    const next = patchAlerts([alert(1)], { changed: [alert(2, { eventSessionId: 's2' }), alert(3)], removed: [] }, { belongs: mine })
    expect(next.map((a) => a.id)).toEqual([1, 3])
  })

  it('lets resolved alerts older than the history window go', () => {
    const old = alert(1, { state: 'resolved', resolvedAt: '2026-02-27T12:00:00Z' })
    const recent = alert(2, { state: 'resolved', resolvedAt: '2026-03-01T11:30:00Z' })
    const next = patchAlerts([old, recent, alert(3)], { changed: [], removed: [] }, { resolvedSince: Date.parse('2026-02-28T12:00:00Z') })
    expect(next.map((a) => a.id)).toEqual([2, 3])
  })
})
