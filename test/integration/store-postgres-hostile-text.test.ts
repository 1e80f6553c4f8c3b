// The service's data is hostile, and PostgreSQL's text cannot hold NUL nor jsonb its escape
// (SQLite keeps both). A tenant with one session named "Town\0hall" is polled whole into a team's
// database: the NUL is kept as U+FFFD (in the column and in the record as sent), a name that only
// quotes the text "\u0000" is kept as it is, and every other session is there. Before: the poll's
// unit failed on 'invalid byte sequence for encoding "UTF8": 0x00', reported as the service's
// "response-format" problem, and no session of the tenant was stored at all.
import { afterEach, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import { Cleanups, frozenSimulator, saveConnections, testKeychain } from '../support/app-core'
import { freshDatabase } from '../support/postgres-databases'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())

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
  expect(pass!.report.problems).toEqual([])
  const rows = await database.query<{ id: string; name: string; sent: string }>(
    "SELECT event_session_id AS id, event_name AS name, raw_json->>'eventName' AS sent FROM sessions"
  )
  expect(rows.map((row) => row.id).sort()).toEqual(sim.world.sessions.map((s) => s.eventSessionId).sort())
  const stored = (id: string) => rows.find((row) => row.id === id)
  expect(stored(withNul!.eventSessionId)).toMatchObject({ name: 'Town\uFFFDhall', sent: 'Town\uFFFDhall' })
  expect(stored(quoting!.eventSessionId)).toMatchObject({ name: 'a name that quotes \\u0000', sent: 'a name that quotes \\u0000' })
})
