// Several `eventwatch serve` processes on one PostgreSQL database (issue 26; docs/scaling-plan.md
// section 2; docs/several-servers.md), as real child processes polling real simulators over
// loopback, with 3-second leases (serve's hidden --lease-seconds): they split the connections and
// run each team job on one of them; both say the same of a connection one of them holds (status,
// situation, /metrics); one killed with SIGKILL loses its connection to the other within the lease,
// which polls it and stops the runs it left open; a clean stop releases everything at once; one
// frozen with SIGSTOP past its lease writes nothing when it wakes (every write of the tables a
// poller writes is logged by a trigger with the writer's application_name) and gives the
// connection up.
import { afterEach, describe, expect, it } from 'vitest'
import type { AlertsPage } from '../../src/shared/alerts'
import type { Status } from '../../src/shared/domain'
import { Cleanups } from '../support/app-core'
import { valueOf } from '../support/exposition'
import * as teamServers from '../support/team-servers'
import { ask, eventually, LEASE_SECONDS, polledSince, scrape, statusOf, TAKEOVER_WITHIN_MS, type Server } from '../support/team-servers'

/** The tables a connection's poller (and the judgement of its polls) writes. */
const POLLED_TABLES = ['sessions', 'snapshots', 'sync_runs', 'poller_status', 'diagnostics', 'alerts', 'alert_judged', 'alert_cooling', 'viewer_lists']

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())

/** `eventwatch serve` on `db`, polling every `interval` seconds, with short leases. */
const serve = (label: string, db: string, interval: number): Promise<Server> => teamServers.serveOn(cleanups, label, db, interval)
const simulators = (...ids: string[]) => teamServers.simulators(cleanups, ...ids)
const Team = { open: (sims: Parameters<typeof teamServers.Team.open>[1]) => teamServers.Team.open(cleanups, sims) }

