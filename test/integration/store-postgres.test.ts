// What the PostgreSQL store promises beyond the contract: several servers on one database.
// Migrations run once under an advisory lock and refuse a newer schema; a unit's read-then-write
// loses no update to a unit of another server (each store here has a pool of its own, as a
// server does), which the contract cannot show (units of one store run one after another).
import pg from 'pg'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { Store } from '../../src/main/core/store/interface/store'
import { pgMigrations } from '../../src/main/core/store/postgres/migrations'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { connectionSettings, T0 } from '../contract/store/fixtures'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'

let database: TestDatabase
const stores: Store[] = []

async function server(): Promise<Store> {
  const store = await openPgStore(database.url)
  stores.push(store)
  return store
}

const query = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> => database.query<R>(text, values)

beforeEach(async () => {
  database = await freshDatabase()
})

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close()
  await database.drop()
})

it('migrates a new database once when several servers start on it at the same time', async () => {
  await Promise.all([server(), server(), server()])
  expect(await query('SELECT version, name FROM schema_migrations ORDER BY version')).toEqual(pgMigrations.map(({ version, name }) => ({ version, name })))
})

it('refuses a database a newer Eventwatch migrated, in words, and changes nothing', async () => {
  await (await server()).close()
  await query("INSERT INTO schema_migrations (version, name) VALUES (99, 'from the future')")
  const known = pgMigrations.at(-1)!.version
  await expect(openPgStore(database.url)).rejects.toThrow(`was written by a newer Eventwatch (schema 99, this build knows ${known}): upgrade Eventwatch`)
  expect((await query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version)).toEqual([
    ...pgMigrations.map((m) => m.version),
    99
  ])
})

it('names the database without its password when it refuses it', async () => {
  await (await server()).close()
  await query("INSERT INTO schema_migrations (version, name) VALUES (99, 'from the future')")
  const withPassword = new URL(database.url)
  withPassword.password = 'hunter2'
  // Trust auth ignores the password; the message must not repeat it.
  const refusal = await openPgStore(withPassword.toString()).catch((error: Error) => error)
  expect(String(refusal)).toMatch(/newer Eventwatch/)
  expect(String(refusal)).not.toContain('hunter2')
})

it('loses no update when units on two servers read then write the same alert at the same time', async () => {
  const [a, b] = [await server(), await server()]
  await a.withTransaction((tx) => tx.connections.insert(connectionSettings('Tenant A'), 'A', T0))
  const id = await a.withTransaction((tx) =>
    tx.alerts.insert(
      'A',
      { rule: 'monitor-blind', eventSessionId: null, eventName: null, state: 'firing', severity: 'critical', summary: 'blind', value: 0, streak: 0 },
      T0
    )
  )
  const bump = (store: Store) =>
    store.withTransaction(async (tx) => {
      const [open] = await tx.alerts.open('A')
      await tx.alerts.setStreak(id, open!.streak + 1)
    })
  await Promise.all(Array.from({ length: 15 }, (_, i) => bump(i % 2 === 0 ? a : b)))
  expect((await a.read.alerts.open('A'))[0]?.streak).toBe(15)
})

it('keeps both servers\u2019 changes to one setting saved at the same time', async () => {
  const [a, b] = [await server(), await server()]
  const saves = Array.from({ length: 10 }, (_, i) =>
    i % 2 === 0
      ? a.withTransaction((tx) => tx.settings.update('retention', { snapshotsDays: 30 + i }))
      : b.withTransaction((tx) => tx.settings.update('display', { timeZone: 'utc' }))
  )
  await Promise.all([...saves, b.withTransaction((tx) => tx.settings.update('retention', { auditDays: 40 }))])
  const retention = await a.read.settings.get('retention')
  expect(retention.auditDays).toBe(40)
  expect(retention.snapshotsDays).toBe(38)
})

it('says in words, without the password, when the server cannot be reached', async () => {
  const refusal = await openPgStore('postgres://eventwatch:hunter2@127.0.0.1:1/eventwatch').catch((error: Error) => error)
  expect(refusal).toMatchObject({ kind: 'storage', code: 'ECONNREFUSED' })
  expect(String(refusal)).toMatch(/cannot reach the PostgreSQL server of postgres:\/\/eventwatch:\*\*\*@127\.0\.0\.1:1\/eventwatch/)
  expect(String(refusal)).not.toContain('hunter2')
})
