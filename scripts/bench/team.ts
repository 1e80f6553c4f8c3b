// Part 10: a team on PostgreSQL (issue 26), on a throwaway cluster this part starts and removes
// (test/support/postgres.ts; durable commits, commit timestamps kept):
//   1. ingest: 20 × 5,000 viewers through the PostgreSQL viewer writer (COPY) against the same
//      pages through SQLite's (pg-ingest.ts);
//   2. push lag: two `eventwatch serve` processes on one database, 100 live sessions polled by one,
//      200 event streams open on the other: from the commit of a poll's unit on the holder, and of
//      an operator's action through the holder's HTTP API, to the push carrying it on the other's
//      streams (event-streams.ts);
//   3. takeover: the holder killed with SIGKILL at the default lease, to the other's first poll.
// Without PostgreSQL 15+ the part says it is skipped and why.
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { AlertsPage } from '../../src/shared/alerts'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { ensureRendererBuilt } from '../../src/main/cli/renderer-build'
import { postgresBin, startPostgres, type PostgresCluster } from '../../test/support/postgres'
import { valueOf } from '../../test/support/exposition'
import { ask, eventually, scrape, statusOf } from '../../test/support/serve-requests'
import { EventStreams } from './event-streams'
import { bundleCli } from './ingest'
import { DURABLE, pgWriterRun, sqliteWriterRun, type Run } from './pg-ingest'
import { int, log, median, ms, percentile, type Figure } from './stats'
import { parsedLists } from './store'
import { serve, type ServeProcess } from './serve-process'

const PART = '10 team'
const ROUNDS = 3
const LIVE_SESSIONS = 100
const STREAMS = 200
/** How long the pushes are watched: a detail poll of 100 sessions comes about every 25 s at the default cadences (10 s of requests at 10 a second, then 15 s). */
const WATCH_MS = 90_000
/** After the watch, how long a push of a unit committed in it may still take to arrive. */
const GRACE_MS = 10_000
/** How often the operator's action goes through A meanwhile. */
const ACTION_EVERY_MS = 2500
const CONNECTION = 'x'
const LAG_GOAL_MS = 1000
const TAKEOVER_GOAL_MS = 40_000

/** What the part started, undone last first, whatever happened. */
type Cleanups = (() => void | Promise<void>)[]

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ')
const seconds = (value: number): string => `${(value / 1000).toFixed(1)} s`

export async function benchTeam(): Promise<Figure[]> {
  try {
    postgresBin()
  } catch (error) {
    const why = (error as Error).message
    log(`team: skipped: ${why}`)
    return [{ part: PART, name: 'skipped (no PostgreSQL 15+)', value: 'n/a', goal: '(reference)', met: true }]
  }
  const cleanups: Cleanups = []
  const cleanUp = async (): Promise<void> => {
    for (const clean of cleanups.splice(0).reverse()) {
      try {
        await clean()
      } catch (error) {
        log(`team: cleaning up: ${(error as Error).message}`)
      }
    }
  }
  // Ctrl-C (or a TERM) mid-part: the servers and the cluster go with the bench.
  const interrupted = (signal: NodeJS.Signals): void => {
    log(`team: ${signal}: stopping the servers and the cluster`)
    void cleanUp().finally(() => process.exit(130))
  }
  process.once('SIGINT', interrupted)
  process.once('SIGTERM', interrupted)
  try {
    const cluster = await startPostgres({ ...DURABLE, track_commit_timestamp: 'on' })
    cleanups.push(() => cluster.stop())
    const admin = new pg.Pool({ connectionString: cluster.url(), max: 2 })
    cleanups.push(() => admin.end())
    log(`team: a throwaway PostgreSQL cluster (${postgresBin()}), durable commits; everything on this one machine`)
    const figures = await ingest(cluster, admin, cleanups)
    figures.push(...(await servers(cluster, admin, cleanups)))
    return figures
  } finally {
    await cleanUp()
    process.off('SIGINT', interrupted)
    process.off('SIGTERM', interrupted)
  }
}

