// The words and order of the tray's session entries: the core's verdicts said, never judged.
import { describe, expect, it } from 'vitest'
import { sessionVerdict, traySessionOrder } from '../../../src/main/desktop/tray-menu'
import { SESSION_ALERT_STATES } from '../../../src/shared/alerts'
import { liveSession, sessionAlert } from './alert-fixtures'

const BLIND = [{ connectionId: 'c1', connectionName: 'Contoso' }]

describe('sessionVerdict', () => {
  it('says the health the core decided, not a threshold of its own', () => {
    // A score that would be "good" on the settings' levels: the core's health is what shows.
    expect(sessionVerdict(liveSession({ reliability: 99, health: 'critical' }), [])).toBe('critical')
    expect(sessionVerdict(liveSession({ reliability: 50, health: 'good' }), [])).toBe('good')
    expect(sessionVerdict(liveSession({ health: 'warning' }), [])).toBe('warning')
    expect(sessionVerdict(liveSession({ reliability: null, health: 'unknown' }), [])).toBe('no reliability score')
  })

  it.each(SESSION_ALERT_STATES)('names an alert that is %s', (state) => {
    const words = sessionVerdict(liveSession({ health: 'critical', alert: sessionAlert({ state, severity: 'critical' }) }), [])
    expect(words).toBe(`critical, alert ${state === 'cooldown' ? 'in cooldown' : state}`)
  })

  it("gives the alert's severity when the health does not already say it", () => {
    expect(sessionVerdict(liveSession({ health: 'good', alert: sessionAlert({ rule: 'viewers-dropping', severity: 'warning' }) }), [])).toBe(
      'good, warning alert firing'
    )
    expect(sessionVerdict(liveSession({ health: 'warning', alert: sessionAlert({ state: 'pending', severity: 'critical' }) }), [])).toBe(
      'warning, critical alert pending'
    )
  })

  it('says when the core cannot reach the connection, whatever the last health was', () => {
    expect(sessionVerdict(liveSession({ health: 'good' }), BLIND)).toBe('cannot reach the service')
    expect(sessionVerdict(liveSession({ health: 'critical', alert: sessionAlert({ state: 'acknowledged' }) }), BLIND)).toBe(
      'cannot reach the service, critical alert acknowledged'
    )
    expect(sessionVerdict(liveSession({ connectionId: 'c2', health: 'good' }), BLIND)).toBe('good')
  })
})

describe('traySessionOrder', () => {
  it('puts the worst first: the alert severity, then the health, then the name', () => {
    const sessions = [
      liveSession({ eventSessionId: 'a', eventName: 'A good', connectionId: 'c2' }),
      liveSession({ eventSessionId: 'b', eventName: 'B warning health', connectionId: 'c2', health: 'warning' }),
      liveSession({ eventSessionId: 'c', eventName: 'C critical health', connectionId: 'c2', health: 'critical' }),
      liveSession({ eventSessionId: 'd', eventName: 'D blind' }),
      liveSession({ eventSessionId: 'e', eventName: 'E warning alert', connectionId: 'c2', alert: sessionAlert({ severity: 'warning' }) }),
      liveSession({ eventSessionId: 'f', eventName: 'F critical alert', connectionId: 'c2', health: 'critical', alert: sessionAlert() }),
      liveSession({ eventSessionId: 'g', eventName: 'G unknown', connectionId: 'c2', health: 'unknown' }),
      liveSession({ eventSessionId: 'h', eventName: 'A critical alert, good health', connectionId: 'c2', alert: sessionAlert({ state: 'pending' }) })
    ]
    expect(traySessionOrder(sessions, BLIND).map((s) => s.eventName)).toEqual([
      'F critical alert',
      'A critical alert, good health',
      'E warning alert',
      'C critical health',
      'D blind',
      'B warning health',
      'G unknown',
      'A good'
    ])
  })

  it('names a session without an event name by its id', () => {
    const sessions = [liveSession({ eventSessionId: 'zz', eventName: null }), liveSession({ eventSessionId: 'aa', eventName: null })]
    expect(traySessionOrder(sessions, []).map((s) => s.eventSessionId)).toEqual(['aa', 'zz'])
  })
})
