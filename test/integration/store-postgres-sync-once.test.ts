// `eventwatch sync --once` on a team's PostgreSQL database (issue 26; docs/scaling-plan.md section
// 2): the team's connections are each polled by the holder of its lease alone. A pass on a
// connection nobody polls takes its lease for the pass, writes under it, and releases it at its end
// (the next server takes it at once); a pass on one a server of the team polls is refused, naming
// that server, and writes nothing. Before: the pass polled and wrote beside the server, unfenced.
import { afterEach, expect, it } from 'vitest'
import { Cleanups } from '../support/app-core'
import { homeEnv, simulatorFlags } from '../support/cli'
import { runCli } from '../support/cli-processes'
import { SECRET, serveOn, simulators, Team } from '../support/team-servers'
import { tempDirs } from '../support/temp-dirs'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())
const newDir = tempDirs('eventwatch-pg-sync-once-')

it('polls a connection nobody polls under its lease and releases it; refuses one a server polls, naming the server', async () => {
  const sims = await simulators(cleanups, 'x')
  const team = await Team.open(cleanups, sims)
  const env = { ...homeEnv(newDir()), EVENTWATCH_CLIENT_SECRET: SECRET }
  const pass = ['sync', '--once', '--db', team.database.url, '--connection', 'Tenant X']

  const done = await runCli(pass, env)
  expect(done.code, done.stderr).toBe(0)
  // Taken for the pass (the first fence), released at its end: no live lease for a server to wait out.
  expect((await team.leases()).get('connection:x')).toMatchObject({ fence: 1, live: false })
  const stored = await team.sql.query<{ id: string }>("SELECT event_session_id AS id FROM sessions WHERE connection_id = 'x'")
  expect(stored.rows.map((row) => row.id).sort()).toEqual(sims.x!.world.sessions.map((s) => s.eventSessionId).sort())

  // A server of the team takes it at its first pass, and holds it.
  const server = await serveOn(cleanups, 'A', team.database.url, 600, 30)
  const held = await team.lease('connection:x', (lease) => lease?.live === true && lease.pid === server.pid)
  expect(held.fence).toBe(2)
  // The one-shot passes' runs (kind 'once'; the server's are 'discovery' and 'details', at its own pace).
  const passes = async (): Promise<number> => (await team.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM sync_runs WHERE kind = 'once'")).rows[0]!.n
  expect(await passes()).toBe(1)

  const refused = await runCli(pass, env)
  expect(refused.code).not.toBe(0)
  expect(refused.stderr).toContain(`connection "Tenant X" is polled by the team's server ${held.holder}, so this pass would poll it beside that server`)
  // Nothing written beside the server, and its lease untouched.
  expect(await passes()).toBe(1)
  expect((await team.leases()).get('connection:x')).toMatchObject({ holder: held.holder, fence: 2, live: true })
}, 120_000)

it('polls a connection given on the command line alone, under a lease of its own', async () => {
  const sims = await simulators(cleanups, 'y')
  const team = await Team.open(cleanups, {})
  const env = { ...homeEnv(newDir()), EVENTWATCH_CLIENT_SECRET: SECRET }
  const done = await runCli(['sync', '--once', '--db', team.database.url, ...simulatorFlags(sims.y!)], env)
  expect(done.code, done.stderr).toBe(0)
  const leases = [...(await team.leases()).values()]
  expect(leases).toEqual([expect.objectContaining({ fence: 1, live: false })])
}, 120_000)
