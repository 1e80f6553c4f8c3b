// The core on PostgreSQL (issue 26): a core started on a fresh database of the test cluster polls
// a real simulator over loopback, stores its sessions and snapshots, fires an alert when a session
// falls, and a core started again on the same database reads the same state (the alert, its
// revision going on, the snapshots) — the same core as on SQLite, behind the same Store.
import { afterEach, describe, expect, it } from 'vitest'
import type { AlertsChanged, AlertsPage } from '../../src/shared/alerts'
import type { LiveBoard } from '../../src/shared/domain'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { Cleanups, frozenSimulator, Pushes, saveConnections, startCore, testKeychain, value } from '../support/app-core'
import { freshDatabase } from '../support/postgres-databases'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())

/** Asks `read` until it answers something `test` passes. */
async function eventually<T>(read: () => Promise<T>, test: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const seen = await read()
    if (test(seen)) return seen
    if (Date.now() > until) throw new Error(`never passed: ${JSON.stringify(seen).slice(0, 400)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('a core on PostgreSQL', () => {
  it('polls the simulator into the database (viewer lists too), fires when a session falls, and a restart reads the same state', async () => {
    const database = await freshDatabase()
    cleanups.add(() => database.drop())
    const sim = await frozenSimulator(cleanups, 'pg')
    const secrets = testKeychain(cleanups)
    const ids = await saveConnections(database.url, secrets, [{ sim, name: 'Tenant PG' }])
    const connectionId = ids['Tenant PG']!

    let core = await startCore(cleanups, { db: database.url, secrets })
    let pushes = new Pushes(core)
    const live = sim.world.sessions.filter((s) => !s.hasEnded).map((s) => s.eventSessionId)
    const board = await eventually(
      () => value<LiveBoard>(core, 'listLiveSessions'),
      (b) => b.sessions.filter((s) => s.connectionId === connectionId).length === live.length
    )
    expect(board.sessions.map((s) => s.eventSessionId).sort()).toEqual([...live].sort())

    // The victim falls 25 points: two polls later its alerts fire, pushed and stored.
    const victim = live[1]!
    sim.faults.incident(victim, { drop: 25, minutes: 10 })
    const fired = pushes.next('alertsChanged', (p: AlertsChanged) => p.fired.some((a) => a.rule === 'reliability-below'), 30_000)
    // A poll at a time until the critical level has been crossed twice in a row.
    await eventually(
      () => value(core, 'refreshNow').then(() => pushes.of('alertsChanged')),
      (all) => all.some((p) => p.fired.some((a) => a.rule === 'reliability-below')),
      30_000
    )
    const firing = await fired
    expect(firing.fired.map((a) => [a.rule, a.eventSessionId])).toContainEqual(['reliability-below', victim])
    const revision = firing.situation.revision

    // What the database holds, read by another store as another server would.
    const other = await openPgStore(database.url)
    cleanups.add(() => other.close())
    expect((await other.read.snapshots.since(connectionId, victim, 0)).length).toBeGreaterThanOrEqual(2)
    expect((await other.read.alerts.open(connectionId)).map((a) => [a.rule, a.eventSessionId])).toContainEqual(['reliability-below', victim])
    // The viewer lists went in with COPY, whole: each live session's (and ended ones'), as many viewers as the service listed.
    expect([...(await other.read.viewers.sessionsWithLists(connectionId))]).toEqual(expect.arrayContaining(live))
    const listed = sim.world.find(victim)!.viewers.length
    expect((await other.read.viewers.page(connectionId, victim, { sort: 'reliabilityScore', limit: 10 })).total).toBe(listed)

    // A restart on the same database: the same alert, and the revisions go on from there.
    await core.close()
    core = await startCore(cleanups, { db: database.url, secrets, polling: false })
    pushes = new Pushes(core)
    const page = await value<AlertsPage>(core, 'listAlerts', { limit: 50 })
    expect(page.alerts.map((a) => [a.rule, a.eventSessionId, a.state])).toContainEqual(['reliability-below', victim, 'firing'])
    expect(page.situation.revision).toBeGreaterThanOrEqual(revision)
    expect((await other.read.sessions.live(connectionId)).map((s) => s.event_session_id).sort()).toEqual([...live].sort())
  }, 90_000)
})
