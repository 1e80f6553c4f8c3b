// The backends the store contract runs against. Each test file of this folder describes one
// concern through `eachBackend`, against the Store interface only; every backend must pass every
// one of them unchanged. PostgreSQL runs on the cluster the contract project's globalSetup
// starts (test/support/postgres-global-setup.ts), a fresh database per test.
import Database from 'better-sqlite3'
import pg from 'pg'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ViewerRecord } from '../../../src/main/core/api/schemas'
import { openDatabase } from '../../../src/main/core/store/db'
import type { Store } from '../../../src/main/core/store/interface/store'
import { LISTENER_APPLICATION_NAME } from '../../../src/main/core/store/postgres/pg-listener'
import { openPgStore, type PgStore } from '../../../src/main/core/store/postgres/pg-store'
import { pgViewerListStore } from '../../../src/main/core/store/postgres/viewer-list-store'
import { openSqliteStore } from '../../../src/main/core/store/sqlite/sqlite-store'
import { storeViewerList } from '../../../src/main/core/store/viewers'
import { freshDatabase } from '../../support/postgres-databases'

export interface StoreUnderTest {
  store: Store
  /** A second store on the same data, as another process (or server) opens it. */
  openOther(): Promise<Store>
  /** A complete viewer list, as the viewer writer stores it (lists are written outside the Store). */
  seedViewerList(connectionId: string, eventSessionId: string, viewers: ViewerRecord[], fetchedAt: number): Promise<void>
  /** Stamps the data with another schema version, as a newer (or older) build would leave it. */
  stampSchema(version: number): Promise<void>
  /** Drops every connection listening for notifications on the data, as a database restart or
   *  the network would; how many. Only where the backend listens (store.notifications). */
  dropListening(): Promise<number>
}

interface Backend {
  name: string
  open(): Promise<{ subject: StoreUnderTest; close(): Promise<void> }>
  /** Concerns this backend will never implement, by design, each with why (a backend that
   *  refuses the concern in words): skipped for it, said as "not applicable" in the run's output:
   *  the one place a backend may fall short, never silently. */
  notApplicable?: Record<string, string>
}

/** SQLite on a real temporary file, as the app opens its cache. */
const sqlite: Backend = {
  name: 'sqlite',

  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'eventwatch-store-contract-'))
    const file = join(dir, 'cache.db')
    const stores: Store[] = [openSqliteStore(file)]
    const subject: StoreUnderTest = {
      store: stores[0]!,
      async openOther() {
        const other = openSqliteStore(file)
        stores.push(other)
        return other
      },
      async seedViewerList(connectionId, eventSessionId, viewers, fetchedAt) {
        const db = openDatabase(file)
        try {
          storeViewerList(db, connectionId, eventSessionId, viewers, fetchedAt, 1)
        } finally {
          db.close()
        }
      },
      async stampSchema(version) {
        // As another build's process would: its own connection, through SQLite.
        const db = new Database(file)
        try {
          db.pragma(`user_version = ${version}`)
        } finally {
          db.close()
        }
      },
      async dropListening() {
        throw new Error('SQLite has no listening connection (it has no store.notifications)')
      }
    }
    return {
      subject,
      async close() {
        for (const store of stores) await store.close()
        rmSync(dir, { recursive: true, force: true })
      }
    }
  },
  notApplicable: {
    // A fenced unit is refused on SQLite: test/integration/store-sqlite-units.test.ts.
    leases: 'one server per SQLite file polls every connection and runs every job: nothing to share (docs/store.md)',
    secrets: 'no secret ever touches SQLite: a SQLite cache keeps them in the OS keychain, and its secrets concern refuses every call (docs/secrets.md)',
    // It has no store.notifications (a unit's are checked, then dropped): test/integration/store-sqlite-units.test.ts.
    listening: 'one server per SQLite file: the core that commits a change is the one that pushes it, so nothing is delivered (docs/store.md)',
    pollRequests: 'one server per SQLite file runs every connection\'s poller itself: it has no other server to ask, and its pollRequests concern refuses every call (docs/scaling-plan.md section 2)'
  }
}

