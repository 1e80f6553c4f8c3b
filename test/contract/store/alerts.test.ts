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

  it('pages the whole history with transitions, oldest opened first', async () => {
    const store = await withSession()
    const ids = await store.withTransaction(async (tx) => {
      const first = await tx.alerts.insert('A', firing(), T0)
      await tx.alerts.move(first, { state: 'resolved', severity: 'critical', value: 80, note: 'recovered', endKind: 'recovered' }, T0 + MINUTE)
      return [first, await tx.alerts.insert('A', firing({ rule: 'viewers-dropping', severity: 'warning' }), T0 + 2 * MINUTE)]
    })
    const page = await store.read.alerts.historyPage({ offset: 0, limit: 1 })
    expect(page.map((a) => [a.id, a.transitions.map((t) => t.state)])).toEqual([[ids[0], ['firing', 'resolved']]])
    expect((await store.read.alerts.historyPage({ offset: 1, limit: 10 })).map((a) => a.id)).toEqual([ids[1]])
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

  it('reads what the alert path needs across connections: the unresolved, several by id, the blind, the criticals to repeat', async () => {
    const store = await withSession()
    await withConnection(store, 'B', 'Tenant B')
    const [critical, warning, blind, acknowledged, resolvedSite] = await store.withTransaction(async (tx) => {
      const ids = [
        await tx.alerts.insert('A', firing(), T0),
        await tx.alerts.insert('A', firing({ rule: 'viewers-dropping', severity: 'warning' }), T0),
        await tx.alerts.insert('B', firing({ rule: 'monitor-blind', eventSessionId: null, eventName: null }), T0 + MINUTE),
        await tx.alerts.insert('A', firing({ rule: 'reliability-falling' }), T0),
        await tx.alerts.insert('A', firing({ rule: 'site-reliability', site: '7' }), T0)
      ]
      await tx.alerts.acknowledge(ids[3]!, null, 'dana', T0 + MINUTE)
      await tx.alerts.move(ids[4]!, { state: 'resolved', severity: 'critical', value: 90, note: 'recovered', endKind: 'recovered' }, T0 + MINUTE)
      return ids
    })
    expect((await store.read.alerts.unresolved()).map((a) => [a.id, a.connectionId, a.state]).sort()).toEqual(
      [[critical, 'A', 'firing'], [warning, 'A', 'firing'], [blind, 'B', 'firing'], [acknowledged, 'A', 'acknowledged']].sort()
    )
    // In the order asked; an id that is gone is skipped.
    expect((await store.read.alerts.many([blind!, 999, critical!])).map((a) => [a.id, a.connectionName])).toEqual([
      [blind, 'Tenant B'],
      [critical, 'Tenant A']
    ])
    expect(await store.read.alerts.blind()).toEqual([{ connectionId: 'B', connectionName: 'Tenant B' }])
    // Every alert of a connection, the resolved one too: what goes when it is removed.
    expect((await store.read.alerts.idsOf('A')).sort((x, y) => x - y)).toEqual([critical, warning, acknowledged, resolvedSite])
    expect(await store.read.alerts.idsOf('B')).toEqual([blind])
    expect(await store.read.alerts.idsOf('nobody')).toEqual([])
    // Firing critical, not acknowledged, not resolved: what repeats, from when it fired.
    expect((await store.read.alerts.firingCriticals()).sort((a, b) => a.id - b.id)).toEqual([
      { id: critical, firedAt: T0 },
      { id: blind, firedAt: T0 + MINUTE }
    ])
  })

  it("keeps a session's override, and forgets one that changes nothing", async () => {
    const store = await withSession()
    expect((await store.read.alerts.overrides('A')).size).toBe(0)
    await store.withTransaction(async (tx) => {
      await tx.alerts.setOverride('A', 's', { muted: true, thresholds: null })
      await tx.alerts.setOverride('A', 't', { muted: false, thresholds: { warning: 80, critical: 70 } })
    })
    expect([...(await store.read.alerts.overrides('A'))]).toEqual([
      ['s', { muted: true, thresholds: null }],
      ['t', { muted: false, thresholds: { warning: 80, critical: 70 } }]
    ])
    expect((await store.read.alerts.overrides('B')).size).toBe(0)
    await store.withTransaction((tx) => tx.alerts.setOverride('A', 's', { muted: false, thresholds: null }))
    expect([...(await store.read.alerts.overrides('A')).keys()]).toEqual(['t'])
  })
})
