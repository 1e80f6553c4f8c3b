// Retention on a real file with a clock the test sets: old snapshots and viewer lists go, recent
// ones stay, sessions stay forever unless asked; every transaction stays within its batch; the
// WAL is truncated and freed pages go back to the OS; the background job yields between batches.
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventSessionRecord, ViewerRecord } from '../../src/main/core/api/schemas'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { migrate } from '../../src/main/core/store/migrate'
import { pruneOnce, type PruneBatch } from '../../src/main/core/store/retention'
import { RetentionJob, type PruneResult } from '../../src/main/core/store/retention-job'
import { sqliteCompaction } from '../../src/main/core/store/sqlite/compaction'
import type { CompactResult } from '../../src/main/core/store/compact'
import { storeOn } from '../support/store-on'
import type { Timers } from '../../src/shared/timers'
import { storeSessionList } from '../../src/main/core/store/sessions'
import { upsertConnection } from '../../src/main/core/store/connections'
import { DEFAULT_RETENTION, setRetentionSettings, type RetentionSettings } from '../../src/main/core/store/settings'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { insertAlert, moveAlert } from '../../src/main/core/store/alerts'
import { listAudit, recordAudit } from '../../src/main/core/store/audit'
import { alertChangesSince, recordAlertChanges } from '../../src/main/core/store/alert-change-log'

const NOW = Date.parse('2026-09-01T00:00:00Z')
const DAY = 86_400_000

let dir: string
let db: Db

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-store-retention-'))
  db = openDatabase(join(dir, 'cache.db'))
})
afterEach(() => {
  if (db.open) db.close()
  rmSync(dir, { recursive: true, force: true })
})

const record = (id: string, startedAt: number, hasEnded: boolean): EventSessionRecord => ({
  eventSessionId: id, platformId: 'p', tenantId: 't', contentId: 'c', eventName: id,
  startedAt: new Date(startedAt).toISOString(), updatedAt: new Date(startedAt).toISOString(), hasEnded,
  viewersCount: 1, reliabilityScore: 99, cdnTraffic: 0, ecdnTraffic: 0
})

const someViewers = (n: number): ViewerRecord[] =>
  Array.from({ length: n }, (_, i) => ({ viewerId: `v${i}`, os: 'Windows', reliabilityScore: 90, networkConnections: [{ siteCode: 1 }] })) as ViewerRecord[]

/** Snapshots straight into the table: `count` of them at `at`, `at + 1`, … */
function snapshots(session: string, at: number, count: number): void {
  const insert = db.prepare(
    `INSERT INTO snapshots (connection_id, event_session_id, taken_at, viewers_count, reliability_score, cdn_traffic, ecdn_traffic)
     VALUES ('A', ?, ?, 1, 99, 0, 0)`
  )
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(session, at + i)
  })()
}

const count = (sql: string): number => (db.prepare(sql).get() as { n: number }).n

/** An audit entry `daysAgo` days before NOW, its action naming its age. */
const audited = (daysAgo: number): void =>
  recordAudit(db, { actor: 'alice', action: `change ${daysAgo} days ago`, subject: null, detail: null }, NOW - daysAgo * DAY)
const auditActions = (): string[] => listAudit(db, { limit: 1000 }).map((e) => e.action)

