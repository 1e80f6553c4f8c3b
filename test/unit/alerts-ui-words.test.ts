import { describe, expect, it } from 'vitest'
import { alertMarks } from '../../src/renderer/src/components/alerts/alert-marks'
import { withMarks } from '../../src/renderer/src/components/session/chart-options'
import {
  actionsFor,
  alertSince,
  alertPlace,
  formatDuration,
  formatRuleValue,
  latestNote,
  splitAlerts,
  triggerValue
} from '../../src/renderer/src/components/alerts/alert-words'
import { endWords } from '../../src/renderer/src/lib/alert-situation'
import type { Alert } from '../../src/shared/alerts'

function alert(id: number, over: Partial<Alert> = {}): Alert {
  return {
    id,
    rule: 'reliability-below',
    connectionId: 'c1',
    connectionName: 'Production',
    eventSessionId: `s${id}`,
    eventName: `Town hall ${id}`,
    site: null,
    siteName: null,
    state: 'firing',
    severity: 'warning',
    summary: 'summary',
    firedAt: `2026-03-01T12:0${id}:00Z`,
    resolvedAt: null,
    snoozedUntil: null,
    endReason: null,
    endKind: null,
    transitions: [],
    ...over
  }
}

describe('the alerts view order', () => {
  it('puts firing alerts first (critical before warning, newest first), then held ones, and resolved ones in history', () => {
    const alerts = [
      alert(1, { state: 'acknowledged', severity: 'critical' }),
      alert(2, { state: 'resolved', resolvedAt: '2026-03-01T12:30:00Z' }),
      alert(3, { state: 'firing' }),
      alert(4, { state: 'firing', severity: 'critical' }),
      alert(5, { state: 'firing' }),
      alert(6, { state: 'muted' }),
      alert(7, { state: 'resolved', resolvedAt: '2026-03-01T12:40:00Z' })
    ]
    const { open, history } = splitAlerts(alerts)
    expect(open.map((a) => a.id)).toEqual([4, 5, 3, 1, 6])
    expect(history.map((a) => a.id)).toEqual([7, 2])
  })
})

describe('an alert in words', () => {
  it('reads the value that fired it from its latest firing transition', () => {
    const a = alert(1, {
      transitions: [
        { at: '2026-03-01T12:00:00Z', state: 'pending', severity: 'warning', value: 93, note: null },
        { at: '2026-03-01T12:00:10Z', state: 'firing', severity: 'warning', value: 92.46, note: null },
        { at: '2026-03-01T12:01:00Z', state: 'acknowledged', severity: 'warning', value: null, note: 'CDN ticket 42' }
      ]
    })
    expect(triggerValue(a)).toBe('reliability 92.5')
    expect(latestNote(a)).toBe('CDN ticket 42')
    expect(triggerValue(alert(2))).toBeNull()
  })

  it('words each rule value with its unit', () => {
    expect(formatRuleValue('reliability-falling', -6.25)).toBe('fell 6.3 points')
    expect(formatRuleValue('viewers-dropping', 41.6)).toBe('viewers fell 42%')
    expect(formatRuleValue('monitor-blind', 3)).toBe('3.0 min without a poll')
    expect(formatRuleValue('reliability-below', null)).toBe('—')
  })

  it('names the place, or the whole connection for a blind monitor', () => {
    expect(alertPlace(alert(1))).toBe('Town hall 1 · Production')
    expect(alertPlace(alert(1, { eventName: null }))).toBe('Untitled event s1 · Production')
    expect(alertPlace(alert(1, { eventName: null, eventSessionId: null }))).toBe('Every session · Production')
  })

  it('formats durations as an operator reads them', () => {
    expect(formatDuration(45_000)).toBe('45 s')
    expect(formatDuration(12 * 60_000)).toBe('12 min')
    expect(formatDuration(125 * 60_000)).toBe('2 h 05 min')
  })

  it('offers acknowledge only while firing, and no session actions for a connection-wide alert', () => {
    expect(actionsFor(alert(1))).toEqual({ acknowledge: true, snooze: true, mute: true, open: true })
    expect(actionsFor(alert(1, { state: 'acknowledged' }))).toMatchObject({ acknowledge: false, snooze: true })
    expect(actionsFor(alert(1, { state: 'resolved' }))).toEqual({ acknowledge: false, snooze: false, mute: false, open: true })
    expect(actionsFor(alert(1, { eventSessionId: null }))).toMatchObject({ mute: false, open: false })
  })
})

