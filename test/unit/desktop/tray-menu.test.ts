// The words of the tray's session entries: the core's verdicts said, never judged. Their order is
// Live's (tray-live-order.test.ts).
import { describe, expect, it } from 'vitest'
import { sessionVerdict } from '../../../src/main/desktop/tray-menu'
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
