// Any server answers any request (issue 26; docs/scaling-plan.md section 2, "Requests that reach
// into a poller"): two real `serve` processes on one PostgreSQL database, one holding the one
// connection. Asked of the other, a refresh of one session and a range fetched are run by the
// holder and answered with its result; a session muted is judged again by the holder before the
// answer; a refresh of everything brings the connection's last
// update forward on both. A holder frozen with SIGSTOP does not answer: the request ends at its
// deadline in one sentence, withdrawn, and does not run when the holder wakes. A holder frozen
// past a short lease is taken over by the asker, which picks its own request up and answers it.
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_RETENTION } from '../../src/main/core/store/settings'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { POLL_REQUESTS_KEPT_MS, pruneOnce } from '../../src/main/core/store/retention'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import { Cleanups } from '../support/app-core'
import { ask, eventually, serveOn, simulators, statusOf, Team, type Server } from '../support/team-servers'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())

/** Every poll cadence: longer than any test here, so only what a test asks for polls. */
const QUIET_INTERVAL = 600
/** A refresh's deadline (POLL_REQUEST_KINDS): the asker gives up then. */
const REFRESH_DEADLINE_MS = 30_000

interface RequestRow {
  kind: string
  arguments: unknown
  actor: string | null
  asked_by: string
  claimed_by: string | null
  answer: unknown
  error: string | null
  answered: boolean
}

const requestsOf = async (team: Team): Promise<RequestRow[]> =>
  (
    await team.sql.query<RequestRow>(
      'SELECT kind, arguments, actor, asked_by, claimed_by, answer, error, answered_at IS NOT NULL AS answered FROM poll_requests ORDER BY id'
    )
  ).rows

/** Two servers on one database, started one after the other: the first holds connection x alone. */
async function holderAndOther(leaseSeconds: number): Promise<{ sims: Record<string, RunningSimulator>; team: Team; holder: Server; other: Server; holderId: string; otherId: string }> {
  const sims = await simulators(cleanups, 'x')
  const team = await Team.open(cleanups, sims)
  const holder = await serveOn(cleanups, 'A', team.database.url, QUIET_INTERVAL, leaseSeconds)
  const lease = await team.lease('connection:x', (l) => l?.live === true && l.pid === holder.pid)
  await eventually('A polls x', () => statusOf(holder, 'x'), (c) => c?.state === 'connected' && c.lastUpdateAt !== null, 60_000)
  const other = await serveOn(cleanups, 'B', team.database.url, QUIET_INTERVAL, leaseSeconds)
  await eventually('B shows x as A polls it', () => statusOf(other, 'x'), (c) => c?.state === 'connected')
  // B's heartbeat, once its keeper's first pass has written it: its name as a server of the team.
  const others = await eventually(
    'B heard from',
    async () => (await team.sql.query<{ holder: string }>('SELECT holder FROM lease_holders WHERE holder <> $1', [lease.holder])).rows,
    (rows) => rows.length === 1
  )
  return { sims, team, holder, other, holderId: lease.holder, otherId: others[0]!.holder }
}