async function ingest(cluster: PostgresCluster, admin: pg.Pool, cleanups: Cleanups): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-bench-team-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const now = Date.now()
  const lists = parsedLists({ sessions: 20, viewersPerSession: 5000, rounds: 1, seed: 20240611 }, now)
  const viewers = lists.reduce((n, l) => n + l.viewers.length, 0)
  log(`team: ingest of ${lists.length} lists, ${int(viewers)} viewers, pages of 500: PostgreSQL (pgViewerListStore, COPY) against SQLite (its viewer list store, in-thread), one warm-up each then ${ROUNDS} rounds alternating`)
  const postgres: Run[] = []
  const sqlite: Run[] = []
  for (let round = -1; round < ROUNDS; round++) {
    const p = await pgWriterRun(cluster.url(), admin, lists, now)
    const s = await sqliteWriterRun(admin, dir, round, lists, now)
    if (round < 0) continue
    postgres.push(p)
    sqlite.push(s)
    log(`team: round ${round + 1}/${ROUNDS}: PostgreSQL ${ms(p.ms)} (CPU ${ms(p.cpuMs)}, of it this process ${ms(p.ownCpuMs)}), SQLite ${ms(s.ms)} (CPU ${ms(s.cpuMs)})`)
  }
  const pgMs = median(postgres.map((r) => r.ms))
  const sqliteMs = median(sqlite.map((r) => r.ms))
  const cpuRatio = median(postgres.map((r) => r.cpuMs)) / median(sqlite.map((r) => r.cpuMs))
  const ratio = pgMs / sqliteMs
  log(`team: ingest medians: PostgreSQL ${ms(pgMs)}, SQLite ${ms(sqliteMs)}: ${ratio.toFixed(2)}× (CPU, this process and the database's: ${cpuRatio.toFixed(2)}×)`)
  return [
    { part: PART, name: 'ingest 20 × 5,000 viewers into PostgreSQL (COPY)', value: ms(pgMs), goal: '(reference)', met: true },
    { part: PART, name: 'the same into SQLite', value: ms(sqliteMs), goal: '(reference)', met: true },
    { part: PART, name: 'ingest PostgreSQL / SQLite', value: `${ratio.toFixed(2)}×`, goal: '≤ 1.5×', met: ratio <= 1.5 }
  ]
}

async function servers(cluster: PostgresCluster, admin: pg.Pool, cleanups: Cleanups): Promise<Figure[]> {
  bundleCli('team')
  ensureRendererBuilt()
  const sim = await startSimulator({
    seed: 20261126,
    liveSessions: LIVE_SESSIONS,
    endedSessions: 0,
    viewersPerSession: 50,
    churnSessions: false,
    randomIncidents: false
  })
  cleanups.push(() => sim.close())
  await admin.query('CREATE DATABASE team')
  const url = cluster.url('team')
  await saveConnection(url, sim)
  const sql = new pg.Client({ connectionString: url })
  await sql.connect()
  cleanups.push(() => sql.end())

  // A first, so it holds the connection; then B, which holds nothing of it.
  const a = await serve('A', url, sim.credentials.clientSecret)
  cleanups.push(() => a.stop(true))
  await eventually('A holds the connection', () => holderPid(sql), (pid) => pid === a.pid, 60_000)
  await eventually('A polls the connection', () => statusOf(a, CONNECTION), (c) => c?.state === 'connected', 60_000)
  const b = await serve('B', url, sim.credentials.clientSecret)
  cleanups.push(() => b.stop())
  await eventually('B shows the connection as A polls it', () => statusOf(b, CONNECTION), (c) => c?.state === 'connected', 60_000)
  log(`team: two \`eventwatch serve\` processes on this one machine, one database; A (pid ${a.pid}) holds the connection to a simulator of ${LIVE_SESSIONS} live sessions (default cadences: details every 15 s), B (pid ${b.pid}) does not`)

  const lag = await pushLag(sql, a, b)
  const takeover = await takeoverTime(sql, a, b)
  return [...lag, ...takeover]
}

