// The 10 s clock judges only what time alone changes (issue 25): between polls, a tick with
// nothing due reads no session, snapshot or viewer list, writes nothing and pushes nothing; a
// snooze that runs out, a maintenance window or a notification pause that begins or ends, are
// still acted on within one tick (monitor blind on time: alerts-blind-clock.test.ts). The app's
// pollers against the simulator over loopback, a real SQLite file whose statements are logged,
// on a clock the test moves by hand; polls are 10 minutes apart, so the ticks between them are
// the clock's alone.
import { afterEach, describe, expect, it } from 'vitest'
import { addMaintenanceWindow } from '../../src/main/core/alerts/maintenance-windows'
import { BLIND_CHECK_MS } from '../../src/main/core/app/blind-clock'
import { insertAlert, pauseNotifications, snoozeAlert } from '../../src/main/core/store/alerts'
import { liveSessionIds } from '../../src/main/core/store/sessions'
import type { AlertsChanged } from '../../src/shared/alerts'
import { rarelyPolled } from '../support/rarely-polled'
import { storeOn } from '../support/store-on'

const POLL_MS = 10 * 60_000

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A connection of three quiet live sessions, polled every 10 minutes, a minute in, blind after an hour. */
async function watched() {
  const pushes: { at: number; name: string; payload: unknown }[] = []
  const { timers, db, statements, advance } = await rarelyPolled({ liveSessions: 3, viewersPerSession: 20, pollMs: POLL_MS }, cleanups, (hub, timers) =>
    hub.subscribe((name, payload) => pushes.push({ at: timers.now, name, payload }))
  )
  await advance(60_000)
  const alertPushes = (since: number) =>
    pushes.filter((p) => p.at >= since && p.name === 'alertsChanged').map((p) => ({ at: p.at, push: p.payload as AlertsChanged }))
  return { timers, db, statements, pushes, alertPushes, advance }
}

describe('the 10 s clock', () => {
  it('reads no session, writes nothing and pushes nothing when nothing is due', async () => {
    const { timers, statements, pushes, advance } = await watched()
    // One tick, and no poll before the next one.
    const next = timers.scheduled[0]!
    expect(timers.scheduled.filter((at) => at <= next + BLIND_CHECK_MS - 1)).toEqual([next])
    statements.ran.length = 0
    const before = pushes.length
    await advance(next - timers.now)

    expect(pushes.slice(before).map((p) => p.name)).toEqual([])
    const ran = statements.ran
    expect(ran.filter((sql) => /^(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql))).toEqual([])
    // Not a session's snapshots, viewer list or row: none of that changes with time alone.
    expect(ran.filter((sql) => /\bFROM (snapshots|viewers|viewer_lists)\b|event_session_id = \?/i.test(sql))).toEqual([])
    console.log(`a quiet tick ran ${ran.length} statements:\n  ${ran.join('\n  ')}`)
  }, 30_000)

  it('fires a snoozed alert again within a tick of its snooze running out', async () => {
    const { timers, db, alertPushes, advance } = await watched()
    const session = liveSessionIds(db, 'c1')[0]!
    const id = insertAlert(db, 'c1', { rule: 'viewers-dropping', eventSessionId: session, eventName: null, state: 'firing', severity: 'warning', summary: 'Viewers down 40%', value: 40, streak: 0 }, timers.now)
    snoozeAlert(db, id, '15m', timers.now)
    const ends = timers.now + 15 * 60_000
    await advance(16 * 60_000)

    const fired = alertPushes(0).filter((p) => p.push.fired.some((a) => a.id === id))
    expect(fired.map((p) => p.at - ends)).toHaveLength(1)
    expect(fired[0]!.at - ends).toBeGreaterThanOrEqual(0)
    expect(fired[0]!.at - ends).toBeLessThan(BLIND_CHECK_MS)
    expect(fired[0]!.push.fired.find((a) => a.id === id)?.transitions.at(-1)?.note).toBe('snooze ended')
    expect(fired[0]!.push.situation).toMatchObject({ firing: 1, snoozed: 0 })
  }, 30_000)

  it('pushes the situation within a tick of a maintenance window beginning and ending, and of a notification pause ending', async () => {
    const { timers, db, alertPushes, advance } = await watched()
    const starts = timers.now + 60_000
    const ends = starts + 5 * 60_000
    const store = storeOn(db)
    const window = { name: 'Patch night', startsAt: new Date(starts).toISOString(), endsAt: new Date(ends).toISOString(), connectionId: 'c1' }
    await store.withTransaction((tx) => addMaintenanceWindow(tx.maintenance, window, timers.now))
    pauseNotifications(db, 3, timers.now)
    const resumes = timers.now + 3 * 60_000
    const since = timers.now
    await advance(7 * 60_000)

    // The first push whose situation says it, within one tick of the time it changed.
    const first = (after: number, what: (s: AlertsChanged['situation']) => boolean): number =>
      alertPushes(after).find((p) => what(p.push.situation))?.at ?? Number.POSITIVE_INFINITY
    const onTime = (at: number, due: number): string =>
      at === Number.POSITIVE_INFINITY ? 'never' : at >= due && at < due + BLIND_CHECK_MS ? 'on time' : `${(at - due) / 1000} s after`
    const began = first(since, (s) => s.maintenance.includes('Patch night'))
    expect({
      began: onTime(began, starts),
      resumed: onTime(first(since, (s) => s.notificationsPausedUntil === null), resumes),
      ended: onTime(first(began + 1, (s) => s.maintenance.length === 0), ends)
    }).toEqual({ began: 'on time', resumed: 'on time', ended: 'on time' })
  }, 30_000)
})
