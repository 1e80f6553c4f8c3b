// Pushes across servers (docs/scaling-plan.md section 3): two servers' cores on one PostgreSQL
// database, each with its own pool, hub and relay (fanout/server-relay.ts). What one server's
// units change reaches the other's faces from LISTEN/NOTIFY: the alerts pushes with their data and
// the revision they were taken with, each revision once and in order on every hub; the board
// after a poll unit, published by each server for the connection named, with its own revisions;
// and what was notified while a server's listening connection was down, read again when it is
// back. No timer is measured: the board's gathering runs on timers the test moves.
import { randomBytes } from 'node:crypto'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { alertHandlers } from '../../src/main/core/alerts/handlers'
import { EventHub } from '../../src/main/core/app/event-hub'
import { Monitor } from '../../src/main/core/app/monitor'
import { ServerRelay } from '../../src/main/core/fanout/server-relay'
import type { Store } from '../../src/main/core/store/interface/store'
import { LISTENER_APPLICATION_NAME } from '../../src/main/core/store/postgres/pg-listener'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { storeDetails } from '../../src/main/core/sync/fetched'
import type { AlertsChanged } from '../../src/shared/alerts'
import type { RequestContext } from '../../src/shared/contract'
import type { SessionsChanged } from '../../src/shared/domain'
import { connectionSettings, sessionRecord, T0 } from '../contract/store/fixtures'
import { ManualTimers } from '../support/manual-timers'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'

let database: TestDatabase
const cleanups: (() => Promise<void> | void)[] = []
const now = T0 + 60_000
const alice = { actor: { name: 'alice', role: 'operator' }, team: true } as RequestContext

beforeEach(async () => {
  database = await freshDatabase()
})

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await database.drop()
})

/** Timers the test moves, that say when the board's gathering has begun. */
class GatheringTimers extends ManualTimers {
  private waits: (() => void)[] = []
  override setTimeout(callback: () => void, ms: number): unknown {
    const handle = super.setTimeout(callback, ms)
    for (const wait of this.waits.splice(0)) wait()
    return handle
  }
  async armed(): Promise<void> {
    while (this.scheduled.length === 0) await new Promise<void>((resolve) => this.waits.push(resolve))
  }
}

/** What a server's faces heard, in order; a test waits (no timer) for what it expects. */
class Faces {
  readonly alerts: AlertsChanged[] = []
  readonly board: SessionsChanged[] = []
  private waits: (() => void)[] = []

  constructor(hub: EventHub) {
    hub.subscribe((name, payload) => {
      if (name === 'alertsChanged') this.alerts.push(payload as AlertsChanged)
      if (name === 'sessionsChanged') this.board.push(payload as SessionsChanged)
      for (const wait of this.waits.splice(0)) wait()
    })
  }

  async until(done: () => boolean): Promise<void> {
    while (!done()) await new Promise<void>((resolve) => this.waits.push(resolve))
  }

  /** The revisions of the alerts pushes heard. */
  get revisions(): number[] {
    return this.alerts.map((push) => push.situation.revision)
  }

  untilRevision(revision: number): Promise<void> {
    return this.until(() => this.revisions.includes(revision))
  }
}

/** A server: its own store (pool and listening connection), hub, core and relay. */
async function server(url = database.url) {
  const store = await openPgStore(url, { listener: { firstDelayMs: 10, maxDelayMs: 20 } })
  cleanups.push(() => store.close())
  const hub = new EventHub()
  const faces = new Faces(hub)
  const monitor = await Monitor.begin(store, hub, {
    clock: () => now,
    polled: () => ['c1', 'c2'],
    unconfirmed: () => [],
    pollingPaused: () => false,
    boardCountsAlone: true
  })
  const timers = new GatheringTimers(now)
  const said: string[] = []
  const relay = await ServerRelay.start(store, monitor, { clock: () => now, timers, say: (line) => said.push(line) })
  cleanups.push(() => relay.stop(), () => monitor.judged())
  const handlers = alertHandlers(store, {
    clock: () => now,
    situation: () => monitor.situation(),
    changes: monitor.changes,
    publishAlerts: (change, announcement) => monitor.publishAlerts(change, announcement),
    publishBoard: () => monitor.publishBoard(),
    reevaluate: async () => undefined
  })
  /** The board's gathering has begun: it publishes, and the test waits for that push. */
  const boardFollows = async (): Promise<void> => {
    await timers.armed()
    await timers.advance(500, () => relay.settled())
  }
  return { store, faces, monitor, relay, handlers, said, boardFollows }
}