describe('servers sharing one PostgreSQL database', () => {
  it('split the connections, run each team job on one of them, and say the same of a connection one of them holds', async () => {
    const sims = await simulators('x', 'y')
    const team = await Team.open(sims)
    const a = await serve('A', team.database.url, 30)
    const b = await serve('B', team.database.url, 30)
    const pids = [a.pid, b.pid].sort()
    // A took both while alone; with B heard from, each holds one (A gave its newest up).
    const split = await eventually(
      'the connections split',
      () => team.leases(),
      (leases) => ['connection:x', 'connection:y'].every((n) => leases.get(n)?.live) && [leases.get('connection:x')!.pid, leases.get('connection:y')!.pid].sort().join() === pids.join()
    )
    const holderOf = (id: string): Server => (split.get(`connection:${id}`)!.pid === a.pid ? a : b)
    // Each team job runs on one server: its lease, and its log line, are that server's alone.
    for (const job of ['retention', 'repeats']) {
      const lease = split.get(`job:${job}`)
      expect(lease?.live).toBe(true)
      const runs = [a, b].filter((s) => s.cli.output().stderr.includes(`this server runs the team's ${job} job`))
      expect(runs.map((s) => s.pid)).toEqual([lease!.pid])
    }
    // Both servers poll theirs: each connection connected, on both.
    for (const id of ['x', 'y']) {
      for (const server of [a, b]) await eventually(`${id} connected on ${server.label}`, () => statusOf(server, id), (c) => c?.state === 'connected')
    }

    // X's service fails; its holder polls it now and finds it offline. The other server says the
    // same, from the holder's rows: the status, the situation, and /metrics.
    const holder = holderOf('x')
    const other = holder === a ? b : a
    sims.x!.faults.serverErrors(Infinity, [503])
    await ask(holder, 'refreshNow')
    const offline = await eventually('x offline on its holder', () => statusOf(holder, 'x'), (c) => c?.state === 'offline', 60_000)
    expect(offline).toMatchObject({ reason: expect.stringMatching(/503/), since: expect.any(String) })
    await eventually(
      'x the same on both servers',
      async () => [await statusOf(holder, 'x'), await statusOf(other, 'x')],
      ([mine, theirs]) => JSON.stringify(mine) === JSON.stringify(theirs)
    )
    const headlines = await eventually(
      'the same situation on both servers',
      () => Promise.all([holder, other].map((s) => ask<AlertsPage>(s, 'listAlerts', { limit: 10 }).then((p) => p.situation.headline))),
      ([mine, theirs]) => mine === theirs
    )
    expect(headlines[0]).toMatch(/Tenant X.* offline/)
    for (const server of [holder, other]) {
      const metrics = await scrape(server)
      expect(valueOf(metrics, 'eventwatch_connection_state', { connection_id: 'x', state: 'offline' }), server.label).toBe(1)
      expect(valueOf(metrics, 'eventwatch_connection_state', { connection_id: 'y', state: 'connected' }), server.label).toBe(1)
      for (const id of ['x', 'y']) {
        const lease = split.get(`connection:${id}`)!
        expect(valueOf(metrics, 'eventwatch_connection_lease', { connection_id: id, holder: lease.holder }), server.label).toBe(1)
        expect(valueOf(metrics, 'eventwatch_connection_lease_held_here', { connection_id: id }), server.label).toBe(lease.pid === server.pid ? 1 : 0)
      }
      expect(valueOf(metrics, 'eventwatch_job_lease', { job: 'retention', holder: split.get('job:retention')!.holder }), server.label).toBe(1)
    }
    // Y paused through the server that does not hold it: it says so at once, and Y's holder pauses
    // it at its next read of the team's rows; both say the same.
    const yHolder = holderOf('y')
    const yOther = yHolder === a ? b : a
    const answered = await ask<Status>(yOther, 'setPaused', { paused: true, connectionId: 'y' })
    expect(answered.connections.find((c) => c.connectionId === 'y')?.state).toBe('paused')
    await eventually(
      'y paused on both servers',
      async () => [await statusOf(yHolder, 'y'), await statusOf(yOther, 'y')],
      ([mine, theirs]) => mine?.state === 'paused' && JSON.stringify(mine) === JSON.stringify(theirs)
    )
    // A refresh of one session of X asked of the other server is run by X's holder (poll_requests),
    // whose error — X's service failing — the other answers, naming the holder.
    await expect(ask(other, 'refreshSession', { connectionId: 'x', eventSessionId: sims.x!.world.sessions[0]!.eventSessionId })).rejects.toThrow(
      new RegExp(`${split.get('connection:x')!.holder} could not refresh a session of Tenant X: .*503`)
    )
  }, 240_000)

  it('hand a killed server’s connection and jobs to the other within the lease; a clean stop releases everything at once', async () => {
    const sims = await simulators('x')
    const team = await Team.open(sims)
    const a = await serve('A', team.database.url, 1)
    const first = await team.lease('connection:x', (l) => l?.live === true && l.pid === a.pid)
    await eventually('A polls x', () => statusOf(a, 'x'), (c) => c?.state === 'connected')
    const b = await serve('B', team.database.url, 1)
    await eventually('B shows x as A polls it', () => statusOf(b, 'x'), (c) => c?.state === 'connected')
    // A run A leaves open when it dies (as a pass cut off by the kill would).
    const { rows } = await team.sql.query<{ id: number }>("INSERT INTO sync_runs (connection_id, started_at, kind) VALUES ('x', $1, 'discovery') RETURNING id::int AS id", [Date.now()])
    const leftOpen = rows[0]!.id

    const killed = Date.now()
    process.kill(a.pid, 'SIGKILL')
    const taken = await team.lease('connection:x', (l) => l?.pid === b.pid && l.live, TAKEOVER_WITHIN_MS)
    expect(taken.fence).toBe(first.fence + 1)
    console.log(`takeover after SIGKILL: ${Date.now() - killed} ms (leases of ${LEASE_SECONDS} s)`)
    // B polls it now, and the run A left open is stopped in B's words.
    await eventually('B polls x', () => statusOf(b, 'x'), polledSince(killed))
    const snapshots = await team.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM snapshots WHERE connection_id = $1 AND taken_at > $2', ['x', killed])
    expect(snapshots.rows[0]!.n).toBeGreaterThan(0)
    const run = await team.sql.query('SELECT outcome, error FROM sync_runs WHERE id = $1', [leftOpen])
    expect(run.rows[0]).toEqual({ outcome: 'stopped', error: `its server stopped or stalled before finishing it; ${taken.holder} took connection:x over (fence 1 → 2)` })
    const unfinished = await team.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM sync_runs WHERE connection_id = $1 AND started_at < $2 AND finished_at IS NULL', ['x', killed])
    expect(unfinished.rows[0]!.n).toBe(0)
    // The jobs A ran (it started first) are B's now, said in its log; the takeovers counted.
    for (const job of ['retention', 'repeats']) await team.lease(`job:${job}`, (l) => l?.pid === b.pid && l.live && l.fence === 2, TAKEOVER_WITHIN_MS)
    expect(b.cli.output().stderr).toContain("this server runs the team's retention job (lease fence 2)")
    const metrics = await scrape(b)
    expect(valueOf(metrics, 'eventwatch_lease_takeovers_total', { lease: 'connection:x' })).toBe(1)
    expect(valueOf(metrics, 'eventwatch_lease_takeovers_total', { lease: 'job:retention' })).toBe(1)

    // A clean stop: every lease released and the heartbeat gone as the process ends, not when
    // the leases run out.
    const stopped = await b.cli.stop()
    expect(stopped.code).toBe(0)
    const left = [...(await team.leases()).values()].filter((l) => l.pid === b.pid)
    expect(left.map((l) => [l.name, l.live])).toEqual([
      ['connection:x', false],
      ['job:repeats', false],
      ['job:retention', false]
    ])
    expect((await team.sql.query('SELECT holder FROM lease_holders')).rows).toEqual([])
  }, 240_000)

  it('a holder frozen past its lease writes nothing when it wakes, and gives its connection up', async () => {
    const sims = await simulators('x')
    const team = await Team.open(sims)
    // Every row the poller's tables gained, changed or lost, with the application_name of its writer.
    await team.logWrites(POLLED_TABLES)
    const a = await serve('A', team.database.url, 1)
    await team.lease('connection:x', (l) => l?.live === true && l.pid === a.pid)
    await eventually('A polls x', () => statusOf(a, 'x'), (c) => c?.state === 'connected')
    const b = await serve('B', team.database.url, 1)
    await eventually('B shows x as A polls it', () => statusOf(b, 'x'), (c) => c?.state === 'connected')

    const frozen = Date.now()
    process.kill(a.pid, 'SIGSTOP')
    const taken = await team.lease('connection:x', (l) => l?.pid === b.pid && l.live, TAKEOVER_WITHIN_MS)
    expect(taken.fence).toBe(2)
    await eventually('B polls x', () => statusOf(b, 'x'), polledSince(frozen))
    process.kill(a.pid, 'SIGCONT')
    await eventually('A gives x up', async () => a.cli.output().stderr, (err) => err.includes('gave up connection x:'), 20_000)
    // Awake, A answers again and shows x as B polls it, from B's rows.
    await eventually('A shows x as B polls it', async () => [await statusOf(a, 'x'), await statusOf(b, 'x')], ([seen, truth]) => JSON.stringify(seen) === JSON.stringify(truth))
    const metrics = await scrape(a)
    expect(valueOf(metrics, 'eventwatch_connection_lease_held_here', { connection_id: 'x' })).toBe(0)
    expect(valueOf(metrics, 'eventwatch_connection_lease', { connection_id: 'x', holder: taken.holder })).toBe(1)
    // A few of A's renewal periods more, for any late write to land.
    await new Promise((resolve) => setTimeout(resolve, 3 * (LEASE_SECONDS / 3) * 1000))

    // The log works: A wrote while it held x, B since it took x over.
    expect(await team.tablesWrittenBy(a.pid)).toEqual(expect.arrayContaining(['poller_status', 'snapshots', 'sync_runs']))
    expect(await team.tablesWrittenBy(b.pid, taken.acquiredAt)).toEqual(expect.arrayContaining(['poller_status', 'snapshots', 'sync_runs']))
    // Since B took x over, A wrote nothing of it: what it had in hand when it froze, and all it
    // tried on waking, was refused by the fence and rolled back.
    expect(await team.tablesWrittenBy(a.pid, taken.acquiredAt)).toEqual([])
    expect((await team.leases()).get('connection:x')).toMatchObject({ holder: taken.holder, fence: 2, live: true })
  }, 240_000)
})
