// vitest globalSetup of the store contract project: one PostgreSQL cluster per test run (initdb
// costs seconds), its admin URL handed to the tests; each test makes a database of its own on it
// (postgres-databases.ts). Only a run that has contract files starts it.
import type { TestProject } from 'vitest/node'
import { startPostgres } from './postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test cluster's `postgres` database, as its superuser. */
    postgresAdminUrl: string
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgres()
  project.provide('postgresAdminUrl', cluster.url())
  return () => cluster.stop()
}
