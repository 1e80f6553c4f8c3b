// Levels resolved in one place (issue 25): a session's own levels (an override) change the alert
// rule's condition, the site rule's, the webhook body's level and the live row's health alike,
// all read through store/session-levels.ts; a session on the settings' levels keeps those. Two
// sessions with the same snapshots and viewer lists in a real SQLite file, judged by the app's
// evaluator on a clock moved by hand.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AlertEvaluator } from '../../src/main/core/alerts/evaluator'
import { setSessionOverride } from '../../src/main/core/alerts/overrides'
import { loadVerdicts } from '../../src/main/core/app/verdicts'
import type { ViewerRecord } from '../../src/main/core/api/schemas'
import { getAlerts, listAlerts } from '../../src/main/core/store/alerts'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { LevelBook } from '../../src/main/core/store/session-levels'
import { sessionRow, storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { setThresholds } from '../../src/main/core/store/settings'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { jsonBody } from '../../src/main/core/webhooks/bodies'
import { alertEventsOf } from '../../src/main/core/webhooks/enqueue'
import type { Alert } from '../../src/shared/alerts'
import { T0 } from '../support/fake-clock'

const SESSIONS = ['plain', 'own'] as const
let dir: string
let db: Db
let now: number
let evaluator: AlertEvaluator
let store: SqliteStore

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-levels-'))
  db = openDatabase(join(dir, 'cache.db'))
  now = T0
  upsertConnection(db, { id: 'c1', name: 'Tenant', baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
  setThresholds(db, { warning: 95, critical: 90 })
  // 'own' has levels of its own: warning below 80, critical below 70.
  store = openSqliteStore(db.name, { writer: db })
  await store.withTransaction((tx) => setSessionOverride(tx, { connectionId: 'c1', eventSessionId: 'own', thresholds: { warning: 80, critical: 70 } }))
  evaluator = new AlertEvaluator(store, () => loadVerdicts(store.read), () => now)
})
afterEach(async () => {
  await store.close()
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

/** 30 viewers at site 7 watching at 30, and 30 elsewhere at the session's own score. */
function viewers(score: number): ViewerRecord[] {
  return Array.from({ length: 60 }, (_, i) => ({
    viewerId: `v${i}`,
    reliabilityScore: i < 30 ? 30 : score,
    networkConnections: [{ siteCode: i < 30 ? 7 : 8 }]
  }))
}

/** One poll of both sessions, snapshot and viewer list alike, then the rules. */
async function poll(score: number): Promise<Alert[]> {
  now += 60_000
  for (const id of SESSIONS) {
    const record = {
      eventSessionId: id,
      platformId: 'p',
      tenantId: 't',
      contentId: `content-${id}`,
      eventName: `Event ${id}`,
      startedAt: new Date(T0).toISOString(),
      updatedAt: new Date(now).toISOString(),
      hasEnded: false,
      viewersCount: 60,
      reliabilityScore: score,
      cdnTraffic: 0,
      ecdnTraffic: 0
    }
    storeSessionSnapshot(db, 'c1', record, now)
    storeViewerList(db, 'c1', id, viewers(score), now, 1)
  }
  return getAlerts(db, (await evaluator.evaluate('c1', now)).fired)
}

const open = (): [string | null, string, string | null, string][] =>
  listAlerts(db, {}, now)
    .filter((a) => a.state !== 'resolved')
    .map((a) => [a.eventSessionId, a.rule, a.site, a.severity])

describe("a session's own levels", () => {
  it('are what the book resolves for it, and the settings for the others', () => {
    const book = new LevelBook(db)
    expect(book.levels('c1', 'own')).toEqual({ warning: 80, critical: 70, source: 'session' })
    expect(book.levels('c1', 'plain')).toEqual({ warning: 95, critical: 90, source: 'settings' })
    expect(book.levels('c1', null)).toEqual({ warning: 95, critical: 90, source: 'settings' })
  })

  it('are what verdicts read through the Store resolve, and no connection is judged by levels not read', async () => {
    const [mine, every] = await Promise.all([loadVerdicts(store.read, ['c1']), loadVerdicts(store.read)])
    const cache = new LevelBook(db)
    for (const verdicts of [mine, every]) {
      expect(verdicts.levels('c1', 'own')).toEqual({ warning: 80, critical: 70, source: 'session' })
      expect(verdicts.levels('c1', 'plain')).toEqual(cache.levels('c1', 'plain'))
      expect(verdicts.judge('c1', 'own', 75)).toEqual({ reliability: 75, health: 'warning' })
    }
    // Every connection read: one not among them was removed, and has no override.
    expect(every.override('gone', 'own')).toEqual({ muted: false, thresholds: null })
    expect(() => mine.override('c2', 'own')).toThrow('levels asked of connection c2, but only the overrides of c1 were read')
  })

  it("change the session's condition, its site condition, its webhook level and its health alike", async () => {
    // 85: critical by the settings' levels, good by its own.
    await poll(85)
    const fired = await poll(85)
    // The settings' session is in trouble itself: its own alert speaks, no site alert.
    // The other is good by its own levels: its failing office has an alert.
    expect(open().sort()).toEqual([
      ['own', 'site-reliability', '7', 'critical'],
      ['plain', 'reliability-below', null, 'critical']
    ])
    const verdicts = await loadVerdicts(store.read)
    const health = (id: string) => verdicts.session(sessionRow(db, 'c1', id)!).health
    expect([health('plain'), health('own')]).toEqual(['critical', 'good'])

    // 75: below its own warning level, above its own critical one.
    await poll(75)
    fired.push(...(await poll(75)))
    const below = fired.filter((a) => a.rule === 'reliability-below')
    expect(below.map((a) => [a.eventSessionId, a.severity, a.summary])).toEqual([
      ['plain', 'critical', 'Reliability 85, below the critical level 90'],
      ['own', 'warning', 'Reliability 75, below the warning level 80']
    ])
    expect(health('own')).toBe('warning')

    // Each webhook body names the level its alert crossed: the session's own, or the settings'.
    const bodies = (await alertEventsOf(store.read, { fired: below, resolved: [], changed: [] })).map((e) => jsonBody(e) as { level: number; session: { id: string } })
    expect(bodies.map((b) => [b.session.id, b.level])).toEqual([
      ['plain', 90],
      ['own', 80]
    ])
  })
})

describe('where levels and scores are decided', () => {
  /** Every core source file, by its path under src/main/core. */
  const core = join(__dirname, '../../src/main/core')
  const sources = (readdirSync(core, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ path: relative(core, join(core, f)), text: readFileSync(join(core, f), 'utf8') }))

  it("levels: in store/session-levels.ts alone, no other file reads the overrides' levels or picks its own", () => {
    // Calling for the stored overrides, choosing between a session's levels and the settings', or
    // writing "the override's, else the settings'" again: each is the book's job.
    const resolving = /(?<!function )\b(storedOverrides|effectiveLevels)\(|\.thresholds \?\?/
    expect(sources.filter((s) => resolving.test(s.text)).map((s) => s.path)).toEqual(['store/session-levels.ts'])
  })

  it('scores: converted to 0–100 in app/verdicts.ts alone, which the alert rules read too', () => {
    const converting = /(?<!function )\btoHundred\(/
    expect(sources.filter((s) => converting.test(s.text)).map((s) => s.path)).toEqual(['app/verdicts.ts'])
  })
})
