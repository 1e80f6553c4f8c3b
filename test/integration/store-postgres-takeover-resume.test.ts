// A server taking a connection over from a killed one goes on from what that one fetched (issue 26;
// docs/scaling-plan.md section 2): its first pass fetches no viewer list the last holder fetched
// within the viewers' cadence, so it ends sooner and asks the service for less. Before: every live
// session's list again (3 here; 100 lists, about 10 s at a server's 10 requests a second, in
// `npm run bench -- team`'s takeover).
import { afterEach, expect, it } from 'vitest'
import { Cleanups } from '../support/app-core'
import { eventually, serveOn, simulators, statusOf, Team, TAKEOVER_WITHIN_MS } from '../support/team-servers'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())

/** Every cadence a minute: within this test each server makes one pass, the first. */
const CADENCE_SECONDS = 60

interface Run {
  kind: string
  viewerLists: number
  finished: boolean
}

it("fetches in its first pass after a takeover none of the lists the killed holder fetched within the viewers' cadence", async () => {
  const sims = await simulators(cleanups, 'x')
  const team = await Team.open(cleanups, sims)
  const runsOf = async (pid: number): Promise<Run[]> =>
    (
      await team.sql.query<Run>(
        `SELECT kind, viewer_lists AS "viewerLists", finished_at IS NOT NULL AS finished FROM sync_runs
          WHERE connection_id = 'x' AND kind = 'discovery' AND started_at >= $1 ORDER BY started_at`,
        [startedAt.get(pid)]
      )
    ).rows
  const startedAt = new Map<number, number>()

  let at = Date.now()
  const a = await serveOn(cleanups, 'A', team.database.url, CADENCE_SECONDS)
  startedAt.set(a.pid, at)
  await team.lease('connection:x', (lease) => lease?.live === true && lease.pid === a.pid)
  const live = sims.x!.world.sessions.filter((s) => !s.hasEnded).length
  const [first] = await eventually("A's first pass", () => runsOf(a.pid), (runs) => runs[0]?.finished === true, 60_000)
  expect(first!.viewerLists).toBeGreaterThanOrEqual(live)

  at = Date.now()
  const b = await serveOn(cleanups, 'B', team.database.url, CADENCE_SECONDS)
  startedAt.set(b.pid, at)
  a.cli.child.kill('SIGKILL')
  await team.lease('connection:x', (lease) => lease?.live === true && lease.pid === b.pid, TAKEOVER_WITHIN_MS)
  const [taken] = await eventually("B's first pass", () => runsOf(b.pid), (runs) => runs[0]?.finished === true, 60_000)
  expect(await statusOf(b, 'x')).toMatchObject({ state: 'connected' })
  // Each live session's list is under a minute old: none is due.
  expect(taken!.viewerLists).toBe(0)
}, 180_000)
