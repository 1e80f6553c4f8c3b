// `eventwatch store copy` end to end: a SQLite cache filled by a real core polling two simulators
// (sessions, snapshots, viewer lists, alerts fired, acknowledged and resolved, webhooks and their
// outbox, a maintenance window, users, a sign-in, the audit, settings, a site's name), copied by the
// CLI as a child process into a fresh PostgreSQL database. Then every row of every table is the
// same on both, the Store answers every read the same on both, and new rows get ids past the
// copied ones.
import { isDeepStrictEqual } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { COPIED_TABLES } from '../../src/main/core/store/copy/copy-plan'
import type { Store } from '../../src/main/core/store/interface/store'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { openSqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { cleanupsAfterAll } from '../support/app-core'
import { runCli, type CliResult } from '../support/cli-processes'
import { fillCacheThroughCore, type FilledCache } from '../support/filled-cache'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'
import { everythingRead } from '../support/store-reads'
import { rowsOnBoth } from '../support/table-rows'
import { tempDirs } from '../support/temp-dirs'

const cleanups = cleanupsAfterAll()
const tempDir = tempDirs('eventwatch-store-copy-')
const TABLES = COPIED_TABLES.map((table) => table.name)
/** What the filled cache must hold for the test to mean something: every concern has rows. */
const FILLED = [
  'connections', 'sessions', 'snapshots', 'alerts', 'alert_transitions', 'alert_overrides', 'notification_pause', 'webhooks', 'webhook_outbox',
  'settings', 'maintenance_windows', 'sync_runs', 'diagnostics', 'users', 'user_sessions', 'user_settings', 'audit_log', 'site_names',
  'revisions', 'poller_status', 'alert_judged', 'alert_changes', 'viewer_lists', 'viewers', 'viewer_connections', 'viewer_breakdowns'
]

let filled: FilledCache
let target: TestDatabase
let copied: CliResult
let cache: Store
let copy: Store

beforeAll(async () => {
  filled = await fillCacheThroughCore(cleanups, tempDir())
  target = await freshDatabase()
  copied = await runCli(['store', 'copy', '--from', filled.dbFile, '--to', target.url])
  cache = openSqliteStore(filled.dbFile)
  copy = await openPgStore(target.url)
}, 120_000)

afterAll(async () => {
  await cache?.close()
  await copy?.close()
  await target?.drop()
})

it('copies every row of every table by the CLI, ids kept, and says how many of each it counted again', async () => {
  expect(copied.stderr).not.toMatch(/eventwatch:/)
  expect(copied.code).toBe(0)

  const { sqlite, postgres } = await rowsOnBoth(filled.dbFile, target.url, TABLES)
  expect(FILLED.filter((table) => (sqlite[table]?.length ?? 0) === 0)).toEqual([])
  for (const table of TABLES) {
    expect(postgres[table], table).toEqual(sqlite[table])
    expect(copied.stdout).toMatch(new RegExp(`^  ${table} +${(sqlite[table]?.length ?? 0).toLocaleString('en-US')}$`, 'm'))
  }
  expect(copied.stdout).toMatch(/^Every table was counted again in PostgreSQL before the commit: [\d,]+ rows, ids kept\.$/m)
}, 60_000)

it('answers every read of the Store the same from the copy as from the cache', async () => {
  const now = Date.now()
  // The viewers concern is not served by the PostgreSQL store yet (its rows are compared above).
  const scope = { now, skip: ['viewers'] as const }
  const fromCopy = await everythingRead(copy, scope)
  const fromCache = await everythingRead(cache, scope)
  expect(Object.keys(fromCopy).length).toBeGreaterThan(100)
  const differing = Object.keys(fromCache).filter((read) => !isDeepStrictEqual(fromCopy[read], fromCache[read]))
  expect(differing).toEqual([])
}, 60_000)

// Last: it adds rows to the copy.
it('gives new rows ids past the copied ones', async () => {
  const now = Date.now()
  const newest = async (store: Store) => ({
    alert: Math.max(...(await store.read.alerts.list({ historyHours: 24 * 365 }, now)).map((a) => a.id)),
    window: Math.max(...(await store.read.maintenance.list()).map((w) => w.id)),
    audit: (await store.read.team.audit.list({ limit: 1 }))[0]!.id
  })
  const before = await newest(cache)
  const added = await copy.withTransaction(async (tx) => ({
    alert: await tx.alerts.insert(filled.ids.B!, { rule: 'monitor-blind', eventSessionId: null, eventName: null, state: 'firing', severity: 'critical', summary: 'blind', value: 0, streak: 0 }, now),
    window: await tx.maintenance.add({ name: 'After the copy', startsAt: now, endsAt: now + 3_600_000, repeat: 'none', timeZone: 'UTC', connectionId: null, contentId: null, eventSessionId: null }, 'alice', now),
    audit: await tx.team.audit.record({ actor: 'alice', action: 'test', subject: null, detail: null }, now).then(async () => (await tx.team.audit.list({ limit: 1 }))[0]!.id)
  }))
  expect(added).toEqual({ alert: before.alert + 1, window: before.window + 1, audit: before.audit + 1 })
})