/** Sessions: "ancient" (ended 200 days ago), "recent" (ended 10 days ago), "marathon" (live, began 300 days ago). */
function fill(): void {
  upsertConnection(db, { id: 'A', name: 'A', baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
  storeSessionList(db, 'A', [record('ancient', NOW - 200 * DAY, true), record('recent', NOW - 10 * DAY, true), record('marathon', NOW - 300 * DAY, false)], NOW - 300 * DAY)
  snapshots('ancient', NOW - 200 * DAY, 12) // past 90 days
  snapshots('recent', NOW - 91 * DAY, 3) // just past
  snapshots('recent', NOW - 89 * DAY, 4) // just within
  snapshots('marathon', NOW - DAY, 5)
  storeViewerList(db, 'A', 'ancient', someViewers(30), NOW - 199 * DAY, 1)
  storeViewerList(db, 'A', 'marathon', someViewers(2), NOW - 95 * DAY, 1)
  storeViewerList(db, 'A', 'recent', someViewers(3), NOW - 9 * DAY, 1)
}


/** The prune, then the SQLite store's compaction to its end (what the core's job does, without pauses). */
async function pruneAndCompact(settings: RetentionSettings): Promise<PruneResult> {
  const store = storeOn(db)
  const counts = await pruneOnce(store, settings, NOW)
  const steps = sqliteCompaction(store)
  let step = await steps.next()
  while (!step.done) step = await steps.next()
  return { ...counts, compact: step.value as CompactResult }
}

describe('pruneOnce', () => {
  it('with the defaults: snapshots and lists older than 90 days go, sessions stay', async () => {
    fill()
    const result = await pruneOnce(storeOn(db), DEFAULT_RETENTION, NOW)
    expect(result).toMatchObject({ snapshots: 15, viewerLists: 2, viewers: 32, sessions: 0 })
    expect(count('SELECT COUNT(*) AS n FROM snapshots')).toBe(9)
    expect(count(`SELECT COUNT(*) AS n FROM snapshots WHERE taken_at < ${NOW - 90 * DAY}`)).toBe(0)
    expect(db.prepare('SELECT event_session_id AS id FROM viewer_lists').all()).toEqual([{ id: 'recent' }])
    expect(count('SELECT COUNT(*) AS n FROM viewers')).toBe(3)
    expect(count('SELECT COUNT(*) AS n FROM viewer_connections')).toBe(3)
    // Kept breakdowns go with their list: only the kept list's remain.
    expect(count('SELECT COUNT(*) AS n FROM viewer_breakdowns')).toBeGreaterThan(0)
    expect(count(`SELECT COUNT(*) AS n FROM viewer_breakdowns b JOIN viewer_lists vl ON vl.id = b.list_id
      WHERE vl.event_session_id = 'recent'`)).toBe(count('SELECT COUNT(*) AS n FROM viewer_breakdowns'))
    expect(count('SELECT COUNT(*) AS n FROM sessions')).toBe(3)
    // Nothing left to do: a second run changes nothing.
    expect(await pruneOnce(storeOn(db), DEFAULT_RETENTION, NOW)).toMatchObject({ snapshots: 0, viewerLists: 0, sessions: 0, batches: 0 })
  })

  it('keeps each transaction within its batch; a viewer list is never split', async () => {
    fill()
    const batches: PruneBatch[] = []
    const result = await pruneOnce(storeOn(db), DEFAULT_RETENTION, NOW, { batchSize: 4, onBatch: (b) => batches.push(b) })
    expect(result.batches).toBe(batches.length)
    const snapshotBatches = batches.filter((b) => b.table === 'snapshots').map((b) => b.rows)
    expect(snapshotBatches).toEqual([4, 4, 4, 3])
    // 30 viewers > 4: that list alone; the 2-viewer list in a transaction of its own after it.
    expect(batches.filter((b) => b.table === 'viewer_lists')).toEqual([
      { table: 'viewer_lists', rows: 1, viewers: 30 },
      { table: 'viewer_lists', rows: 1, viewers: 2 }
    ])
  })

  it('groups small lists up to the batch size', async () => {
    fill()
    const batches: PruneBatch[] = []
    await pruneOnce(storeOn(db), { ...DEFAULT_RETENTION, viewerListsDays: 1 }, NOW, { batchSize: 33, onBatch: (b) => batches.push(b) })
    expect(batches.filter((b) => b.table === 'viewer_lists')).toEqual([
      { table: 'viewer_lists', rows: 2, viewers: 32 },
      { table: 'viewer_lists', rows: 1, viewers: 3 }
    ])
  })

  it('forgets ended sessions older than sessionsDays with everything they held; never a live one', async () => {
    fill()
    const settings: RetentionSettings = { snapshotsDays: null, viewerListsDays: null, sessionsDays: 100, alertsDays: null, auditDays: null }
    const result = await pruneOnce(storeOn(db), settings, NOW, { batchSize: 5 })
    expect(result).toMatchObject({ sessions: 1, snapshots: 12, viewerLists: 1, viewers: 30 })
    expect((db.prepare('SELECT event_session_id AS id FROM sessions ORDER BY id').all() as { id: string }[]).map((r) => r.id)).toEqual(['marathon', 'recent'])
    expect(count('SELECT COUNT(*) AS n FROM snapshots')).toBe(12)
    expect(db.pragma('foreign_key_check')).toEqual([])
  })

  it('forgets resolved alerts older than alertsDays with their transitions; never an open one', async () => {
    fill()
    const alert = (state: 'firing' | 'resolved', at: number): number => {
      const id = insertAlert(db, 'A', { rule: 'reliability-below', eventSessionId: 'recent', eventName: 'Recent', state: 'firing', severity: 'critical', summary: 'low', value: 80, streak: 0 }, at)
      if (state === 'resolved') moveAlert(db, id, 'resolved', 'critical', 97, 'recovered', at + 60_000)
      return id
    }
    // One open alert per rule and session at a time: the open one comes last.
    const old = alert('resolved', NOW - 400 * DAY)
    const young = alert('resolved', NOW - 300 * DAY)
    const openOld = alert('firing', NOW - 500 * DAY)
    const settings: RetentionSettings = { snapshotsDays: null, viewerListsDays: null, sessionsDays: null, alertsDays: 365, auditDays: null }
    expect(await pruneOnce(storeOn(db), settings, NOW, { batchSize: 1 })).toMatchObject({ alerts: 1, snapshots: 0 })
    const left = (db.prepare('SELECT id FROM alerts ORDER BY id').all() as { id: number }[]).map((r) => r.id)
    expect(left).toEqual([young, openOld])
    expect(count(`SELECT COUNT(*) AS n FROM alert_transitions WHERE alert_id = ${old}`)).toBe(0)
    expect(count(`SELECT COUNT(*) AS n FROM alert_transitions WHERE alert_id = ${young}`)).toBe(2)
    expect(DEFAULT_RETENTION.alertsDays).toBe(365)
  })

  it('forgets audit entries older than auditDays (365 by default), in batches; younger ones stay (issue 25)', async () => {
    for (const days of [800, 400, 366, 364, 10, 0]) audited(days)
    const batches: PruneBatch[] = []
    const result = await pruneOnce(storeOn(db), DEFAULT_RETENTION, NOW, { batchSize: 2, onBatch: (b) => batches.push(b) })
    expect(DEFAULT_RETENTION.auditDays).toBe(365)
    expect(result).toMatchObject({ auditEntries: 3 })
    expect(batches.filter((b) => b.table === 'audit_log')).toEqual([
      { table: 'audit_log', rows: 2 },
      { table: 'audit_log', rows: 1 }
    ])
    expect(auditActions()).toEqual(['change 0 days ago', 'change 10 days ago', 'change 364 days ago'])
  })

  it('forgets what alerts pushes announced after 7 days, whatever the settings, in batches (alert_changes, issue 25)', async () => {
    const ages = [30, 8, 7.5, 6.9, 0]
    ages.forEach((days, i) => recordAlertChanges(db, { epoch: 'e1', revision: i + 1 }, { fired: [i], resolved: [], changed: [i, 100], removed: [], repeated: [] }, NOW - days * DAY))
    const batches: PruneBatch[] = []
    const forever: RetentionSettings = { snapshotsDays: null, viewerListsDays: null, sessionsDays: null, alertsDays: null, auditDays: null }
    const result = await pruneOnce(storeOn(db), forever, NOW, { batchSize: 4, onBatch: (b) => batches.push(b) })
    expect(result).toMatchObject({ alertChanges: 9 })
    expect(batches.filter((b) => b.table === 'alert_changes')).toEqual([
      { table: 'alert_changes', rows: 4 },
      { table: 'alert_changes', rows: 4 },
      { table: 'alert_changes', rows: 1 }
    ])
    expect([...new Set(alertChangesSince(db, 0, 100).map((r) => r.revision))]).toEqual([4, 5])
  })

  it('null everywhere keeps everything', async () => {
    fill()
    audited(5000)
    const forever: RetentionSettings = { snapshotsDays: null, viewerListsDays: null, sessionsDays: null, alertsDays: null, auditDays: null }
    expect(await pruneOnce(storeOn(db), forever, NOW)).toMatchObject({ batches: 0 })
    expect(count('SELECT COUNT(*) AS n FROM snapshots')).toBe(24)
    expect(auditActions()).toEqual(['change 5000 days ago'])
  })

  it('truncates the WAL and hands freed pages back to the file system (incremental auto-vacuum)', async () => {
    fill()
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2)
    snapshots('ancient', NOW - 150 * DAY, 60_000)
    db.pragma('wal_checkpoint(TRUNCATE)')
    const before = statSync(db.name).size
    const result = await pruneAndCompact(DEFAULT_RETENTION)
    expect(result.snapshots).toBe(60_015)
    expect(result.compact.vacuum).toBe('incremental')
    expect(result.compact.checkpointed).toBe(true)
    expect(result.compact.pagesAfter).toBeLessThan(result.compact.pagesBefore / 2)
    expect(statSync(`${db.name}-wal`).size).toBe(0)
    expect(statSync(db.name).size).toBeLessThan(before / 2)
    expect(db.pragma('freelist_count', { simple: true })).toBeLessThan(16)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
  })

  it('converts a file made before auto-vacuum was on with one VACUUM, when worth it', async () => {
    db.close()
    const file = join(dir, 'old.db')
    const raw = new Database(file)
    raw.pragma('journal_mode = WAL')
    raw.pragma('foreign_keys = ON')
    migrate(raw)
    raw.close()
    db = openDatabase(file)
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(0)
    fill()
    snapshots('ancient', NOW - 150 * DAY, 60_000)
    const result = await pruneAndCompact(DEFAULT_RETENTION)
    expect(result.compact.vacuum).toBe('full')
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2)
    expect(statSync(`${file}-wal`).size).toBe(0)
    // Little freed: nothing to reclaim, only the checkpoint.
    snapshots('recent', NOW - 100 * DAY, 10)
    expect((await pruneAndCompact(DEFAULT_RETENTION)).compact.vacuum).toBe('none')
  })
})

