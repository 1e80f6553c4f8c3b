// A fresh, empty database on the test cluster for each store under test, dropped after: tests
// share one cluster (postgres-global-setup.ts), never a database.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { inject } from 'vitest'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'

export interface TestDatabase {
  url: string
  /** Runs one statement on it, as its superuser, on a connection of its own: what a test does
   *  beside the stores under test (a stamp, a role, pg_terminate_backend). */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>
  /** Drops it, ending any connection still open on it. */
  drop(): Promise<void>
}

async function asAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('postgresAdminUrl') })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

export async function freshDatabase(): Promise<TestDatabase> {
  const name = `eventwatch_${randomBytes(6).toString('hex')}`
  await asAdmin((client) => client.query(`CREATE DATABASE ${name}`))
  const url = new URL(inject('postgresAdminUrl'))
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
      const client = new pg.Client({ connectionString: url.toString() })
      await client.connect()
      try {
        return (await client.query<R>(text, values)).rows
      } finally {
        await client.end()
      }
    },
    drop: () => asAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined)
  }
}

/** Polling stores viewer lists and reads which sessions hold one: on PostgreSQL that waits for the
 *  viewers concern (issue 26, its own part). Until a store answers it, a test that polls says so
 *  and skips. */
export async function viewersOnPostgres(): Promise<boolean> {
  const database = await freshDatabase()
  const store = await openPgStore(database.url)
  try {
    await store.read.viewers.sessionsWithLists('none')
    return true
  } catch {
    return false
  } finally {
    await store.close()
    await database.drop()
  }
}
