// The alert rules on a clock moved by hand: snapshots go into a real SQLite file as the poller
// stores them, the evaluator judges them, the store keeps every transition.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AlertEvaluator, type Evaluation } from '../../src/main/core/alerts/evaluator'
import { loadVerdicts } from '../../src/main/core/app/verdicts'
import { setSessionOverride, type OverrideChange } from '../../src/main/core/alerts/overrides'
import { alertsPage, readSituation } from '../../src/main/core/alerts/page'
import { acknowledgeAlert, getAlerts, listAlerts, pauseNotifications, snoozeAlert } from '../../src/main/core/store/alerts'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { setConnectionEnabled, upsertConnection } from '../../src/main/core/store/connections'
import { setAlertRules, setThresholds } from '../../src/main/core/store/settings'
import { DEFAULT_ALERT_RULES, type Alert, type AlertRules, type AlertsPage, type AlertSituation } from '../../src/shared/alerts'
import { T0 } from '../support/fake-clock'

const POLL_MS = 15_000

interface Reading {
  score: number
  viewers?: number
  ended?: boolean
}

let dir: string
let file: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-alert-rules-'))
  file = join(dir, 'cache.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** An evaluation with its alert ids read back as the alerts view shows them. */
interface Judged {
  fired: Alert[]
  resolved: Alert[]
  changed: Alert[]
  removed: number[]
  /** Whether a push is due (something an alerts view or the situation shows changed). */
  any: boolean
}

/** A connection whose polls the test writes by hand, one every 15 s unless told otherwise. */
class Monitor {
  now: number
  db: Db
  store: SqliteStore
  evaluator: AlertEvaluator
  lastSuccess: number | null = null

  constructor(now = T0) {
    this.now = now
    this.db = openDatabase(file)
    this.store = openSqliteStore(file, { writer: this.db })
    this.evaluator = new AlertEvaluator(this.store, () => loadVerdicts(this.store.read), () => this.now)
    upsertConnection(this.db, {
      id: 'c1',
      name: 'Tenant',
      baseUrl: 'https://api.example.com',
      authUrl: 'https://auth.example.com',
      platformId: 'p',
      tenantId: 't',
      clientId: 'client',
      isDemo: false
    })
  }

  rules(change: Partial<{ [K in keyof AlertRules]: Partial<AlertRules[K]> }>): void {
    const next = { ...DEFAULT_ALERT_RULES } as Record<string, unknown>
    for (const [rule, value] of Object.entries(change)) next[rule] = { ...(DEFAULT_ALERT_RULES as Record<string, object>)[rule], ...value }
    setAlertRules(this.db, next as AlertRules)
  }

  /** One successful poll: a snapshot of each session named, then the rules. */
  async poll(readings: Record<string, Reading>, afterMs = POLL_MS, succeeded = true): Promise<Judged> {
    this.now += afterMs
    for (const [id, r] of Object.entries(readings)) {
      storeSessionSnapshot(
        this.db,
        'c1',
        {
          eventSessionId: id,
          platformId: 'p',
          tenantId: 't',
          contentId: `content-${id}`,
          eventName: `Event ${id}`,
          startedAt: new Date(T0 - 3_600_000).toISOString(),
          updatedAt: new Date(this.now).toISOString(),
          hasEnded: r.ended ?? false,
          viewersCount: r.viewers ?? 1000,
          reliabilityScore: r.score,
          cdnTraffic: 0,
          ecdnTraffic: 0
        },
        this.now
      )
    }
    if (succeeded) this.lastSuccess = this.now
    return this.judged(await this.evaluator.evaluate('c1', this.lastSuccess))
  }

  /** A poll that reached nothing: no snapshots, the last success stays where it was. */
  async failedPoll(afterMs = POLL_MS): Promise<Judged> {
    this.now += afterMs
    return this.judged(await this.evaluator.evaluate('c1', this.lastSuccess))
  }

  /** An operator's override of one session, in a unit of its own. */
  override(change: OverrideChange): Promise<unknown> {
    return this.store.withTransaction((tx) => setSessionOverride(tx, change))
  }

  judged(e: Evaluation): Judged {
    return {
      fired: getAlerts(this.db, e.fired),
      resolved: getAlerts(this.db, e.resolved),
      changed: getAlerts(this.db, e.changed),
      removed: e.removed,
      any: e.any
    }
  }

  /** The situation every face shows, as the app decides it after this evaluation. */
  situation(pollingPaused = false): Promise<AlertSituation> {
    return readSituation(this.store.read, { revision: 0, epoch: 'e1', cooling: () => this.evaluator.cooling(), unconfirmed: () => [], pollingPaused: () => pollingPaused }, this.now)
  }

  /** The alerts view's first page. */
  async page(): Promise<AlertsPage> {
    return alertsPage(this.store.read, {}, await this.situation(), this.now)
  }

  /** Several polls of the same readings; returns every alert that fired in them. */
  async polls(count: number, readings: Record<string, Reading>): Promise<Alert[]> {
    const fired: Alert[] = []
    for (let i = 0; i < count; i++) fired.push(...(await this.poll(readings)).fired)
    return fired
  }

  alerts(): Alert[] {
    return listAlerts(this.db, { historyHours: 24 * 365 }, this.now)
  }

  async close(): Promise<void> {
    await this.store.close()
    this.db.close()
  }
}

const states = (a: Alert | undefined): string[] => a?.transitions.map((t) => t.state) ?? []

let monitor: Monitor
beforeEach(() => {
  monitor = new Monitor()
})
afterEach(() => monitor.close())

describe('reliability below the levels', () => {
  // Alone: the sharp drops below would also trip "reliability falling".
  beforeEach(() => monitor.rules({ reliabilityFalling: { enabled: false } }))

  it('fires after the pending polls, by level, and clears only above the level plus the margin', async () => {
    await monitor.poll({ a: { score: 99 } })
    expect((await monitor.poll({ a: { score: 93 } })).fired).toEqual([]) // pending, 1 of 2
    expect(monitor.alerts()[0]).toMatchObject({ rule: 'reliability-below', state: 'pending' })
    const fired = (await monitor.poll({ a: { score: 93 } })).fired
    expect(fired).toHaveLength(1)
    expect(fired[0]).toMatchObject({ rule: 'reliability-below', eventSessionId: 'a', eventName: 'Event a', state: 'firing', severity: 'warning' })
    expect(fired[0]?.summary).toBe('Reliability 93, below the warning level 95')

    // Worse: it goes critical (one transition, the same alert).
    const worse = (await monitor.poll({ a: { score: 85 } })).fired
    expect(worse.map((a) => [a.id, a.severity])).toEqual([[fired[0]?.id, 'critical']])

    // 95.5 is above the level but not above level + margin (96): no recovery counted.
    expect((await monitor.poll({ a: { score: 95.5 } })).resolved).toEqual([])
    expect((await monitor.poll({ a: { score: 96 } })).resolved).toEqual([]) // recovery 1 of 2
    const resolved = (await monitor.poll({ a: { score: 96.5 } })).resolved
    expect(resolved.map((a) => a.id)).toEqual([fired[0]?.id])
    expect(states(resolved[0])).toEqual(['pending', 'firing', 'firing', 'resolved'])
    expect(resolved[0]?.transitions.map((t) => t.value)).toEqual([93, 93, 85, 96.5])
  })

  it('fires once for a score hovering around the level, not on every poll', async () => {
    const fired = await monitor.polls(2, { a: { score: 94.5 } })
    for (let i = 0; i < 20; i++) fired.push(...(await monitor.poll({ a: { score: i % 2 ? 94.6 : 95.4 } })).fired)
    expect(fired).toHaveLength(1)
    const [alert] = monitor.alerts()
    expect(alert).toMatchObject({ state: 'firing' })
    expect(states(alert)).toEqual(['pending', 'firing'])
  })

  it('forgets a pending alert whose condition cleared before it fired', async () => {
    await monitor.poll({ a: { score: 93 } })
    await monitor.poll({ a: { score: 97 } })
    expect(monitor.alerts()).toEqual([])
  })

  it('judges each session by its own levels when it has them, and not at all when muted', async () => {
    await monitor.override({ connectionId: 'c1', eventSessionId: 'own', thresholds: { warning: 80, critical: 70 } })
    await monitor.override({ connectionId: 'c1', eventSessionId: 'quiet', muted: true })
    const fired = await monitor.polls(3, { plain: { score: 92 }, own: { score: 92 }, quiet: { score: 50 } })
    expect(fired.map((a) => a.eventSessionId)).toEqual(['plain'])
    expect((await monitor.polls(2, { own: { score: 75 } })).map((a) => [a.eventSessionId, a.severity])).toEqual([['own', 'warning']])
  })

  it('reads a 0–1 scale as 0–100', async () => {
    const fired = await monitor.polls(2, { a: { score: 0.93 } })
    expect(fired[0]?.summary).toBe('Reliability 93, below the warning level 95')
  })

  it('resolves a session\'s alerts when it ends', async () => {
    await monitor.polls(2, { a: { score: 80 } })
    const { resolved } = await monitor.poll({ a: { score: 80, ended: true } })
    expect(resolved.map((a) => a.transitions.at(-1)?.note)).toEqual(['session ended'])
    expect(resolved.map((a) => a.endReason)).toEqual(['session ended'])
  })
})

describe('reliability falling', () => {
  beforeEach(() => setThresholds(monitor.db, { warning: 50, critical: 40 }))

  it('fires on a drop of N points within the window, above the levels, and clears when the window has passed', async () => {
    await monitor.polls(4, { a: { score: 99 } })
    expect((await monitor.poll({ a: { score: 96 } })).fired).toEqual([])
    const fired = (await monitor.poll({ a: { score: 93.5 } })).fired
    expect(fired.map((a) => [a.rule, a.severity])).toEqual([['reliability-falling', 'warning']])
    expect(fired[0]?.transitions[0]?.value).toBe(5.5)
    // Steady at 93.5: once the 99s have left the 5-minute window, the drop is gone.
    const resolved: Alert[] = []
    for (let i = 0; i < 24 && resolved.length === 0; i++) resolved.push(...(await monitor.poll({ a: { score: 93.5 } })).resolved)
    expect(resolved.map((a) => a.id)).toEqual([fired[0]?.id])
    expect(monitor.now - Date.parse(fired[0]?.firedAt ?? '')).toBeGreaterThanOrEqual(5 * 60_000)
  })

  it('waits out the cooldown before the same alert fires again', async () => {
    monitor.rules({ reliabilityFalling: { cooldownMinutes: 10, recoveryPolls: 1 } })
    await monitor.poll({ a: { score: 99 } })
    expect((await monitor.poll({ a: { score: 90 } })).fired).toHaveLength(1)
    // Back up, and the window forgets the 99: resolved.
    expect((await monitor.poll({ a: { score: 99 } }, 6 * 60_000)).resolved).toHaveLength(1)
    const resolvedAt = monitor.now
    // Another drop at once: cooldown.
    expect((await monitor.poll({ a: { score: 90 } })).fired).toEqual([])
    await monitor.poll({ a: { score: 99 } }, 10 * 60_000)
    expect(monitor.now - resolvedAt).toBeGreaterThanOrEqual(10 * 60_000)
    expect((await monitor.poll({ a: { score: 90 } })).fired.map((a) => a.rule)).toEqual(['reliability-falling'])
  })
})

describe('viewers dropping', () => {
  it('fires on a P% fall within the window, not below the minimum audience', async () => {
    await monitor.polls(2, { big: { score: 99, viewers: 1000 }, small: { score: 99, viewers: 40 } })
    const fired = (await monitor.poll({ big: { score: 99, viewers: 650 }, small: { score: 99, viewers: 5 } })).fired
    expect(fired.map((a) => [a.rule, a.eventSessionId, a.severity])).toEqual([['viewers-dropping', 'big', 'critical']])
    expect(fired[0]?.summary).toBe('Viewers fell 35% within 2 min (1000 → 650)')
  })
})

describe('monitor blind', () => {
  it('raises one "cannot reach the service" alert and holds per-session alerts back until polls succeed', async () => {
    await monitor.poll({ a: { score: 99 }, b: { score: 99 }, c: { score: 93 } }) // c: pending 1 of 2
    const fired: Alert[] = []
    for (let i = 0; i < 12; i++) fired.push(...(await monitor.failedPoll()).fired)
    expect(fired.map((a) => [a.rule, a.eventSessionId, a.severity])).toEqual([['monitor-blind', null, 'critical']])
    expect(fired[0]?.summary).toMatch(/^Cannot reach the service: no successful poll for 2\.\d+ min$/)
    expect(await monitor.situation()).toMatchObject({ tray: 'blind', tone: 'blind', blind: [{ connectionId: 'c1', connectionName: 'Tenant' }] })

    // Snapshots arrive while the connection still counts as blind (a stale success time):
    // every session is bad, yet nothing per session fires and c's pending count stays frozen.
    expect((await monitor.poll({ a: { score: 50 }, b: { score: 50 }, c: { score: 50 } }, POLL_MS, false)).fired).toEqual([])
    expect((await monitor.poll({ a: { score: 50 }, b: { score: 50 }, c: { score: 50 } }, POLL_MS, false)).fired).toEqual([])
    expect(monitor.alerts().filter((a) => a.rule !== 'monitor-blind').map((a) => [a.eventSessionId, a.state])).toEqual([['c', 'pending']])

    // The service answers again: blind resolves; c was frozen at 1 of 2, so it fires now.
    const back = await monitor.poll({ a: { score: 99 }, b: { score: 99 }, c: { score: 93 } })
    expect(back.resolved.map((a) => a.rule)).toEqual(['monitor-blind'])
    expect(back.fired.map((a) => [a.rule, a.eventSessionId])).toEqual([['reliability-below', 'c']])
  })
})

describe('acknowledge, snooze and pause', () => {
  it('counts firing alerts, acknowledged ones still firing, and a snooze that ends fires the alert again', async () => {
    const [alert] = await monitor.polls(2, { a: { score: 80 }, b: { score: 99 } })
    const id = alert?.id ?? 0
    expect((await monitor.page()).situation).toMatchObject({ firing: 1, acknowledged: 0, worst: 'critical', tone: 'critical', tray: 'critical' })

    // Snoozed: quiet, held, not firing — and not green either.
    snoozeAlert(monitor.db, id, '15m', monitor.now)
    expect(await monitor.page()).toMatchObject({
      situation: { firing: 0, snoozed: 1, worst: null, tone: 'held', tray: 'ok' },
      alerts: [{ id, state: 'snoozed' }]
    })
    const snoozedAt = monitor.now
    const refired: Alert[] = []
    while (monitor.now < snoozedAt + 15 * 60_000) refired.push(...(await monitor.poll({ a: { score: 80 } })).fired)
    expect(refired.map((a) => [a.id, a.state])).toEqual([[id, 'firing']])
    expect(refired[0]?.transitions.at(-1)?.note).toBe('snooze ended')

    // Acknowledged: the operator knows, yet it still fires (issue 12: it used to count 0 and
    // leave the tray 'ok', a false all-clear).
    acknowledgeAlert(monitor.db, id, 'CDN team on it', monitor.now)
    expect(await monitor.page()).toMatchObject({
      situation: { firing: 1, acknowledged: 1, worst: 'critical', tone: 'critical', tray: 'critical' },
      alerts: [{ id, state: 'acknowledged' }]
    })
    expect((await monitor.page()).situation.headline).toBe('1 alert firing (1 acknowledged)')
    expect(await monitor.polls(3, { a: { score: 80 } })).toEqual([]) // acknowledged stays quiet
    expect(monitor.alerts()[0]?.transitions.map((t) => t.note)).toContain('CDN team on it')
    expect((await monitor.situation(true)).tray).toBe('paused')
  })

  it('keeps a "session-end" snooze until the session ends, and refuses to snooze what is not firing', async () => {
    const [alert] = await monitor.polls(2, { a: { score: 80 } })
    const id = alert?.id ?? 0
    snoozeAlert(monitor.db, id, 'session-end', monitor.now)
    expect(await monitor.polls(200, { a: { score: 80 } })).toEqual([])
    expect((await monitor.poll({ a: { score: 80, ended: true } })).resolved.map((a) => a.id)).toEqual([id])
    expect(() => snoozeAlert(monitor.db, id, '1h', monitor.now)).toThrow(/already resolved/)
    expect(() => acknowledgeAlert(monitor.db, 999, null, monitor.now)).toThrow(/no alert 999/)
  })

  it('stores and counts an alert that fires while notifications are paused', async () => {
    pauseNotifications(monitor.db, 60, monitor.now)
    const fired = await monitor.polls(2, { a: { score: 80 } })
    expect(fired).toHaveLength(1)
    const { situation } = await monitor.page()
    expect(situation.firing).toBe(1)
    expect(Date.parse(situation.notificationsPausedUntil ?? '')).toBeGreaterThan(monitor.now)
    pauseNotifications(monitor.db, 0, monitor.now)
    expect((await monitor.page()).situation.notificationsPausedUntil).toBeNull()
  })
})

describe('a restart in the middle of a firing alert', () => {
  it('continues the same alert from the file: no second fire, and it resolves as one', async () => {
    monitor.rules({ reliabilityFalling: { enabled: false } })
    const [alert] = await monitor.polls(2, { a: { score: 80 } })
    await monitor.poll({ a: { score: 97 } }) // recovery 1 of 2
    const now = monitor.now
    await monitor.close()

    monitor = new Monitor(now) // the same file, a new process's evaluator
    expect((await monitor.poll({ a: { score: 80 } })).fired).toEqual([]) // still firing, not again
    expect(monitor.alerts().map((a) => [a.id, a.state])).toEqual([[alert?.id, 'firing']])
    await monitor.poll({ a: { score: 97 } })
    const resolved = (await monitor.poll({ a: { score: 97 } })).resolved
    expect(resolved.map((a) => a.id)).toEqual([alert?.id])
    expect(states(resolved[0])).toEqual(['pending', 'firing', 'resolved'])
  })
})

describe('alerts belong to their connection', () => {
  it('go with it when it is deleted, overrides included', async () => {
    await monitor.override({ connectionId: 'c1', eventSessionId: 'a', muted: true })
    await monitor.polls(2, { b: { score: 80 } })
    expect(monitor.alerts()).toHaveLength(1)
    monitor.db.prepare('DELETE FROM connections WHERE id = ?').run('c1')
    const left = ['alerts', 'alert_transitions', 'alert_overrides'].map(
      (t) => (monitor.db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n
    )
    expect(left).toEqual([0, 0, 0])
  })

  it('end when their connection is no longer polled, saying why, so they do not hold the tray', async () => {
    await monitor.polls(2, { a: { score: 80 } })
    expect(await monitor.situation()).toMatchObject({ firing: 1, tray: 'critical' })
    expect((await monitor.evaluator.forgetUnwatched(['c1'])).any).toBe(false)
    setConnectionEnabled(monitor.db, 'c1', false)
    const gone = monitor.judged(await monitor.evaluator.forgetUnwatched(['other']))
    expect(gone.any).toBe(true)
    expect(gone.resolved.map((a) => [a.state, a.endReason])).toEqual([['resolved', 'connection disabled: no longer polled']])
    expect(gone.changed.map((a) => a.id)).toEqual(gone.resolved.map((a) => a.id))
    expect(await monitor.situation()).toMatchObject({ tray: 'ok', tone: 'ok', firing: 0, headline: 'No alerts' })
  })

  it('fire again at once when their connection is polled again: an end for want of watching is no recovery, no cooldown', async () => {
    monitor.rules({ reliabilityFalling: { enabled: false } })
    const [first] = await monitor.polls(2, { a: { score: 80 } })
    setConnectionEnabled(monitor.db, 'c1', false)
    await monitor.evaluator.forgetUnwatched([])
    setConnectionEnabled(monitor.db, 'c1', true)
    const again = await monitor.polls(2, { a: { score: 80 } })
    expect(again.map((a) => [a.rule, a.state, a.severity])).toEqual([['reliability-below', 'firing', 'critical']])
    expect(again[0]?.id).not.toBe(first?.id)
    expect(await monitor.situation()).toMatchObject({ firing: 1, cooldown: 0, tray: 'critical' })
  })
})
