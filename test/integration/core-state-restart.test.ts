// What the core decided survives a restart on the same cache file (issue 25, plan step 4): it
// is rows, not memory. A restart here is what it is in the app: the file closed, opened again,
// a fresh core (evaluator, monitor, app core) on it. Real SQLite files; the demo over loopback.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { nothingApplied } from '../../src/main/core/alerts/apply'
import { AlertEvaluator } from '../../src/main/core/alerts/evaluator'
import { readSituation } from '../../src/main/core/alerts/page'
import { EventHub } from '../../src/main/core/app/event-hub'
import { Monitor } from '../../src/main/core/app/monitor'
import { loadVerdicts } from '../../src/main/core/app/verdicts'
import { insertAlert, listAlerts } from '../../src/main/core/store/alerts'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { setAlertRules } from '../../src/main/core/store/settings'
import { DEFAULT_ALERT_RULES, type AlertsChanged, type AlertSituation } from '../../src/shared/alerts'
import type { Status } from '../../src/shared/domain'
import { Cleanups, startCore, value, waitForStatus } from '../support/app-core'
import { T0 } from '../support/fake-clock'

const MIN = 60_000
let dir: string
let file: string
const open: Db[] = []
const stores: SqliteStore[] = []

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-core-state-'))
  file = join(dir, 'cache.db')
})
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close()
  for (const db of open.splice(0)) if (db.open) db.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The cache file opened as a core opens it at start. */
function openCache(): Db {
  const db = openDatabase(file)
  open.push(db)
  upsertConnection(db, { id: 'c1', name: 'Tenant', baseUrl: 'https://api.example.com', authUrl: 'https://auth.example.com', platformId: 'p', tenantId: 't', clientId: 'client', isDemo: false })
  return db
}

/** The Store on a cache opened as the core opens it (on its connection). */
function storeOn(db: Db): SqliteStore {
  const store = openSqliteStore(db.name, { writer: db })
  stores.push(store)
  return store
}

/** One connection's alert rules on a clock moved by hand, as the core runs them. */
class Core {
  readonly db = openCache()
  readonly store = storeOn(this.db)
  readonly evaluator: AlertEvaluator
  constructor(public now: number) {
    this.evaluator = new AlertEvaluator(this.store, () => loadVerdicts(this.store.read), () => this.now)
  }
  poll(score: number, afterMs = 15_000) {
    this.now += afterMs
    storeSessionSnapshot(
      this.db,
      'c1',
      {
        eventSessionId: 'a',
        platformId: 'p',
        tenantId: 't',
        contentId: 'content-a',
        eventName: 'Event a',
        startedAt: new Date(T0 - 3_600_000).toISOString(),
        updatedAt: new Date(this.now).toISOString(),
        hasEnded: false,
        viewersCount: 1000,
        reliabilityScore: score,
        cdnTraffic: 0,
        ecdnTraffic: 0
      },
      this.now
    )
    return this.evaluator.evaluate('c1', this.now)
  }
  situation(): Promise<AlertSituation> {
    return readSituation(this.store.read, { revision: 0, epoch: 'e', cooling: () => this.evaluator.cooling(), unconfirmed: () => [], pollingPaused: () => false }, this.now)
  }
  async restart(): Promise<Core> {
    await this.store.close()
    this.db.close()
    return new Core(this.now)
  }
}

describe('the alert rules across a restart', () => {
  it('still count a cooldown in force, and do not fire through it', async () => {
    let core = new Core(T0)
    setAlertRules(core.db, {
      ...DEFAULT_ALERT_RULES,
      reliabilityBelow: { ...DEFAULT_ALERT_RULES.reliabilityBelow, enabled: false },
      reliabilityFalling: { ...DEFAULT_ALERT_RULES.reliabilityFalling, cooldownMinutes: 10, recoveryPolls: 1 }
    })
    await core.poll(99)
    expect((await core.poll(90)).fired).toHaveLength(1)
    expect((await core.poll(99, 6 * MIN)).resolved).toHaveLength(1)
    expect((await core.poll(90)).fired).toEqual([]) // held back by the cooldown
    expect(await core.situation()).toMatchObject({ cooldown: 1, tone: 'held' })

    core = await core.restart()
    // Before any poll: the cooldown is still counted — never an all-clear.
    expect(await core.situation()).toMatchObject({ cooldown: 1, tone: 'held' })
    expect((await core.poll(90)).fired).toEqual([])
    expect(await core.situation()).toMatchObject({ cooldown: 1 })
  })

  it('count a poll once: a restart does not judge the newest snapshot again', async () => {
    let core = new Core(T0)
    setAlertRules(core.db, { ...DEFAULT_ALERT_RULES, reliabilityFalling: { ...DEFAULT_ALERT_RULES.reliabilityFalling, enabled: false } })
    await core.poll(99)
    await core.poll(93) // below the warning level: pending, 1 of 2
    expect(listAlerts(core.db, {}, core.now)).toEqual([expect.objectContaining({ state: 'pending' })])

    core = await core.restart()
    // Judged again without a new poll (the clock's tick after the restart): still 1 of 2.
    expect((await core.evaluator.evaluate('c1', core.now)).fired).toEqual([])
    expect(listAlerts(core.db, {}, core.now)).toEqual([expect.objectContaining({ state: 'pending' })])
    expect((await core.poll(93)).fired).toHaveLength(1)
  })
})

