// A fresh, empty database on the test cluster for each store under test, dropped after: tests
// share one cluster (postgres-global-setup.ts), never a database.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { inject } from 'vitest'

export interface TestDatabase {
  url: string
  /** One statement on a connection of its own (as another program would), its rows. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>
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

