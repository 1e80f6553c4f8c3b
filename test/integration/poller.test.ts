// The poller (src/main/core/sync/poller.ts) against the simulator over loopback HTTP, into a real
// SQLite file; and startAppCore (src/main/core/app/start.ts), which composes them, end to end.
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ReportingClient } from '../../src/main/core/api/client'
import { DEMO_CONNECTION_ID, startDemoSource, type DataSource } from '../../src/main/core/app/demo-source'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { listSnapshots } from '../../src/main/core/store/sessions'
import { Poller, type PollerStatus, type PollOutcome } from '../../src/main/core/sync/poller'
import type { LiveBoard, LiveSession, SessionsChanged, Status } from '../../src/shared/domain'
import { fakeClock } from '../support/fake-clock'
import { storesOf } from '../support/poll-stores'


interface SessionRow {
  connection_id: string
  event_session_id: string
  platform_id: string
  tenant_id: string
  content_id: string
  event_name: string | null
  started_at: number
  updated_at: number
  has_ended: number
  viewers_count: number
  reliability_score: number
  cdn_traffic: number
  ecdn_traffic: number
  raw_json: string
  last_polled_at: number
}

let dir: string
let db: Db | null
let source: DataSource | null
let sourceClosed: boolean
let core: AppCore | null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-poller-'))
  db = null
  source = null
  sourceClosed = false
  core = null
})