describe('chart marks', () => {
  it('marks when each alert fired and resolved, oldest first, and skips alerts that never fired', () => {
    const marks = alertMarks([
      alert(2, { severity: 'critical', resolvedAt: '2026-03-01T12:05:00Z', state: 'resolved', endReason: 'recovered', endKind: 'recovered' }),
      alert(1),
      alert(3, { firedAt: null, state: 'pending' })
    ])
    expect(marks.map((m) => [new Date(m.at).toISOString(), m.kind, m.severity, m.alertId])).toEqual([
      ['2026-03-01T12:01:00.000Z', 'fired', 'warning', 1],
      ['2026-03-01T12:02:00.000Z', 'fired', 'critical', 2],
      ['2026-03-01T12:05:00.000Z', 'resolved', 'critical', 2]
    ])
    expect(marks[1]?.label).toBe('✖ Critical: Reliability below level')
    expect(marks[2]?.label).toBe('✓ Resolved: Reliability below level')
  })
})

describe('how an alert ended', () => {
  it('says "Resolved" when the core says it recovered, and "Ended" with the reason for any other end', () => {
    const recovered = 'recovered: reliability 97.2, above the warning level 95'
    expect(endWords(alert(1, { state: 'resolved', endReason: recovered, endKind: 'recovered' }))).toEqual({ word: 'Resolved', icon: '✓', text: `Resolved — ${recovered}` })
    // A drop that left its window while the score stays at 41 is no recovery (issue 24).
    const still = 'no longer falling: the drop left its 5-minute window; reliability is still 41.0, below the critical level 90'
    expect(endWords(alert(1, { state: 'resolved', endReason: still, endKind: 'no-longer-applies' }))).toEqual({ word: 'Ended', icon: '■', text: `Ended — ${still}` })
    expect(endWords(alert(1, { state: 'resolved', endReason: 'connection disabled: no longer polled', endKind: 'unwatched' }))).toEqual({
      word: 'Ended',
      icon: '■',
      text: 'Ended — connection disabled: no longer polled'
    })
    expect(endWords(alert(1, { state: 'resolved', endReason: null }))?.text).toBe('Resolved')
    expect(endWords(alert(1, { state: 'acknowledged' }))).toBeNull()
  })

  it('marks an alert a lost connection ended as ended on the charts, not as resolved', () => {
    const marks = alertMarks([alert(1, { state: 'resolved', resolvedAt: '2026-03-01T12:05:00Z', endReason: 'connection removed', endKind: 'unwatched' })])
    expect(marks.map((m) => m.label)).toEqual(['▲ Warning: Reliability below level', '■ Ended: Reliability below level'])
  })
})

describe('pending and held alerts', () => {
  const pending = alert(1, {
    state: 'pending',
    firedAt: null,
    transitions: [{ at: '2026-03-01T12:00:00Z', state: 'pending', severity: 'critical', value: 71.12, note: null }]
  })

  it('shows a pending alert since the condition was first seen, with the value seen', () => {
    expect(alertSince(pending)).toBe('2026-03-01T12:00:00Z')
    expect(triggerValue(pending)).toBe('reliability 71.1')
    expect(alertSince(alert(2))).toBe('2026-03-01T12:02:00Z')
  })
})

describe('chart x range with marks', () => {
  it('widens the data range to take in a mark after the last snapshot, and leaves it alone otherwise', () => {
    const mark = (seconds: number) => ({ at: seconds * 1000, label: 'x', severity: 'warning' as const })
    expect(withMarks(100, 200, [mark(150)])).toEqual([100, 200])
    expect(withMarks(100, 200, [mark(230), mark(90)])).toEqual([90, 230])
    expect(withMarks(null, null, [])).toEqual([null, null])
    expect(withMarks(100, 200)).toEqual([100, 200])
  })
})