/** PostgreSQL: a fresh database on the test run's cluster, dropped after. */
const postgres: Backend = {
  name: 'postgres',
  async open() {
    const database = await freshDatabase()
    const stores: PgStore[] = []
    const open = async (): Promise<PgStore> => {
      const store = await openPgStore(database.url)
      stores.push(store)
      return store
    }
    const store = await open()
    const subject: StoreUnderTest = {
      store,
      openOther: open,
      async seedViewerList(connectionId, eventSessionId, viewers, fetchedAt) {
        // As a server stores one: the viewer list writer, on the store's pool.
        const writer = pgViewerListStore(store)
        try {
          await writer.store(connectionId, eventSessionId, viewers, fetchedAt, 1)
        } finally {
          await writer.close()
        }
      },
      async stampSchema(version) {
        // As another build's server would: its own connection, its own row of schema_migrations.
        const client = new pg.Client({ connectionString: database.url })
        await client.connect()
        try {
          await client.query('DELETE FROM schema_migrations WHERE version > $1', [version])
          await client.query(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, 'stamped by a test') ON CONFLICT (version) DO NOTHING",
            [version]
          )
        } finally {
          await client.end()
        }
      },
      async dropListening() {
        // As the database's administrator would: pg_terminate_backend of each listening session,
        // found first (in one WHERE, PostgreSQL may call pg_terminate_backend before the other tests).
        const listening = await database.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
          [LISTENER_APPLICATION_NAME]
        )
        for (const { pid } of listening) await database.query('SELECT pg_terminate_backend($1)', [pid])
        return listening.length
      }
    }
    return {
      subject,
      async close() {
        for (const store of stores) await store.close()
        await database.drop()
      }
    }
  }
}

const BACKENDS: Backend[] = [sqlite, postgres]

/** Describes `concern` once per backend; `subject()` is a fresh, empty store for each test. */
export function eachBackend(concern: string, tests: (subject: () => StoreUnderTest) => void): void {
  for (const backend of BACKENDS) {
    const notApplicable = backend.notApplicable?.[concern]
    if (notApplicable !== undefined) {
      describeNotApplicable(backend, concern, notApplicable, tests)
      continue
    }
    describe(`${backend.name} store: ${concern}`, () => {
      let opened: Awaited<ReturnType<Backend['open']>> | undefined
      beforeEach(async () => {
        opened = await backend.open()
      })
      afterEach(async () => {
        await opened?.close()
        opened = undefined
      })
      tests(() => opened?.subject ?? subjectOutsideTest())
    })
  }
}

/**
 * A concern the backend lacks by design: its tests are skipped, and one test holds the backend to
 * it — the concern is absent (from the store, its reads and a unit), or every call of it, read or
 * in a unit, rejects with one line of words rather than answering.
 */
function describeNotApplicable(backend: Backend, concern: string, why: string, tests: (subject: () => StoreUnderTest) => void): void {
  say(`${backend.name} store: ${concern}: not applicable (by design): ${why}`)
  describe.skip(`${backend.name} store: ${concern} (not applicable: ${why})`, () => tests(() => subjectOutsideTest()))
  describe(`${backend.name} store: ${concern} (not applicable)`, () => {
    it(`has no ${concern}, or refuses its every call in one line of words`, async () => {
      const opened = await backend.open()
      try {
        const { store } = opened.subject
        const concernOf = (surface: object): unknown => (surface as Record<string, unknown>)[concern]
        const calls = (surface: object): [string, () => unknown][] =>
          Object.entries((concernOf(surface) ?? {}) as Record<string, unknown>)
            .filter((entry): entry is [string, () => unknown] => typeof entry[1] === 'function')
            .map(([name, method]) => [name, () => method()])
        await store.withTransaction(async (tx) => {
          if ([store, store.read, tx].every((surface) => concernOf(surface) === undefined)) return
          const read = calls(store.read)
          expect(read.length, `store.read.${concern} has no method to refuse`).toBeGreaterThan(0)
          for (const [name, call] of read) await expectRefusal(`read.${concern}.${name}`, call)
          for (const [name, call] of calls(tx)) await expectRefusal(`tx.${concern}.${name}`, call)
        })
      } finally {
        await opened.close()
      }
    })
  })
}

async function expectRefusal(what: string, call: () => unknown): Promise<void> {
  const outcome = await Promise.resolve()
    .then(call)
    .then(
      (value: unknown) => ({ answered: value }),
      (error: unknown) => ({ refused: error })
    )
  expect(outcome, `${what} answered instead of refusing`).toHaveProperty('refused')
  const message = 'refused' in outcome && outcome.refused instanceof Error ? outcome.refused.message : ''
  expect(message, what).toMatch(/^[^\n]{10,}$/)
}

/** A line of the run's output (vitest shows it under the test file), so a skip is never silent. */
function say(line: string): void {
  console.info(line)
}

function subjectOutsideTest(): never {
  throw new Error('no store: subject() is for inside a test')
}
