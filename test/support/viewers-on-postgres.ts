// Polling stores viewer lists and reads which sessions hold one: on PostgreSQL that waits for the
// viewers concern (issue 26, its own part). The tests that poll into PostgreSQL ask this first
// and skip, saying why in their names, until a store answers it.
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { freshDatabase } from './postgres-databases'

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