/** Timers moved by hand: fire() runs what is due. */
function manualTimers() {
  const pending: { callback: () => void; ms: number; id: number }[] = []
  let next = 1
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      pending.push({ callback, ms, id: next })
      return next++
    },
    clearTimeout: (id) => {
      const i = pending.findIndex((p) => p.id === id)
      if (i >= 0) pending.splice(i, 1)
    }
  }
  return { timers, pending, fire: () => pending.shift()?.callback() }
}

describe('RetentionJob', () => {
  it('runs on its timer with the stored settings and the injected clock, then re-arms', async () => {
    fill()
    setRetentionSettings(db, { snapshotsDays: 30 })
    const { timers, pending, fire } = manualTimers()
    let now = NOW
    const results: number[] = []
    const job = new RetentionJob(storeOn(db), { clock: () => now, timers, onPruned: (r) => results.push(r.snapshots) })
    job.start(3_600_000)
    expect(pending.map((p) => p.ms)).toEqual([0])
    fire()
    await waitFor(() => results.length === 1)
    expect(results).toEqual([19]) // 12 + 3 + 4: all but the last day's
    expect(pending.map((p) => p.ms)).toEqual([3_600_000])
    now += 40 * DAY // the live session's snapshots of yesterday are now 41 days old
    fire()
    await waitFor(() => results.length === 2)
    expect(results).toEqual([19, 5])
    await job.stop()
    expect(pending).toEqual([])
  })

  it('prunes the audit log on its hourly run by the stored auditDays, as the clock moves on (issue 25)', async () => {
    for (const days of [400, 100, 20]) audited(days)
    setRetentionSettings(db, { auditDays: 90 })
    const { timers, fire } = manualTimers()
    let now = NOW
    const results: number[] = []
    const job = new RetentionJob(storeOn(db), { clock: () => now, timers, onPruned: (r) => results.push(r.auditEntries) })
    job.start(3_600_000)
    fire()
    await waitFor(() => results.length === 1)
    expect(results).toEqual([2])
    expect(auditActions()).toEqual(['change 20 days ago'])
    now += 71 * DAY // the youngest is now 91 days old
    fire()
    await waitFor(() => results.length === 2)
    expect(results).toEqual([2, 1])
    expect(auditActions()).toEqual([])
    await job.stop()
  })

  it('lets other work run between its transactions, and stops between two of them', async () => {
    fill()
    snapshots('ancient', NOW - 150 * DAY, 100)
    let between = 0
    let job: RetentionJob | null = null
    const batches: PruneBatch[] = []
    job = new RetentionJob(storeOn(db), {
      batchSize: 10,
      clock: () => NOW,
      settings: () => DEFAULT_RETENTION,
      onBatch: (b) => batches.push(b),
      yieldBetween: async () => {
        between++
        // A writer gets in between two batches: no transaction is held across the pause.
        expect(db.inTransaction).toBe(false)
        db.prepare("UPDATE sessions SET last_polled_at = last_polled_at + 1 WHERE event_session_id = 'recent'").run()
        await new Promise((r) => setImmediate(r))
        if (batches.length === 5) void job?.stop()
      }
    })
    const result = await job.runNow()
    expect(result.batches).toBe(5)
    expect(result.snapshots).toBe(50)
    expect(between).toBe(5)
    expect(count('SELECT COUNT(*) AS n FROM snapshots')).toBe(24 + 100 - 50)
    // The rest goes on the next run.
    const rest = await new RetentionJob(storeOn(db), { clock: () => NOW, settings: () => DEFAULT_RETENTION }).runNow()
    expect(rest.snapshots).toBe(65)
  })
})

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((r) => setImmediate(r))
  expect(condition()).toBe(true)
}