afterEach(async () => {
  if (core) await core.close()
  if (source && !sourceClosed) await source.close()
  if (db?.open) db.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A client of our own, to read what the simulator serves right now. */
const served = (src: DataSource): ReportingClient =>
  new ReportingClient(src.target, async () => ({ clientId: 'demo-client', clientSecret: 'demo-secret' }))

async function setup(options: { liveSessions?: number; endedSessions?: number } = {}) {
  const clock = fakeClock()
  const file = join(dir, 'cache.db')
  db = openDatabase(file)
  source = await startDemoSource(storesOf(db).store, {
    clock: clock.now,
    seed: 11,
    liveSessions: options.liveSessions ?? 3,
    endedSessions: options.endedSessions ?? 5,
    viewersPerSession: 40,
    sessionsPageSize: 3,
    churnSessions: false
  })
  const outcomes: PollOutcome[] = []
  const statuses: PollerStatus[] = []
  const poller = new Poller(storesOf(db).store, source.client, {
    viewerStore: storesOf(db).viewerStore,
    connectionId: DEMO_CONNECTION_ID,
    cadences: { discoveryMs: 60_000, detailMs: 60_000, viewersMs: 60_000 },
    clock: clock.now,
    onPolled: (o) => outcomes.push(o),
    onStatus: (s) => statuses.push(s)
  })
  const reader = served(source)
  return { clock, file, db, source, poller, outcomes, statuses, reader }
}

const rows = (d: Db): SessionRow[] =>
  d.prepare('SELECT * FROM sessions ORDER BY event_session_id').all() as SessionRow[]

function expectRowMatches(row: SessionRow, record: Record<string, unknown>): void {
  expect(row.connection_id).toBe(DEMO_CONNECTION_ID)
  expect(row.event_session_id).toBe(record.eventSessionId)
  expect(row.platform_id).toBe(record.platformId)
  expect(row.tenant_id).toBe(record.tenantId)
  expect(row.content_id).toBe(record.contentId)
  expect(row.event_name).toBe(record.eventName ?? null)
  expect(row.started_at).toBe(Date.parse(record.startedAt as string))
  expect(row.updated_at).toBe(Date.parse(record.updatedAt as string))
  expect(row.has_ended).toBe(record.hasEnded ? 1 : 0)
  expect(row.viewers_count).toBe(record.viewersCount)
  expect(row.reliability_score).toBe(record.reliabilityScore)
  expect(row.cdn_traffic).toBe(record.cdnTraffic)
  expect(row.ecdn_traffic).toBe(record.ecdnTraffic)
  expect(JSON.parse(row.raw_json)).toEqual(record)
}

describe('Poller', () => {
  it('stores every listed session with the API fields and one snapshot per live session', async () => {
    const { poller, db, reader, clock, outcomes, statuses } = await setup()
    const outcome = await poller.pollOnce()

    const { sessions } = await reader.listSessions()
    expect(sessions.length).toBe(8)
    const stored = rows(db)
    expect(stored.length).toBe(sessions.length)
    const byId = new Map(stored.map((r) => [r.event_session_id, r]))
    for (const record of sessions) {
      const row = byId.get(record.eventSessionId)
      expect(row, record.eventSessionId).toBeDefined()
      expectRowMatches(row!, record)
    }

    const live = sessions.filter((s) => !s.hasEnded)
    expect(live.length).toBe(3)
    for (const record of live) {
      const snaps = listSnapshots(db, DEMO_CONNECTION_ID, record.eventSessionId)
      expect(snaps).toEqual([
        {
          takenAt: clock.now(),
          viewersCount: record.viewersCount,
          reliabilityScore: record.reliabilityScore,
          cdnTraffic: record.cdnTraffic,
          ecdnTraffic: record.ecdnTraffic
        }
      ])
    }
    // Ended sessions get no snapshot.
    const total = db.prepare('SELECT COUNT(*) AS n FROM snapshots').get() as { n: number }
    expect(total.n).toBe(3)

    expect(outcome).toMatchObject({ at: clock.now(), listed: 8, live: 3, snapshots: 3, skipped: 0, problems: [], stopped: false })
    expect(outcomes).toEqual([outcome])
    expect(statuses.map((s) => s.state)).toEqual(['polling', 'ok'])
    expect(statuses.at(-1)).toEqual({ state: 'ok', lastUpdateAt: clock.now(), lastError: null, offlineSince: null })
    expect(poller.currentStatus.state).toBe('ok')
  })

  it('adds a second snapshot per live session after the clock moves, equal to the current record', async () => {
    const { poller, db, reader, clock, outcomes } = await setup()
    await poller.pollOnce()
    const firstAt = clock.now()
    clock.advance(90_000)
    await poller.pollOnce()

    const { sessions } = await reader.listSessions() // same clock: the same values the poll saw
    const live = sessions.filter((s) => !s.hasEnded)
    expect(live.length).toBe(3)
    let changed = false
    for (const record of live) {
      const snaps = listSnapshots(db, DEMO_CONNECTION_ID, record.eventSessionId)
      expect(snaps.length).toBe(2)
      expect(snaps.map((s) => s.takenAt)).toEqual([firstAt, clock.now()])
      expect(snaps[1]).toEqual({
        takenAt: clock.now(),
        viewersCount: record.viewersCount,
        reliabilityScore: record.reliabilityScore,
        cdnTraffic: record.cdnTraffic,
        ecdnTraffic: record.ecdnTraffic
      })
      expect(snaps[1]!.cdnTraffic + snaps[1]!.ecdnTraffic).toBeGreaterThanOrEqual(
        snaps[0]!.cdnTraffic + snaps[0]!.ecdnTraffic
      )
      if (JSON.stringify(snaps[0]) !== JSON.stringify({ ...snaps[1], takenAt: firstAt })) changed = true
      const row = db
        .prepare('SELECT * FROM sessions WHERE event_session_id = ?')
        .get(record.eventSessionId) as SessionRow
      expectRowMatches(row, record)
      expect(row.last_polled_at).toBe(clock.now())
    }
    expect(changed).toBe(true)
    expect(outcomes.map((o) => o.snapshots)).toEqual([3, 3])
    expect(rows(db).length).toBe(8)
  })

  it('shares one poll between overlapping pollOnce calls', async () => {
    const { poller, db, outcomes } = await setup()
    const [a, b] = await Promise.all([poller.pollOnce(), poller.pollOnce()])
    expect(a).toBe(b)
    expect(outcomes.length).toBe(1)
    expect((db.prepare('SELECT COUNT(*) AS n FROM snapshots').get() as { n: number }).n).toBe(3)
  })

  it('on connection refused: reports a network problem and goes offline with a short reason, keeps the stored data', async () => {
    const { poller, db, source, file, statuses, outcomes } = await setup()
    await poller.pollOnce()
    const sessionsBefore = rows(db)
    const snapshotsBefore = db.prepare('SELECT * FROM snapshots ORDER BY id').all()
    const okAt = poller.currentStatus.lastUpdateAt

    await source.close()
    sourceClosed = true

    // A dead service is a reported problem of the pass, not an exception.
    const failed = await poller.pollOnce()
    expect(failed.listed).toBe(0)
    expect(failed.problems[0]?.kind).toBe('network')
    const logged = db.prepare("SELECT kind, endpoint FROM diagnostics WHERE kind = 'network'").all()
    // Each retry and the final failure are in the diagnostics log.
    expect(logged.length).toBeGreaterThan(1)
    expect(logged).toEqual(logged.map(() => expect.objectContaining({ endpoint: 'GET /v1/events/sessions' })))

    const status = poller.currentStatus
    expect(status.state).toBe('offline') // unreachable, not misconfigured
    expect(status.lastError).toEqual(expect.any(String))
    expect(status.lastError!.length).toBeGreaterThan(0)
    expect(status.lastError!.length).toBeLessThan(200)
    expect(status.lastError).not.toContain('\n')
    expect(status.lastError).not.toMatch(/\bat .*:\d+:\d+/) // no stack trace
    expect(status.lastUpdateAt).toBe(okAt) // the last success is still known
    expect(status.offlineSince).toEqual(expect.any(Number))
    expect(statuses.at(-1)?.state).toBe('offline')
    expect(outcomes.length).toBe(2)
    expect(outcomes[1]?.problems.length).toBeGreaterThan(0)

    expect(rows(db)).toEqual(sessionsBefore)
    expect(db.prepare('SELECT * FROM snapshots ORDER BY id').all()).toEqual(snapshotsBefore)

    db.close()
    const reopened = new Database(file)
    try {
      expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok')
      expect((reopened.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n).toBe(
        sessionsBefore.length
      )
    } finally {
      reopened.close()
    }
  })

  it('reports state stopped after stop(), even when a poll was under way', async () => {
    const { poller, outcomes, statuses } = await setup()
    poller.start() // the first poll begins at once
    await poller.stop() // ends it at once: nothing is sent after stop, so there is no outcome to report
    expect(outcomes.length).toBe(0)
    expect(poller.currentStatus.state).toBe('stopped')
    expect(statuses.at(-1)?.state).toBe('stopped')
  })

  it('does not poll again after stop()', async () => {
    const { poller, outcomes } = await setup()
    poller.start()
    await poller.idle()
    await poller.stop()
    const polls = outcomes.length
    await poller.stop() // idempotent
    poller.start() // and restartable
    await poller.idle()
    await poller.stop()
    expect(outcomes.length).toBe(polls + 1)
  })
})

describe('startAppCore', () => {
  function nextEvent<T>(c: AppCore, name: string): Promise<T> {
    return new Promise((resolve) => {
      const off = c.onEvent((n, payload) => {
        if (n === name) {
          off()
          resolve(payload as T)
        }
      })
    })
  }

  it('polls the demo source and answers requests through dispatch; close releases everything', async () => {
    const dbFile = join(dir, 'app', 'cache.db')
    core = await startAppCore({ db: dbFile, cadences: { discoveryMs: 3_600_000, detailMs: 3_600_000, viewersMs: 3_600_000 }, demoSeed: 5 })
    const changed = await nextEvent<SessionsChanged>(core, 'sessionsChanged')
    expect(changed.liveCount).toBeGreaterThan(0)
    expect(changed.storedCount).toBeGreaterThanOrEqual(changed.liveCount)
    expect(Number.isNaN(Date.parse(changed.at))).toBe(false)

    // The first push carries every live row: nothing to ask for again.
    expect(changed.rows).toHaveLength(changed.liveCount)
    expect(changed.removed).toEqual([])

    const live = await core.dispatch('listLiveSessions', {})
    expect(live.ok).toBe(true)
    const board = (live.ok ? live.value : { revision: -1, sessions: [] }) as LiveBoard
    const sessions: LiveSession[] = board.sessions
    expect(board.revision).toBeGreaterThanOrEqual(changed.revision)
    expect(sessions.length).toBe(changed.liveCount)
    for (const s of sessions) {
      expect(s.connectionId).toBe(DEMO_CONNECTION_ID)
      expect(s.connectionName).toBe('Demo data')
      expect(s.hasEnded).toBe(false)
      expect(s.lastPolledAt).not.toBeNull()
      // What the core decided of it: on 0–100 (the demo reports 0–100), judged by the settings' levels.
      expect(s.reliability).toBe(s.reliabilityScore)
      expect(s.levels).toEqual({ warning: 95, critical: 90, source: 'settings' })
      expect(['good', 'warning', 'critical']).toContain(s.health)
    }

    const one = await core.dispatch('getSession', {
      connectionId: DEMO_CONNECTION_ID,
      eventSessionId: sessions[0]!.eventSessionId
    })
    expect(one).toEqual({ ok: true, value: sessions[0] })
    expect(await core.dispatch('getSession', { connectionId: DEMO_CONNECTION_ID, eventSessionId: 'nope' })).toEqual({
      ok: true,
      value: null
    })

    const status = await core.dispatch('getStatus', undefined)
    expect(status.ok).toBe(true)
    const s = (status.ok ? status.value : null) as Status
    expect(s.mode).toBe('demo')
    expect(s.pollState).toBe('ok')
    expect(s.lastError).toBeNull()
    expect(s.lastUpdateAt).not.toBeNull()
    expect(s.pollIntervalSeconds).toBe(3600)

    const bad = await core.dispatch('getSession', { connectionId: 7 })
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.error.code).toBe('invalid-arguments')

    // Where the embedded simulator listens, read from the cache itself.
    const peek = new Database(dbFile, { readonly: true })
    const { base_url: baseUrl } = peek.prepare('SELECT base_url FROM connections WHERE id = ?').get(DEMO_CONNECTION_ID) as {
      base_url: string
    }
    peek.close()
    expect((await fetch(`${baseUrl}/v1/events/sessions`)).status).toBe(401) // it is up

    const c = core
    core = null
    await c.close()
    await c.close() // a second close is harmless

    await expect(fetch(`${baseUrl}/v1/events/sessions`)).rejects.toThrow()
    const after = await c.dispatch('listLiveSessions', {})
    expect(after.ok).toBe(false) // the database is closed
    // The file is whole and can be opened again by someone else.
    const reopened = new Database(dbFile)
    expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok')
    expect((reopened.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n).toBe(changed.storedCount)
    reopened.close()
  })

  it('refreshNow starts a poll and reports it with another sessionsChanged event', async () => {
    core = await startAppCore({ db: join(dir, 'cache.db'), cadences: { discoveryMs: 3_600_000, detailMs: 3_600_000, viewersMs: 3_600_000 }, demoSeed: 5 })
    await nextEvent(core, 'sessionsChanged')
    // onPolled fires just before the first poll settles; let it settle so refreshNow starts a new one.
    await new Promise((resolve) => setImmediate(resolve))
    const again = nextEvent<SessionsChanged>(core, 'sessionsChanged')
    const result = await core.dispatch('refreshNow', {})
    expect(result.ok).toBe(true)
    const event = await again
    expect(event.liveCount).toBeGreaterThan(0)
  })
})