describe('a request asked of a server that does not hold the connection', () => {
  it('is run by the holder and answered with its result: a session refreshed, a range fetched, a mute judged, a refresh of everything', async () => {
    const { sims, team, other, holderId, otherId } = await holderAndOther(3)
    const session = sims.x!.world.sessions[0]!
    const refreshed = await ask<{ viewers: number }>(other, 'refreshSession', { connectionId: 'x', eventSessionId: session.eventSessionId })
    const inCache = await team.sql.query<{ n: number }>(
      'SELECT viewer_count::int AS n FROM viewer_lists WHERE connection_id = $1 AND event_session_id = $2 AND staged_at IS NULL',
      ['x', session.eventSessionId]
    )
    expect(refreshed).toEqual({ viewers: inCache.rows[0]!.n })
    expect(refreshed.viewers).toBeGreaterThan(0)

    const to = new Date()
    const from = new Date(to.getTime() - 30 * 86_400_000)
    const fetched = await ask<{ listed: number }>(other, 'fetchRange', { connectionId: 'x', from: from.toISOString(), to: to.toISOString() })
    expect(fetched.listed).toBeGreaterThan(0)

    // A session muted through B: its holder judges the connection's alerts again before B answers.
    await ask(other, 'setSessionAlertOverride', { connectionId: 'x', eventSessionId: session.eventSessionId, muted: true })
    expect((await requestsOf(team)).at(-1)).toMatchObject({ kind: 'reevaluate', claimed_by: holderId, answered: true, answer: {}, error: null })

    // The last update moves only when asked (the cadences are ten minutes): the holder's pass,
    // shown by the server that asked for it.
    const before = Date.now()
    await ask(other, 'refreshNow')
    await eventually('x polled again, as B shows it', () => statusOf(other, 'x'), (c) => c?.lastUpdateAt != null && Date.parse(c.lastUpdateAt) >= before, 20_000)

    // Each asked by B, taken and answered by A: once each.
    const rows = await requestsOf(team)
    expect(rows.map((r) => [r.kind, r.asked_by, r.claimed_by, r.answered, r.error])).toEqual([
      ['refreshSession', otherId, holderId, true, null],
      ['fetchRange', otherId, holderId, true, null],
      ['reevaluate', otherId, holderId, true, null],
      ['refresh', otherId, holderId, true, null]
    ])
    expect(rows[0]).toMatchObject({ arguments: { eventSessionId: session.eventSessionId }, answer: refreshed, actor: expect.any(String) })
    expect(rows[1]).toMatchObject({ arguments: { from: from.toISOString(), to: to.toISOString() }, answer: fetched })

    // Retention forgets them an hour after their answer.
    const store = await openPgStore(team.database.url)
    try {
      expect(await pruneOnce(store, DEFAULT_RETENTION, Date.now())).toMatchObject({ pollRequests: 0 })
      expect(await pruneOnce(store, DEFAULT_RETENTION, Date.now() + POLL_REQUESTS_KEPT_MS + 60_000)).toMatchObject({ pollRequests: 4 })
    } finally {
      await store.close()
    }
    expect(await requestsOf(team)).toEqual([])
  }, 240_000)

  it('ends at its deadline in one sentence when the holder is frozen, and does not run when the holder wakes', async () => {
    // A lease longer than the deadline: nobody takes the connection over meanwhile.
    const { sims, team, holder, other, holderId } = await holderAndOther(60)
    const session = sims.x!.world.sessions[0]!
    process.kill(holder.pid, 'SIGSTOP')
    const asked = Date.now()
    const refused = await ask(other, 'refreshSession', { connectionId: 'x', eventSessionId: session.eventSessionId }).catch((error: Error) => error)
    const waited = Date.now() - asked
    console.log(`a frozen holder's request ended after ${waited} ms: ${String(refused)}`)
    expect(refused).toBeInstanceOf(Error)
    expect((refused as Error).message).toBe(
      `refreshSession on server B: Refreshing a session failed: no server took the request to refresh a session of Tenant X within 30 s: its holder ${holderId} stopped answering ` +
        '(stalled, stopping, or cut off from the database); the request was withdrawn and will not run'
    )
    expect(waited).toBeGreaterThanOrEqual(REFRESH_DEADLINE_MS - 1000)
    expect(waited).toBeLessThan(REFRESH_DEADLINE_MS + 10_000)

    // Awake, the holder hears the request it missed, and finds it withdrawn: it runs nothing.
    process.kill(holder.pid, 'SIGCONT')
    await eventually('A answers again', () => statusOf(holder, 'x'), (c) => c !== undefined)
    await new Promise((resolve) => setTimeout(resolve, 3000))
    expect(await requestsOf(team)).toEqual([
      expect.objectContaining({ kind: 'refreshSession', claimed_by: null, answered: true, error: 'withdrawn by its asker: no answer came within 30 s' })
    ])
    const refreshes = await team.sql.query('SELECT id FROM sync_runs WHERE connection_id = $1 AND kind = $2', ['x', 'refresh'])
    expect(refreshes.rows).toEqual([])
  }, 240_000)

  it('waits for the server that takes a frozen holder’s connection over, which picks the request up and answers it', async () => {
    const { sims, team, holder, other, otherId } = await holderAndOther(3)
    const session = sims.x!.world.sessions[0]!
    process.kill(holder.pid, 'SIGSTOP')
    // B itself takes x over within the lease (3 s) and a pass, then runs what it asked.
    const refreshed = await ask<{ viewers: number }>(other, 'refreshSession', { connectionId: 'x', eventSessionId: session.eventSessionId })
    expect(refreshed.viewers).toBeGreaterThan(0)
    expect((await team.leases()).get('connection:x')).toMatchObject({ pid: other.pid, fence: 2 })
    expect(await requestsOf(team)).toEqual([expect.objectContaining({ kind: 'refreshSession', asked_by: otherId, claimed_by: otherId, answer: refreshed })])
  }, 240_000)
})