/** The simulator saved as the team's one connection, the schema migrated, as `connections add` would. */
async function saveConnection(url: string, sim: RunningSimulator): Promise<void> {
  const store = await openPgStore(url)
  try {
    const c = sim.credentials
    const row = { id: CONNECTION, name: 'Bench tenant', baseUrl: sim.baseUrl, authUrl: sim.authUrl, platformId: c.platformId, tenantId: c.tenantId, clientId: c.clientId, isDemo: false }
    await store.withTransaction((tx) => tx.connections.upsert(row, Date.now()))
  } finally {
    await store.close()
  }
}

/** The pid of the live holder of the connection's lease (holders are host:pid:boot-uuid). */
async function holderPid(sql: pg.Client): Promise<number | undefined> {
  const { rows } = await sql.query<{ holder: string }>("SELECT holder FROM leases WHERE name = $1 AND expires_at > now()", [`connection:${CONNECTION}`])
  const match = /:(\d+):[^:]+$/.exec(rows[0]?.holder ?? '')
  return match ? Number(match[1]) : undefined
}

interface Committed {
  session: string
  takenAt: number
  /** The transaction that stored it, and when it committed (ms since epoch). */
  xid: string
  committedAt: number
}

/** One operator action through A: the pause it set, and when its unit committed. */
interface Action {
  until: string
  committedAt: number
}

/** Lags in ms, a lost push counted as never arriving. */
interface Lags {
  lags: number[]
  lost: number
}

async function pushLag(sql: pg.Client, a: ServeProcess, b: ServeProcess): Promise<Figure[]> {
  const streams = await EventStreams.open(b.origin, b.token, STREAMS)
  try {
    const open = Date.now()
    const counted = valueOf(await scrape(b), 'eventwatch_event_streams_open')
    log(
      `team: ${STREAMS} event streams open on B (its /metrics: ${counted} open); watching for ${WATCH_MS / 1000} s, then ${GRACE_MS / 1000} s more for late pushes; ` +
        `meanwhile an operator pauses notifications through A's HTTP API every ${ACTION_EVERY_MS / 1000} s`
    )
    const actions = await operatorActions(sql, a, open + WATCH_MS)
    const watched = Date.now()
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS))
    log(`team: pushes received on B's streams, all together: ${[...streams.pushes].map(([name, n]) => `${n} ${name}`).join(', ')}`)
    const polls = pollLags(await committedSnapshots(sql, open, watched), streams)
    const paused = actionLags(actions, streams)
    return [
      ...lagFigures(
        'poll',
        polls,
        "from the commit of A's unit of work that stored a detail poll's snapshots (100 in one transaction; PostgreSQL's commit timestamp) " +
          'to the sessionsChanged push carrying the last of them (or a newer snapshot of the same session) arriving on each of B\'s streams',
        `${polls.units} units of A's detail polls committed in the watch`
      ),
      ...lagFigures(
        'action',
        paused,
        "from the commit of an operator's pauseNotifications through A's HTTP API (the notification_pause row's transaction; PostgreSQL's commit timestamp) " +
          "to the alertsChanged push saying that pause arriving on each of B's streams",
        `${actions.length} pauses through A`
      )
    ]
  } finally {
    streams.close()
  }
}

