// What `store copy` knows of the two schemas, and how it moves rows: every table of SQLite's schema
// and of PostgreSQL's is in the copy's plan (a later migration that adds one fails here until the
// plan says how it is copied), every column of each matches, and the rows go a page at a time in
// one transaction that a stop rolls back whole.
import { join } from 'node:path'
import pg from 'pg'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { CancelledError } from '../../src/main/core/net/abort'
import { copyCacheToPostgres, type CopyProgress } from '../../src/main/core/store/copy/copy-cache'
import { COPIED_TABLES, isSqliteInternal, POSTGRES_ONLY_TABLES } from '../../src/main/core/store/copy/copy-plan'
import { openDatabase } from '../../src/main/core/store/db'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { openSqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { sessionRecord, T0, viewerRecord, withConnection } from '../contract/store/fixtures'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'
import { countsIn, rowsOnBoth, VIEWERS_ALIKE } from '../support/table-rows'
import { tempDirs } from '../support/temp-dirs'

const tempDir = tempDirs('eventwatch-store-copy-plan-')
const PLANNED = COPIED_TABLES.map((table) => table.name).sort()
const EMPTY = Object.fromEntries(PLANNED.map((table) => [table, 0]))
let target: TestDatabase

beforeEach(async () => {
  target = await freshDatabase()
})
afterEach(async () => {
  await target.drop()
})

/** A cache with one session and a viewer list of `viewers`, written as the app writes them. */
async function cacheWithViewers(viewers: number): Promise<string> {
  const file = join(tempDir(), 'cache.db')
  const store = openSqliteStore(file)
  await withConnection(store, 'c1')
  await store.withTransaction((tx) => tx.sessions.storeList('c1', [sessionRecord('s1', T0)], T0))
  await store.close()
  const db = openDatabase(file)
  storeViewerList(db, 'c1', 's1', Array.from({ length: viewers }, (_, i) => viewerRecord(i, T0)), T0, 1)
  db.close()
  return file
}

it('plans every table of the SQLite schema, in an order that names each once', () => {
  const db = openDatabase(join(tempDir(), 'fresh.db'))
  const tables = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[]).filter((t) => !isSqliteInternal(t))
  db.close()
  expect(tables.sort()).toEqual(PLANNED)
  expect(new Set(PLANNED).size).toBe(COPIED_TABLES.length)
})

it('plans every table of the PostgreSQL schema, or names it as PostgreSQL\'s own', async () => {
  await (await openPgStore(target.url)).close()
  const client = new pg.Client({ connectionString: target.url })
  await client.connect()
  const tables = (await client.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'")).rows.map((r) => r.name)
  await client.end()
  expect(tables.filter((t) => !POSTGRES_ONLY_TABLES.includes(t)).sort()).toEqual(PLANNED)
})

it('matches every column of every table between the schemas (a fresh cache copies whole)', async () => {
  const result = await copyCacheToPostgres(await cacheWithViewers(0), target.url)
  expect(result.tables.map((t) => t.table).sort()).toEqual(PLANNED)
  expect(Object.fromEntries(result.tables.map((t) => [t.table, t.rows]))).toEqual({ ...EMPTY, connections: 1, sessions: 1, viewer_lists: 1 })
})

it('moves rows a page at a time, never more than a page in hand, and the copy is whole', async () => {
  const file = await cacheWithViewers(50)
  const steps: CopyProgress[] = []
  await copyCacheToPostgres(file, target.url, { pageRows: 7, onProgress: (p) => steps.push(p) })
  const viewerSteps = steps.filter((p) => p.table === 'viewers').map((p) => p.done)
  expect(viewerSteps).toEqual([0, 7, 14, 21, 28, 35, 42, 49, 50])
  const { sqlite, postgres } = await rowsOnBoth(file, target.url, PLANNED, VIEWERS_ALIKE)
  expect(postgres).toEqual(sqlite)
})

it('stops when asked, between two pages, and leaves the target empty', async () => {
  const file = await cacheWithViewers(50)
  const stop = new AbortController()
  const copying = copyCacheToPostgres(file, target.url, {
    pageRows: 7,
    signal: stop.signal,
    onProgress: (p) => {
      if (p.table === 'viewers' && p.done === 14) stop.abort()
    }
  })
  await expect(copying).rejects.toBeInstanceOf(CancelledError)
  expect(await countsIn(target.url, PLANNED)).toEqual(EMPTY)
})
