// Alerts: the open ones the engine continues from, their transitions and authors, the operator's
// acknowledgements and snoozes, the notification pause.
import { expect, it } from 'vitest'
import type { NewAlert } from '../../../src/main/core/store/interface/alerts'
import { eachBackend } from './backends'
import { MINUTE, sessionRecord, T0, withConnection } from './fixtures'

const firing = (over: Partial<NewAlert> = {}): NewAlert => ({
  rule: 'reliability-below',
  eventSessionId: 's',
  eventName: 'Event s',
  state: 'firing',
  severity: 'critical',
  summary: 'reliability 40 below 60',
  value: 40,
  streak: 1,
  ...over
})

eachBackend('alerts', (subject) => {
  async function withSession() {
    const s = subject()
    await withConnection(s.store, 'A', 'Tenant A')
    await s.store.withTransaction((tx) => tx.sessions.storeList('A', [sessionRecord('s', T0)], T0))
    return s.store
  }

  it('opens an alert and reads it back as the engine and the alerts view see it', async () => {
    const store = await withSession()
    const id = await store.withTransaction((tx) => tx.alerts.insert('A', firing(), T0))
    expect(await store.read.alerts.open('A')).toEqual([
      expect.objectContaining({ id, rule: 'reliability-below', eventSessionId: 's', state: 'firing', severity: 'critical', streak: 1, site: null })
    ])
    const alert = await store.read.alerts.get(id)
    expect(alert).toMatchObject({ id, connectionName: 'Tenant A', state: 'firing', firedAt: new Date(T0).toISOString(), resolvedAt: null })
    expect(alert.transitions).toEqual([expect.objectContaining({ state: 'firing', value: 40 })])
    expect(await store.read.alerts.openCounts()).toEqual([{ state: 'firing', severity: 'critical', n: 1 }])
    expect((await store.read.alerts.openAboutSessions()).map((a) => a.id)).toEqual([id])
  })

  it('answers an unknown alert with a not-found error', async () => {
    const store = await withSession()
    await expect(store.read.alerts.get(999)).rejects.toMatchObject({ kind: 'not-found' })
  })

  it('signs an acknowledgement and a snooze with their author, and refuses them once resolved', async () => {
    const store = await withSession()
    const id = await store.withTransaction((tx) => tx.alerts.insert('A', firing(), T0))
    await store.withTransaction((tx) => tx.alerts.acknowledge(id, 'on it', 'dana', T0 + MINUTE))
    await store.withTransaction((tx) => tx.alerts.snooze(id, '1h', 'lee', T0 + 2 * MINUTE))
    const alert = await store.read.alerts.get(id)
    expect(alert.state).toBe('snoozed')
    expect(alert.snoozedUntil).toBe(new Date(T0 + 2 * MINUTE + 60 * MINUTE).toISOString())
    expect(alert.transitions.map((t) => [t.state, t.by ?? null, t.note])).toEqual([
      ['firing', null, null],
      ['acknowledged', 'dana', 'on it'],
      ['snoozed', 'lee', 'for 1h']
    ])
    await store.withTransaction((tx) =>
      tx.alerts.move(id, { state: 'resolved', severity: 'critical', value: 80, note: 'recovered', endKind: 'recovered' }, T0 + 3 * MINUTE)
    )
    expect(await store.read.alerts.open('A')).toEqual([])
    await expect(store.withTransaction((tx) => tx.alerts.acknowledge(id, null, 'dana', T0 + 4 * MINUTE))).rejects.toThrow(/already resolved/)
    expect((await store.read.alerts.lastResolved('A', T0)).size).toBe(1)
  })

  it('lists open alerts before history, and discards a pending one without a trace', async () => {
    const store = await withSession()
    const old = await store.withTransaction(async (tx) => {
      const id = await tx.alerts.insert('A', firing({ rule: 'viewers-dropping', severity: 'warning' }), T0)
      await tx.alerts.move(id, { state: 'resolved', severity: 'warning', value: null, note: 'recovered', endKind: 'recovered' }, T0 + MINUTE)
      return id
    })
    const open = await store.withTransaction((tx) => tx.alerts.insert('A', firing(), T0 + 2 * MINUTE))
    const pending = await store.withTransaction((tx) => tx.alerts.insert('A', firing({ rule: 'reliability-falling', state: 'pending' }), T0 + 3 * MINUTE))
    await store.withTransaction((tx) => tx.alerts.discard(pending))
    expect((await store.read.alerts.list({}, T0 + 10 * MINUTE)).map((a) => a.id)).toEqual([open, old])
    expect((await store.read.alerts.list({ limit: 1 }, T0 + 10 * MINUTE)).map((a) => a.id)).toEqual([open])
  })

  it('keeps a streak the engine counts up', async () => {
    const store = await withSession()
    const id = await store.withTransaction((tx) => tx.alerts.insert('A', firing({ state: 'pending', streak: 1 }), T0))
    await store.withTransaction((tx) => tx.alerts.setStreak(id, 3))
    expect((await store.read.alerts.open('A'))[0]?.streak).toBe(3)
  })

  it('pauses notifications for a while, and lifts the pause', async () => {
    const store = await withSession()
    expect(await store.read.alerts.pausedUntil(T0)).toBeNull()
    await store.withTransaction((tx) => tx.alerts.pause(30, T0))
    expect(await store.read.alerts.pausedUntil(T0 + MINUTE)).toBe(T0 + 30 * MINUTE)
    expect(await store.read.alerts.pausedUntil(T0 + 31 * MINUTE)).toBeNull()
    await store.withTransaction((tx) => tx.alerts.pause(0, T0))
    expect(await store.read.alerts.pausedUntil(T0 + MINUTE)).toBeNull()
  })

  it('keeps an operator’s override of a session, and forgets one that changes nothing', async () => {
    const store = await withSession()
    await store.withTransaction((tx) => tx.alerts.setOverride('A', 's', { muted: true, thresholds: { warning: 70, critical: 50 } }))
    expect(await store.read.alerts.overrides('A')).toEqual(new Map([['s', { muted: true, thresholds: { warning: 70, critical: 50 } }]]))
    expect(await store.read.alerts.overrides('B')).toEqual(new Map())
    await store.withTransaction((tx) => tx.alerts.setOverride('A', 's', { muted: false, thresholds: null }))
    expect(await store.read.alerts.overrides('A')).toEqual(new Map())
  })

  it('names the session’s open site alerts by site, past pending only', async () => {
    const store = await withSession()
    const site = (code: string, state: 'pending' | 'firing') =>
      firing({ rule: 'site-reliability', site: code, state, summary: `site ${code} at 40` })
    const fired = await store.withTransaction((tx) => tx.alerts.insert('A', site('311', 'firing'), T0))
    await store.withTransaction((tx) => tx.alerts.insert('A', site('312', 'pending'), T0))
    expect(await store.read.alerts.openAboutSites('A', 's')).toEqual(
      new Map([['311', { id: fired, state: 'firing', severity: 'critical', summary: 'site 311 at 40' }]])
    )
    expect(await store.read.alerts.openAboutSites('A', 'other')).toEqual(new Map())
  })
})