/** Every `ACTION_EVERY_MS` until `until`: a notification pause through A, and its unit's commit. */
async function operatorActions(sql: pg.Client, a: ServeProcess, until: number): Promise<Action[]> {
  const actions: Action[] = []
  for (let minutes = 60; Date.now() < until; minutes++) {
    const page = await ask<AlertsPage>(a, 'pauseNotifications', { minutes })
    // Read before the next pause rewrites the row: when the unit that wrote this one committed.
    const { rows } = await sql.query<{ until: string; committedAt: number }>(
      'SELECT until::float8 AS until, (extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000)::float8 AS "committedAt" FROM notification_pause'
    )
    const said = page.situation.notificationsPausedUntil
    if (said === null || rows[0] === undefined || Date.parse(said) !== Number(rows[0].until)) {
      throw new Error(`pauseNotifications through A answered a pause until ${said}, but the database holds ${rows[0]?.until ?? 'none'}`)
    }
    actions.push({ until: said, committedAt: rows[0].committedAt })
    await new Promise((resolve) => setTimeout(resolve, ACTION_EVERY_MS))
  }
  await ask(a, 'pauseNotifications', { minutes: 0 })
  return actions
}

/** Every snapshot of the connection committed between `from` and `to`, with its commit's time. */
async function committedSnapshots(sql: pg.Client, from: number, to: number): Promise<Map<string, Committed[]>> {
  const { rows } = await sql.query<Committed>(
    `SELECT event_session_id AS session, taken_at::float8 AS "takenAt", xmin::text AS xid,
            (extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000)::float8 AS "committedAt"
       FROM snapshots WHERE connection_id = $1 AND taken_at >= $2`,
    [CONNECTION, from - 60_000]
  )
  const units = new Map<string, Committed[]>()
  for (const row of rows) if (row.committedAt >= from && row.committedAt <= to) units.set(row.xid, [...(units.get(row.xid) ?? []), row])
  return units
}

/** One sample per unit and stream: when the stream had every snapshot of the unit (or a newer one
 *  of the same session), from the unit's commit. */
function pollLags(units: Map<string, Committed[]>, streams: EventStreams): Lags & { units: number } {
  const result = { lags: [] as number[], lost: 0, units: units.size }
  const spans: string[] = []
  for (const snapshots of units.values()) {
    const lags: number[] = []
    for (let stream = 0; stream < streams.count; stream++) {
      let last = 0
      for (const s of snapshots) last = Math.max(last, streams.arrival(stream, CONNECTION, s.session, s.takenAt) ?? Number.POSITIVE_INFINITY)
      if (Number.isFinite(last)) lags.push(last - snapshots[0]!.committedAt)
      else result.lost++
    }
    result.lags.push(...lags)
    spans.push(lags.length ? `${ms(Math.min(...lags))}–${ms(Math.max(...lags))}` : 'never')
  }
  // Each unit's first and last stream: the wait before B pushes, and the fan-out to its streams.
  log(`team: push lag (poll), each unit from its first stream to its last: ${spans.join('; ')}`)
  return result
}

/** One sample per action and stream: when the stream had the pause, from the action's commit. */
function actionLags(actions: readonly Action[], streams: EventStreams): Lags {
  const result = { lags: [] as number[], lost: 0 }
  for (const action of actions) {
    for (let stream = 0; stream < streams.count; stream++) {
      const at = streams.pauseArrival(stream, action.until)
      if (at === undefined) result.lost++
      else result.lags.push(at - action.committedAt)
    }
  }
  return result
}