describe('the monitor across a restart', () => {
  async function monitorOn(db: Db, now: () => number) {
    const hub = new EventHub()
    const pushes: AlertsChanged[] = []
    hub.subscribe((name, payload) => {
      if (name === 'alertsChanged') pushes.push(payload as AlertsChanged)
    })
    const monitor = await Monitor.begin(storeOn(db), hub, { clock: now, polled: () => ['c1'], unconfirmed: () => [], pollingPaused: () => false })
    return { monitor, pushes }
  }

  it("repeats a critical on its grid: no step twice, none skipped while the core was down", async () => {
    let now = T0
    let db = openCache()
    setAlertRules(db, { ...DEFAULT_ALERT_RULES, repeatCritical: { enabled: true, everyMinutes: 1 } })
    const id = insertAlert(db, 'c1', { rule: 'monitor-blind', eventSessionId: null, eventName: null, state: 'firing', severity: 'critical', summary: 'blind', value: 0, streak: 1 }, T0)
    let { monitor, pushes } = await monitorOn(db, () => now)
    now = T0 + 30_000
    await monitor.repeatTick()
    now = T0 + 61_000
    await monitor.repeatTick() // step 1
    expect(pushes.map((p) => p.repeated.map((a) => a.id))).toEqual([[id]])

    await monitor.store.close()
    db.close()
    db = openCache()
    ;({ monitor, pushes } = await monitorOn(db, () => now))
    now = T0 + 125_000 // step 2 came round while the core was down: announced at its first tick
    await monitor.repeatTick()
    expect(pushes.map((p) => p.repeated.map((a) => a.id))).toEqual([[id]])
    now = T0 + 135_000 // and not again
    await monitor.repeatTick()
    expect(pushes).toHaveLength(1)
  })

  it('goes on counting revisions in a new epoch; a second core on the file counts in its epoch too', async () => {
    const db = openCache()
    const first = await monitorOn(db, () => T0)
    const a = await first.monitor.publishAlerts(nothingApplied())
    expect(a.revision).toBeGreaterThan(0)

    // Another core starts on the same file (a restart, or a second process): a new epoch, the count goes on.
    const otherDb = openDatabase(file)
    open.push(otherDb)
    const second = await monitorOn(otherDb, () => T0)
    const b = await second.monitor.situation()
    expect(b.epoch).not.toBe(a.epoch)
    expect(b.revision).toBeGreaterThanOrEqual(a.revision)
    // The first core's next push is in that epoch, after it: no revision handed out twice.
    const c = await first.monitor.publishAlerts(nothingApplied())
    expect(c.epoch).toBe(b.epoch)
    expect(c.revision).toBeGreaterThan(b.revision)
    expect(first.pushes.at(-1)?.situation).toMatchObject({ epoch: b.epoch, revision: c.revision })
    // The board, likewise.
    expect((await second.monitor.board.current()).epoch).toBe(second.monitor.epoch)
    expect((await first.monitor.board.current()).epoch).toBe(second.monitor.epoch)
  })
})

describe('the app core across a restart', () => {
  const cleanups = new Cleanups()
  afterEach(() => cleanups.runAll())

  it('keeps polling paused, and its status says so', async () => {
    const dbFile = join(dir, 'app.db')
    const first = await startCore(cleanups, { db: dbFile, demoLiveSessions: 2 })
    expect(await value<Status>(first, 'setPaused', { paused: true })).toMatchObject({ paused: true })
    await first.close()

    const second = await startCore(cleanups, { db: dbFile, demoLiveSessions: 2 })
    const status = await waitForStatus(second, (s) => s.connections.length > 0)
    expect(status).toMatchObject({ paused: true, pollState: 'paused' })
    expect(status.connections[0]).toMatchObject({ state: 'paused' })
    await value(second, 'setPaused', { paused: false })
    await second.close()

    const third = await startCore(cleanups, { db: dbFile, demoLiveSessions: 2 })
    expect(await value<Status>(third, 'getStatus')).toMatchObject({ paused: false })
  }, 30_000)
})
