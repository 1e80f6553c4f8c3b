// How the PostgreSQL tables talk to the database: one parameterised statement at a time, on the
// unit's client (a unit's tx) or on the pool (store.read). Each concern's file takes `Runners`:
// `read` for what only reads, `write` for what writes, so store.read and a read-only unit can
// refuse a write before it reaches the database.
import type { QueryResultRow } from 'pg'

export interface Rows<R> {
  rows: R[]
  /** Rows inserted, updated or deleted. */
  count: number
}

/** Runs one statement with `$1…` parameters. */
export type Sql = <R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]) => Promise<Rows<R>>

export interface Runners {
  read: Sql
  write: Sql
  /** A writing unit's: what it reads in order to write back is locked (SELECT … FOR UPDATE), so
   *  a unit on another server cannot change it in between (docs/store.md, rule 5). False for
   *  store.read and read-only units, where a lock would be refused or pointless. */
  locking: boolean
}

/** A runner that refuses every statement with `error()`. */
export const refusingSql =
  (error: () => Error): Sql =>
  () =>
    Promise.reject(error())

/** The first row, or null. */
export async function one<R extends QueryResultRow>(sql: Sql, text: string, values?: readonly unknown[]): Promise<R | null> {
  return (await sql<R>(text, values)).rows[0] ?? null
}

/** Every row. */
export async function all<R extends QueryResultRow>(sql: Sql, text: string, values?: readonly unknown[]): Promise<R[]> {
  return (await sql<R>(text, values)).rows
}

/** Positional parameters as they are added: `$n` for each value. */
export function parameters(): { values: unknown[]; add(value: unknown): string } {
  const values: unknown[] = []
  return { values, add: (value) => `$${values.push(value)}` }
}