function lagFigures(kind: string, { lags, lost }: Lags, measured: string, commits: string): Figure[] {
  const all = [...lags, ...Array<number>(lost).fill(Number.POSITIVE_INFINITY)]
  if (all.length === 0) throw new Error(`push lag (${kind}): nothing was committed in ${WATCH_MS / 1000} s of watching: nothing to measure`)
  const [p50, p99, max] = [percentile(all, 50), percentile(all, 99), Math.max(...all)]
  const samples = `${all.length} samples: ${commits} × ${STREAMS} streams`
  log(`team: push lag (${kind}): ${measured}`)
  log(`team: push lag (${kind}): p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(max)}; ${samples}${lost ? `; ${lost} never arrived within ${GRACE_MS / 1000} s of the watch's end` : ''}`)
  const name = `push lag (${kind}) A's commit → B's streams`
  return [
    { part: PART, name: `${name}, p50`, value: ms(p50), goal: '(reference)', met: true },
    { part: PART, name: `${name}, max`, value: ms(max), goal: '(reference)', met: true },
    { part: PART, name: `${name}, p99`, value: ms(p99), goal: `≤ ${ms(LAG_GOAL_MS)}`, met: p99 <= LAG_GOAL_MS, note: `${all.length} samples` }
  ]
}

async function takeoverTime(sql: pg.Client, a: ServeProcess, b: ServeProcess): Promise<Figure[]> {
  log(`team: takeover: A killed with SIGKILL at the default lease (30 s, renewed every 10 s); one sample. Load average ${load()}`)
  const killed = Date.now()
  process.kill(a.pid, 'SIGKILL')
  let leaseAt: number | undefined
  let storedAt: number | undefined
  const polled = await eventually(
    "B's first poll of the connection",
    async () => {
      if (leaseAt === undefined && (await holderPid(sql)) === b.pid) leaseAt = Date.now()
      if (leaseAt !== undefined) storedAt ??= await firstCommitSince(sql, killed)
      return statusOf(b, CONNECTION)
    },
    (c) => c?.state === 'connected' && c.lastUpdateAt !== null && Date.parse(c.lastUpdateAt) >= killed,
    120_000
  )
  const seenAt = Date.now()
  const pollMs = Date.parse(polled!.lastUpdateAt!) - killed
  const after = (at: number | undefined): string => (at === undefined ? 'not seen' : seconds(at - killed))
  log(
    `team: takeover: B held the lease ${after(leaseAt)} after the kill (the leases table, read about every 100 ms); ` +
      `committed its first unit of the connection's data (the session list of its first pass) ${after(storedAt)} after; ` +
      `its status said its first poll had ended well (lastUpdateAt: a unit of work, here a full pass) ${seconds(pollMs)} after, seen by the bench after ${seconds(seenAt - killed)}`
  )
  // What B's first poll was: its run, as B recorded it.
  const { rows } = await sql.query<{ kind: string; startedAt: number; finishedAt: number | null; listed: number; snapshots: number; viewerLists: number }>(
    `SELECT kind, started_at::float8 AS "startedAt", finished_at::float8 AS "finishedAt", listed, snapshots, viewer_lists AS "viewerLists"
       FROM sync_runs WHERE connection_id = $1 AND started_at >= $2 ORDER BY started_at LIMIT 1`,
    [CONNECTION, killed]
  )
  const run = rows[0]
  if (run) {
    log(
      `team: takeover: B's first run (sync_runs): a ${run.kind} pass from ${after(run.startedAt)} to ${after(run.finishedAt ?? undefined)} after the kill: ` +
        `${run.listed} sessions listed, ${run.snapshots} snapshots, ${run.viewerLists} viewer lists (every request through the server's limit of 10 a second)`
    )
  }
  const reference = (name: string, at: number | undefined): Figure[] =>
    at === undefined ? [] : [{ part: PART, name, value: seconds(at - killed), goal: '(reference)', met: true }]
  return [
    ...reference('takeover: kill → B holds the lease', leaseAt),
    ...reference("takeover: kill → B's first unit committed", storedAt),
    {
      part: PART,
      name: "takeover: kill → B's first poll ended (its status)",
      value: seconds(pollMs),
      goal: `≤ ${TAKEOVER_GOAL_MS / 1000} s`,
      met: pollMs <= TAKEOVER_GOAL_MS,
      note: 'one sample, default lease'
    }
  ]
}

/** When the newest unit that wrote the connection's sessions committed, if after `since` (ms). */
async function firstCommitSince(sql: pg.Client, since: number): Promise<number | undefined> {
  const { rows } = await sql.query<{ at: number | null }>(
    'SELECT (extract(epoch FROM max(pg_xact_commit_timestamp(xmin))) * 1000)::float8 AS at FROM sessions WHERE connection_id = $1',
    [CONNECTION]
  )
  const at = rows[0]?.at ?? null
  return at !== null && at >= since ? at : undefined
}
