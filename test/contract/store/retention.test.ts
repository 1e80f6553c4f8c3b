// Retention: each call forgets one batch of what the settings no longer keep, and never more than
// asked; live sessions, open alerts and staged lists are never touched; a list goes whole.
import { expect, it } from 'vitest'
import type { Store } from '../../../src/main/core/store/interface/store'
import { eachBackend } from './backends'
import { MINUTE, sessionRecord, T0, viewerRecord, withConnection } from './fixtures'

const DAY = 24 * 60 * MINUTE

/** Sessions "old" (ended, began 100 days ago), "young" (ended, began 10 days ago), "marathon"
 *  (live, began 300 days ago), each with `perSession` snapshots a minute apart from its start. */
async function seed(store: Store, perSession: number): Promise<void> {
  await withConnection(store, 'A')
  const sessions = [
    sessionRecord('old', T0 - 100 * DAY, { hasEnded: true }),
    sessionRecord('young', T0 - 10 * DAY, { hasEnded: true }),
    sessionRecord('marathon', T0 - 300 * DAY)
  ]
  await store.withTransaction(async (tx) => {
    await tx.sessions.storeList('A', sessions, T0 - 300 * DAY)
    for (const record of sessions) {
      const start = Date.parse(record.startedAt)
      for (let i = 0; i < perSession; i++) await tx.sessions.storeSnapshot('A', record, start + i * MINUTE)
    }
  })
}

const snapshotsOf = async (store: Store, session: string): Promise<number> => (await store.read.snapshots.since('A', session, 0)).length

eachBackend('retention', (subject) => {
  it('forgets snapshots taken before the cutoff, at most a batch per unit, and says how many', async () => {
    const { store } = subject()
    await seed(store, 3)
    const cutoff = T0 - 50 * DAY // the old session's 3 and the marathon's 3
    expect(await store.withTransaction((tx) => tx.retention.pruneSnapshots(cutoff, 4))).toBe(4)
    expect(await store.withTransaction((tx) => tx.retention.pruneSnapshots(cutoff, 4))).toBe(2)
    expect(await store.withTransaction((tx) => tx.retention.pruneSnapshots(cutoff, 4))).toBe(0)
    expect([await snapshotsOf(store, 'old'), await snapshotsOf(store, 'young'), await snapshotsOf(store, 'marathon')]).toEqual([0, 3, 0])
  })

  it('forgets ended sessions that began before the cutoff, what they held first; never a live one', async () => {
    const { store } = subject()
    await seed(store, 2)
    const cutoff = T0 - 50 * DAY
    expect(await store.withTransaction((tx) => tx.retention.pruneSnapshotsOfEndedSessions(cutoff, 10))).toBe(2)
    expect(await store.withTransaction((tx) => tx.retention.pruneViewerListsOfEndedSessions(cutoff, 10))).toEqual({ lists: 0, viewers: 0 })
    expect(await store.withTransaction((tx) => tx.retention.pruneEndedSessions(cutoff, 10))).toBe(1)
    expect(await store.read.sessions.row('A', 'old')).toBeNull()
    expect(await store.read.sessions.row('A', 'young')).not.toBeNull()
    // Live for 300 days: kept, with its snapshots.
    expect(await store.read.sessions.row('A', 'marathon')).not.toBeNull()
    expect(await snapshotsOf(store, 'marathon')).toBe(2)
  })

  it('forgets alerts resolved before the cutoff; never an open one, however old', async () => {
    const { store } = subject()
    await seed(store, 0)
    const alert = { rule: 'reliability-below' as const, eventName: null, state: 'firing' as const, severity: 'critical' as const, summary: 'low', value: 40, streak: 1 }
    const [old, young, open] = await store.withTransaction(async (tx) => {
      const oldId = await tx.alerts.insert('A', { ...alert, eventSessionId: 'old' }, T0 - 400 * DAY)
      await tx.alerts.move(oldId, { state: 'resolved', severity: 'critical', value: 90, note: 'recovered', endKind: 'recovered' }, T0 - 399 * DAY)
      const youngId = await tx.alerts.insert('A', { ...alert, eventSessionId: 'young' }, T0 - 20 * DAY)
      await tx.alerts.move(youngId, { state: 'resolved', severity: 'critical', value: 90, note: 'recovered', endKind: 'recovered' }, T0 - 19 * DAY)
      return [oldId, youngId, await tx.alerts.insert('A', { ...alert, eventSessionId: 'marathon' }, T0 - 500 * DAY)]
    })
    expect(await store.withTransaction((tx) => tx.retention.pruneResolvedAlerts(T0 - 365 * DAY, 10))).toBe(1)
    expect((await store.read.alerts.many([old!, young!, open!])).map((a) => a.id).sort()).toEqual([young, open].sort())
  })

  it('forgets audit entries made before the cutoff, a batch at a time', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      for (const days of [400, 380, 366, 10]) await tx.team.audit.record({ actor: 'alice', action: `${days} days ago`, subject: null, detail: null }, T0 - days * DAY)
    })
    expect(await store.withTransaction((tx) => tx.retention.pruneAudit(T0 - 365 * DAY, 2))).toBe(2)
    expect(await store.withTransaction((tx) => tx.retention.pruneAudit(T0 - 365 * DAY, 2))).toBe(1)
    expect((await store.read.team.audit.list({ limit: 10 })).map((e) => e.action)).toEqual(['10 days ago'])
  })
})

eachBackend('retention of viewer lists', (subject) => {
  it('forgets whole lists fetched before the cutoff, up to a budget of viewers, one list at least', async () => {
    const s = subject()
    await seed(s.store, 0)
    const viewers = (n: number) => Array.from({ length: n }, (_, i) => viewerRecord(i, T0))
    await s.seedViewerList('A', 'old', viewers(30), T0 - 100 * DAY)
    await s.seedViewerList('A', 'marathon', viewers(2), T0 - 95 * DAY)
    await s.seedViewerList('A', 'young', viewers(3), T0 - 9 * DAY)
    const cutoff = T0 - 90 * DAY
    // 30 viewers > a budget of 4: that list alone, never split; then the next.
    expect(await s.store.withTransaction((tx) => tx.retention.pruneViewerLists(cutoff, 4))).toEqual({ lists: 1, viewers: 30 })
    expect(await s.store.withTransaction((tx) => tx.retention.pruneViewerLists(cutoff, 4))).toEqual({ lists: 1, viewers: 2 })
    expect(await s.store.withTransaction((tx) => tx.retention.pruneViewerLists(cutoff, 4))).toEqual({ lists: 0, viewers: 0 })
    expect([...(await s.store.read.viewers.sessionsWithLists('A'))]).toEqual(['young'])
  })

  it("forgets an ended session's list with it, and groups small lists up to the budget", async () => {
    const s = subject()
    await seed(s.store, 0)
    await s.seedViewerList('A', 'old', [viewerRecord(1, T0)], T0 - 99 * DAY)
    await s.seedViewerList('A', 'young', [viewerRecord(1, T0)], T0 - 9 * DAY)
    await s.seedViewerList('A', 'marathon', [viewerRecord(1, T0)], T0 - 9 * DAY)
    expect(await s.store.withTransaction((tx) => tx.retention.pruneViewerListsOfEndedSessions(T0 - 50 * DAY, 10))).toEqual({ lists: 1, viewers: 1 })
    expect(await s.store.withTransaction((tx) => tx.retention.pruneViewerLists(T0, 10))).toEqual({ lists: 2, viewers: 2 })
    expect(await s.store.read.viewers.sessionsWithLists('A')).toEqual(new Set())
  })
})