/** Two connections with a live session each, and a critical firing on c1's: as a poller and the engine left them. */
async function seed(store: Store): Promise<number> {
  return store.withTransaction(async (tx) => {
    for (const id of ['c1', 'c2']) {
      await tx.connections.insert(connectionSettings(`Tenant ${id}`), id, T0)
      await storeDetails(tx, id, [{ value: sessionRecord(`${id}-s1`, T0, { reliabilityScore: 40 }), at: T0 }])
    }
    return tx.alerts.insert(
      'c1',
      { rule: 'reliability-below', eventSessionId: 'c1-s1', eventName: 'Event c1-s1', state: 'firing', severity: 'critical', summary: 'reliability 40 below 60', value: 40, streak: 2 },
      T0
    )
  })
}

it("brings an acknowledgement made through one server to the other's faces, with the alert as acknowledged and the same revision, once each", async () => {
  const a = await server()
  const b = await server()
  const id = await seed(a.store)

  await a.handlers.acknowledgeAlert({ id, note: 'on it' }, alice)
  const acknowledged = a.faces.alerts.at(-1)!
  expect(acknowledged.changed.map((alert) => [alert.id, alert.state, alert.transitions.at(-1)?.by, alert.transitions.at(-1)?.note])).toEqual([[id, 'acknowledged', 'alice', 'on it']])
  await b.faces.untilRevision(acknowledged.situation.revision)
  // A push carries data: the other server's faces get what this one's got.
  expect(b.faces.alerts).toEqual([acknowledged])

  // A change through the other server comes after it, on both: its notification is delivered in
  // commit order, so by then the first one's has been heard by each (none pushed twice).
  await b.handlers.pauseNotifications({ minutes: 15 }, alice)
  const paused = b.faces.alerts.at(-1)!
  expect(paused.situation.notificationsPausedUntil).not.toBeNull()
  await a.faces.untilRevision(paused.situation.revision)
  expect(a.faces.revisions).toEqual([acknowledged.situation.revision, paused.situation.revision])
  expect(b.faces.revisions).toEqual([acknowledged.situation.revision, paused.situation.revision])
  expect(a.faces.alerts[1]).toEqual({ ...paused, situation: { ...paused.situation } })
  expect(a.said).toEqual([])
  expect(b.said).toEqual([])
})

it('gives every server its pushes in revision order, whichever server took each, with every alert change in them', async () => {
  const a = await server()
  const b = await server()
  const alertIds = [await seed(a.store)]
  // Two more firing on the same session (one open alert per rule).
  for (const rule of ['viewers-dropping', 'reliability-falling'] as const) {
    alertIds.push(
      await a.store.withTransaction((tx) =>
        tx.alerts.insert('c1', { rule, eventSessionId: 'c1-s1', eventName: 'Event c1-s1', state: 'firing', severity: 'warning', summary: rule, value: 1, streak: 2 }, T0)
      )
    )
  }
  // At once, through both servers: acknowledgements, a snooze and a pause (the situation alone).
  await Promise.all([
    a.handlers.acknowledgeAlert({ id: alertIds[0]!, note: undefined }, alice),
    b.handlers.acknowledgeAlert({ id: alertIds[1]!, note: undefined }, alice),
    b.handlers.pauseNotifications({ minutes: 5 }, alice),
    a.handlers.snoozeAlert({ id: alertIds[2]!, until: '1h' }, alice)
  ])
  const last = (await a.store.read.coreState.revision('alerts'))!.revision
  await Promise.all([a.faces.untilRevision(last), b.faces.untilRevision(last)])
  for (const faces of [a.faces, b.faces]) {
    // Strictly in order: a face drops a push no newer than the one it holds.
    expect(faces.revisions).toEqual([...faces.revisions].sort((x, y) => x - y))
    expect(new Set(faces.revisions).size).toBe(faces.revisions.length)
    const latest = new Map(faces.alerts.flatMap((push) => push.changed).map((alert) => [alert.id, alert.state]))
    expect(Object.fromEntries(latest)).toEqual({ [alertIds[0]!]: 'acknowledged', [alertIds[1]!]: 'acknowledged', [alertIds[2]!]: 'snoozed' })
    expect(faces.alerts.at(-1)!.situation.notificationsPausedUntil).not.toBeNull()
  }
})

