// One worst-first order on every face (issue 25): the tray's menu lists the live sessions in the
// order the Live view lists them by default (trouble first, shared/live-order.ts), whatever their
// health, alerts, site alerts, audiences and names, and whether their connection can be reached.
// The menu is read back through its items' clicks, as an operator would open each entry.
import { describe, expect, it, vi } from 'vitest'
import { trayMenuTemplate } from '../../../src/main/desktop/tray-menu'
import { ALERT_SEVERITIES, SESSION_ALERT_STATES, type AlertSituation } from '../../../src/shared/alerts'
import type { AppTarget } from '../../../src/shared/deep-link'
import type { LiveSession } from '../../../src/shared/domain'
import { sortLiveSessions } from '../../../src/shared/live-order'
import type { Health } from '../../../src/shared/reliability'
import { liveSession, sessionAlert } from './alert-fixtures'

/** Live's default order: the live store starts on trouble first, ascending (live.svelte.ts). */
const liveOrder = (sessions: readonly LiveSession[]): string[] =>
  sortLiveSessions(sessions, 'trouble', false).map((s) => s.eventSessionId)

/** The session ids of the tray menu's entries, top to bottom, by clicking each. */
function trayOrder(sessions: readonly LiveSession[], blind: AlertSituation['blind'] = []): string[] {
  const opened: string[] = []
  const open = vi.fn((target?: AppTarget) => {
    if (target?.view === 'session') opened.push(target.eventSessionId)
  })
  const menu = trayMenuTemplate({ sessions, blind, pollingPaused: false }, { open, acknowledge: vi.fn(), setPollingPaused: vi.fn(), pauseNotifications: vi.fn(), quit: vi.fn() })
  for (const item of menu) item.click?.(undefined as never, undefined, undefined as never)
  return opened
}

const BLIND_C2: AlertSituation['blind'] = [{ connectionId: 'c2', connectionName: 'Fabrikam' }]

describe('the tray lists sessions in Live’s order', () => {
  it('where the tray used to rank by other rules', () => {
    const sessions = [
      // Good, with a critical alert still pending: the tray put it near the top, Live among the good.
      liveSession({ eventSessionId: 'pending', eventName: 'A pending critical', alert: sessionAlert({ state: 'pending' }) }),
      // Critical health, no alert yet: Live's worst.
      liveSession({ eventSessionId: 'critical', eventName: 'B critical', health: 'critical', reliability: 80, viewersCount: 10 }),
      // Its connection cannot be reached: the tray put it second, Live by its last health.
      liveSession({ eventSessionId: 'blind', eventName: 'C blind', connectionId: 'c2', viewersCount: 5000 }),
      // A warning with the bigger audience: Live puts it before a smaller warning whatever the name.
      liveSession({ eventSessionId: 'big', eventName: 'Z big warning', health: 'warning', viewersCount: 900 }),
      liveSession({ eventSessionId: 'small', eventName: 'D small warning', health: 'warning', viewersCount: 20 }),
      // A failing office ranks its session as the site alert's severity.
      liveSession({
        eventSessionId: 'office',
        eventName: 'E office',
        siteAlert: { site: '7', label: 'Site 7', reliability: 30, severity: 'critical', state: 'firing' }
      }),
      // A viewers-dropping alert firing on a good session ranks it as a warning.
      liveSession({ eventSessionId: 'drop', eventName: 'F drop', viewersCount: 50, alert: sessionAlert({ rule: 'viewers-dropping', severity: 'warning' }) })
    ]
    expect(trayOrder(sessions, BLIND_C2)).toEqual(liveOrder(sessions))
    expect(liveOrder(sessions)).toEqual(['office', 'critical', 'big', 'drop', 'small', 'blind', 'pending'])
  })

  it('on any board', () => {
    // A small seeded generator: the same boards on every run, many ties on purpose.
    let seed = 25
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const pick = <T>(list: readonly T[]): T => list[next(list.length)]!
    const healths: Health[] = ['good', 'warning', 'critical', 'unknown']
    for (let board = 0; board < 300; board++) {
      const sessions = Array.from({ length: 1 + next(12) }, (_, i) =>
        liveSession({
          eventSessionId: `s${i}`,
          eventName: pick(['Town Hall', 'All-hands', null]),
          contentId: `content-${next(3)}`,
          connectionId: pick(['c1', 'c2']),
          health: pick(healths),
          reliability: pick([null, 50, 92, 99]),
          viewersCount: pick([0, 10, 500]),
          alert: next(2) ? null : sessionAlert({ state: pick(SESSION_ALERT_STATES), severity: pick(ALERT_SEVERITIES) }),
          siteAlert: next(3) ? null : { site: '7', label: 'Site 7', reliability: 20, severity: pick(ALERT_SEVERITIES), state: 'firing' }
        })
      )
      expect(trayOrder(sessions, next(2) ? BLIND_C2 : []), `board ${board}`).toEqual(liveOrder(sessions))
    }
  })
})
