import { describe, expect, it } from 'vitest'
import { alertHeadline, firedText, resolvedText } from '../../../src/main/desktop/alert-text'
import { alertsTarget } from '../../../src/shared/alerts'
import { alert } from './alert-fixtures'

describe('alert headlines', () => {
  it('says the rule, the severity and the event', () => {
    expect(alertHeadline(alert())).toBe('Reliability critical: Town Hall')
    expect(alertHeadline(alert({ severity: 'warning' }))).toBe('Reliability warning: Town Hall')
    expect(alertHeadline(alert({ rule: 'reliability-falling' }))).toBe('Reliability falling: Town Hall')
    expect(alertHeadline(alert({ rule: 'viewers-dropping', eventName: null }))).toBe('Viewers dropping: Untitled event s1')
    expect(alertHeadline(alert({ rule: 'monitor-blind', eventSessionId: null, eventName: null }))).toBe('Cannot reach Contoso')
  })
})

describe('grouped notification text', () => {
  it('one alert: its headline and summary, opening its session', () => {
    expect(firedText([alert()])).toEqual({
      title: 'Reliability critical: Town Hall',
      body: 'Reliability 86.2, below the critical level 90',
      target: { view: 'session', connectionId: 'c1', eventSessionId: 's1' }
    })
  })

  it('several alerts: a count and a few names, opening the alerts view', () => {
    const text = firedText([
      alert({ id: 1 }),
      alert({ id: 2, eventSessionId: 's2', eventName: 'Launch', rule: 'viewers-dropping' }),
      alert({ id: 3, eventSessionId: 's3', eventName: 'All hands', severity: 'warning' })
    ])
    expect(text.title).toBe('3 alerts: Town Hall, Launch, …')
    expect(text.body.split('\n')).toEqual([
      'Reliability critical: Town Hall',
      'Viewers dropping: Launch',
      'Reliability warning: All hands'
    ])
    expect(text.target).toEqual({ view: 'alerts' })
  })

  it('several alerts of one session open that session; long lists are cut', () => {
    const many = Array.from({ length: 6 }, (_, i) => alert({ id: i + 1 }))
    const text = firedText(many)
    expect(text.title).toBe('6 alerts: Town Hall')
    expect(text.body.split('\n')).toHaveLength(5)
    expect(text.body).toContain('and 2 more')
    expect(text.target).toEqual({ view: 'session', connectionId: 'c1', eventSessionId: 's1' })
  })

  it('a connection-wide alert opens the alerts view', () => {
    expect(alertsTarget([alert({ rule: 'monitor-blind', eventSessionId: null })])).toEqual({ view: 'alerts' })
  })

  it('resolved alerts say so', () => {
    expect(resolvedText([alert({ state: 'resolved' })]).title).toBe('Resolved: Reliability critical: Town Hall')
    expect(resolvedText([alert(), alert({ id: 2, eventSessionId: 's2', eventName: 'Launch' })]).title).toBe(
      '2 alerts resolved: Town Hall, Launch'
    )
  })
})