it("has the other server's board follow a poll unit, for the connections it named, with that server's own revisions", async () => {
  const a = await server()
  const b = await server()
  await seed(a.store)
  // B's board as its faces first read it (the seed's notification gathered meanwhile is published too).
  await b.boardFollows()
  const before = b.faces.board.length

  // A poll unit of each connection on A, then an alert change (a barrier: notifications arrive in commit order).
  await a.store.withTransaction((tx) => storeDetails(tx, 'c1', [{ value: sessionRecord('c1-s1', T0, { viewersCount: 500 }), at: now }]))
  await a.store.withTransaction((tx) => storeDetails(tx, 'c2', [{ value: sessionRecord('c2-s2', T0), at: now }]))
  // A's own board follows its units too, with A's revisions: they are no gap in B's.
  await a.monitor.publishBoard()
  await a.handlers.pauseNotifications({ minutes: 5 }, alice)
  const paused = a.faces.alerts.at(-1)!.situation.revision
  await b.faces.untilRevision(paused)
  await b.boardFollows()

  // Both connections' rows in one push, diffed against what B pushed before, counted by B alone.
  const pushes = b.faces.board.slice(before)
  expect(pushes).toHaveLength(1)
  const push = pushes[0]!
  expect(push.rows.map((row) => [row.connectionId, row.eventSessionId, row.latestPoint?.viewersCount ?? null])).toEqual([
    ['c1', 'c1-s1', 500],
    ['c2', 'c2-s2', 100]
  ])
  expect(push.removed).toEqual([])
  expect(push.epoch).toBe(b.monitor.epoch)
  expect(b.faces.board.map((p) => p.revision)).toEqual(b.faces.board.map((_, i) => i + 1))
  expect(a.faces.board.map((p) => [p.epoch, p.revision])).toEqual(a.faces.board.map((_, i) => [a.monitor.epoch, i + 1]))
  // What B's faces now hold is the board as it is.
  const board = await b.monitor.board.current()
  expect(board).toMatchObject({ epoch: b.monitor.epoch, revision: push.revision })
  expect(board.sessions.map((s) => s.eventSessionId).sort()).toEqual(['c1-s1', 'c2-s1', 'c2-s2'])
})

it('catches up, when its listening connection is back, on what was notified while it was down: the alerts pushes and the board', async () => {
  // B signs in as a role of its own, so that the test can keep it from reconnecting for a while.
  const role = `server_b_${randomBytes(4).toString('hex')}`
  await database.query(`CREATE ROLE ${role} LOGIN SUPERUSER`)
  cleanups.push(async () => {
    await database.query(`ALTER ROLE ${role} LOGIN`)
    await database.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined)
  })
  const a = await server()
  const asRole = new URL(database.url)
  asRole.username = role
  const b = await server(asRole.toString())
  const id = await seed(a.store)
  await b.boardFollows()
  const boardBefore = b.faces.board.length

  // B's listening connection drops, and cannot come back yet.
  await database.query(`ALTER ROLE ${role} NOLOGIN`)
  await database.query(
    `SELECT pg_terminate_backend(pid) FROM (SELECT pid FROM pg_stat_activity WHERE usename = $1 AND application_name = $2) AS listening`,
    [role, LISTENER_APPLICATION_NAME]
  )
  await b.faces.until(() => b.said.length > 0)
  expect(b.said).toEqual([expect.stringMatching(/the connection listening for notifications on .* dropped \(.*\); reconnecting/)])

  // Meanwhile A acknowledges, and polls: B hears none of it.
  await a.handlers.acknowledgeAlert({ id, note: undefined }, alice)
  await a.store.withTransaction((tx) => storeDetails(tx, 'c2', [{ value: sessionRecord('c2-s1', T0, { viewersCount: 900 }), at: now }]))
  const acknowledged = a.faces.alerts.at(-1)!

  // Back: B reads the alerts pushes it missed and publishes its whole board (a diff).
  await database.query(`ALTER ROLE ${role} LOGIN`)
  await b.faces.untilRevision(acknowledged.situation.revision)
  expect(b.faces.alerts).toEqual([acknowledged])
  await b.faces.until(() => b.faces.board.slice(boardBefore).some((push) => push.rows.some((row) => row.latestPoint?.viewersCount === 900)))
  await b.relay.settled()
  expect(b.said).toHaveLength(1)
})
