// The service's data is hostile, and PostgreSQL refuses some of what SQLite keeps. Each case: a
// tenant with one odd session is polled whole into a team's database, every other session with it.
// - Text: PostgreSQL's text cannot hold NUL nor jsonb its escape. "Town\0hall" is kept with U+FFFD
//   (in the column and in the record as sent); a name that only quotes "\u0000" is kept as it is.
//   Before: the unit failed on 'invalid byte sequence for encoding "UTF8": 0x00', reported as the
//   service's "response-format" problem, and no session of the tenant was stored at all.
// - Numbers: a viewer count of 12.5 or 1e20 is stored as SQLite stores it (a count is whole once
//   read: 12.5 is 13 on both), and both backends show the same rows. Before: 'value
//   "100000000000000000000" is out of range for type bigint', and again no session was stored.
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import type { PastSessionsPage } from '../../src/shared/screens'
import { Cleanups, frozenSimulator, saveConnections, testKeychain } from '../support/app-core'
import { freshDatabase } from '../support/postgres-databases'
import { tempDirs } from '../support/temp-dirs'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())
const newDir = tempDirs('eventwatch-hostile-data-')

/** `sim`'s tenant polled once into `db` by a core of its own: the pass's problems and every
 *  session as the past sessions screen shows it (live ones included). */
async function pollOnce(db: string, sim: RunningSimulator, secrets: SecretStore): Promise<{ problems: unknown[]; page: PastSessionsPage }> {
  await saveConnections(db, secrets, [{ sim, name: 'Tenant' }])
  const core = await startAppCore({ db, secrets, passesOnRequest: true })
  try {
    const [pass] = await core.completePasses({})
    const page = await core.dispatch('pastSessions', { sort: 'started', includeLive: true })
    if (!page.ok) throw new Error(page.error.message)
    return { problems: pass!.report.problems, page: page.value as PastSessionsPage }
  } finally {
    await core.close()
  }
}

it('stores a tenant whose session names carry NUL, each NUL as U+FFFD, and every other session with it', async () => {
  const database = await freshDatabase()
  cleanups.add(() => database.drop())
  const sim = await frozenSimulator(cleanups, 'nul')
  const [withNul, quoting] = sim.world.sessions
  withNul!.eventName = 'Town\u0000hall'
  quoting!.eventName = 'a name that quotes \\u0000'
  const secrets = testKeychain(cleanups)
  await saveConnections(database.url, secrets, [{ sim, name: 'Tenant' }])
  const core = await startAppCore({ db: database.url, secrets, passesOnRequest: true })
  cleanups.add(() => core.close())

  const [pass] = await core.completePasses({})
  expect(JSON.stringify(pass!.report.problems)).toBe('[]')
  const rows = await database.query<{ id: string; name: string; sent: string }>(
    "SELECT event_session_id AS id, event_name AS name, raw_json->>'eventName' AS sent FROM sessions"
  )
  expect(rows.map((row) => row.id).sort()).toEqual(sim.world.sessions.map((s) => s.eventSessionId).sort())
  const stored = (id: string) => rows.find((row) => row.id === id)
  expect(stored(withNul!.eventSessionId)).toMatchObject({ name: 'Town\uFFFDhall', sent: 'Town\uFFFDhall' })
  expect(stored(quoting!.eventSessionId)).toMatchObject({ name: 'a name that quotes \\u0000', sent: 'a name that quotes \\u0000' })
})

it('stores a viewer count of 12.5 or 1e20 as SQLite does, with every other session, and shows what SQLite shows', async () => {
  const database = await freshDatabase()
  cleanups.add(() => database.drop())
  const sim = await frozenSimulator(cleanups, 'counts')
  // Ended sessions: their count is the service's word alone (a live one's is its viewers').
  const [fractional, huge] = sim.world.sessions.filter((s) => s.hasEnded)
  fractional!.countAfterEnd = 12.5
  huge!.countAfterEnd = 1e20
  const secrets = testKeychain(cleanups)

  const onPostgres = await pollOnce(database.url, sim, secrets)
  const onSqlite = await pollOnce(join(newDir(), 'cache.db'), sim, secrets)
  expect(JSON.stringify(onPostgres.problems)).toBe('[]')
  const counts = ({ page }: { page: PastSessionsPage }) => Object.fromEntries(page.rows.map((row) => [row.eventSessionId, [row.viewersCount, row.peakViewers]]))
  // Shown as SQLite's cache shows them (a count on screen is whole), from the number as sent.
  expect(counts(onPostgres)[fractional!.eventSessionId]?.[0]).toBe(13)
  expect(counts(onPostgres)[huge!.eventSessionId]?.[0]).toBe(1e20)
  expect(counts(onPostgres)).toEqual(counts(onSqlite))
  const stored = await database.query<{ id: string; count: number }>('SELECT event_session_id AS id, viewers_count AS count FROM sessions')
  expect(stored.map((row) => row.id).sort()).toEqual(sim.world.sessions.map((s) => s.eventSessionId).sort())
  expect(stored.find((row) => row.id === huge!.eventSessionId)?.count).toBe(1e20)
})
