// A team that never loses its monitor (issue 26, "Done when"), end to end over loopback: two real
// `eventwatch serve` team servers on one PostgreSQL database, set up as an administrator would with
// the CLI (`connections add`, `users add alice`, `webhooks add --sign` on the postgres:// URL, the
// secrets sealed under EVENTWATCH_SECRET_KEY_FILE, no keychain anywhere), polling a real simulator,
// with 3-second leases. Nothing of the core is mocked; the test reads the database with `pg`.
//
// - Server A holds the connection; killed with SIGKILL, B takes it over within the lease, fires the
//   alert when the session falls, and the webhook receives each firing once (one Idempotency-Key),
//   also after A is back; alice acknowledges through A, and an event stream open on B shows it
//   within a second of A's answer; every session the simulator served is in the database.
// - PostgreSQL restarted under both servers (a cluster of this test's own, as the run's shared one
//   serves other files meanwhile): both say not ready, and why, while it is down; ready again, not
//   restarted, once it is back; polling resumes and nothing is lost (a session started and an
//   incident struck while it was down are stored and alerted after, the webhook delivers, every
//   alert and audit row from before is still there, pushes reach B's open stream again).
//
// A holder frozen with SIGSTOP past its lease, which wakes and writes nothing, is proved in
// store-postgres-servers.test.ts (its write log by trigger), not again here.
import { createHmac, randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import type { Alert, AlertsChanged } from '../../src/shared/alerts'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import { Cleanups, frozenSimulator } from '../support/app-core'
import { homeEnv, simulatorFlags } from '../support/cli'
import { runCli } from '../support/cli-processes'
import { addUserByCli, freePort } from '../support/cli-team'
import { valueOf } from '../support/exposition'
import { startPostgres } from '../support/postgres'
import { freshDatabase } from '../support/postgres-databases'
import { writeKeyFile } from '../support/secret-key-files'
import { openStream, type StreamedEvent } from '../support/team-server'
import { ask, eventually, LEASE_SECONDS, polledSince, scrape, startServer, statusOf, TAKEOVER_WITHIN_MS, TeamDatabase, type Server } from '../support/team-servers'
import { tempDirs } from '../support/temp-dirs'
import { webhookReceiver, type Received } from '../support/webhook-receiver'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())
const newDir = tempDirs('eventwatch-pg-team-e2e-')
/** The requirement of the issue: an acknowledgement shows on the other server's streams within a second. */
const PUSH_WITHIN_MS = 1000

/** No keychain reachable (no D-Bus session bus) and no secret in the environment: the database
 *  and the key file are all a server has. */
const noKeychain = (): NodeJS.ProcessEnv => ({
  ...homeEnv(newDir()),
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/eventwatch-test-bus',
  EVENTWATCH_CLIENT_SECRET: '',
  EVENTWATCH_CLIENT_SECRET_FILE: '',
  EVENTWATCH_WEBHOOK_SECRET: ''
})

interface Team {
  url: string
  sim: RunningSimulator
  db: TeamDatabase
  connectionId: string
  alice: string
  /** The webhook's signing secret, as its administrator typed it. */
  signing: string
  receiver: Awaited<ReturnType<typeof webhookReceiver>>
  /** A team server on the database, polling every second, alice's token to ask it with. */
  serve(label: string): Promise<Server>
}

/** The team's database at `url` set up with the CLI, as its administrator would. */
async function team(url: string): Promise<Team> {
  const sim = await frozenSimulator(cleanups, 'team')
  const receiver = await webhookReceiver()
  cleanups.add(() => receiver.close())
  const key = writeKeyFile(newDir())
  const admin = { ...noKeychain(), EVENTWATCH_SECRET_KEY_FILE: key }
  const signing = `signing-${randomUUID()}`
  for (const [args, env] of [
    [['connections', 'add', 'Town halls', ...simulatorFlags(sim)], { EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret }],
    [['webhooks', 'add', 'On call', '--url', receiver.url, '--sign'], { EVENTWATCH_WEBHOOK_SECRET: signing }]
  ] as const) {
    const run = await runCli([...args, '--db', url], { ...admin, ...env })
    expect(run.code, run.stderr).toBe(0)
  }
  const alice = await addUserByCli(url, 'alice', admin)
  const sql = new pg.Client({ connectionString: url })
  await sql.connect()
  // The restart scenario's client loses its connection on purpose: its error is no test's.
  sql.on('error', () => undefined)
  cleanups.add(() => sql.end().catch(() => undefined))
  const [{ id: connectionId }] = (await sql.query<{ id: string }>('SELECT id FROM connections WHERE NOT is_demo')).rows as [{ id: string }]
  const serve = async (label: string): Promise<Server> => {
    const args = ['serve', '--listen', `127.0.0.1:${await freePort()}`, '--db', url, '--interval', '1', '--lease-seconds', String(LEASE_SECONDS)]
    return startServer(cleanups, label, args, { ...noKeychain(), EVENTWATCH_SECRET_KEY_FILE: key }, alice)
  }
  return { url, sim, db: new TeamDatabase(sql), connectionId, alice, signing, receiver, serve }
}

/** An event stream on `server` as alice's page keeps one, closed after the test. */
async function streamOn(server: Server): Promise<StreamedEvent[]> {
  const stream = await openStream(fetch, `${server.origin}/api/events`, { Authorization: `Bearer ${server.token}` })
  cleanups.add(() => stream.close())
  return stream.events
}

const alertPushes = (events: StreamedEvent[]): (StreamedEvent & { data: AlertsChanged })[] =>
  events.filter((e): e is StreamedEvent & { data: AlertsChanged } => e.event === 'alertsChanged')

/** The first push on `events` of alert `id` acknowledged by `by`. */
const acknowledgementOn = (events: StreamedEvent[], id: number, by: string): StreamedEvent | undefined =>
  alertPushes(events).find((e) => e.data.changed.some((c) => c.id === id && c.state === 'acknowledged' && c.transitions.at(-1)?.by === by))

/** The alerts of the session fired so far, once its critical one has fired (two polls below). */
async function firedOn(server: Server, eventSessionId: string, timeoutMs = 60_000): Promise<Alert[]> {
  const alerts = await eventually(
    `the critical alert of ${eventSessionId} firing`,
    async () => (await ask<{ alerts: Alert[] }>(server, 'listAlerts', { limit: 50 })).alerts.filter((a) => a.eventSessionId === eventSessionId),
    (alerts) => alerts.some((a) => a.rule === 'reliability-below' && a.state === 'firing'),
    timeoutMs
  )
  return alerts.filter((a) => a.firedAt !== null)
}

/** The deliveries the receiver accepted under each key: each must be there, exactly once. */
async function deliveredOnce(receiver: Team['receiver'], keys: string[], timeoutMs = 30_000): Promise<Received[]> {
  const accepted = (): Received[] => receiver.received.filter((r) => r.status === 200)
  await eventually('every delivery accepted', async () => accepted().map((r) => r.key), (got) => keys.every((k) => got.includes(k)), timeoutMs)
  const counts = new Map<string, number>()
  for (const r of accepted()) counts.set(r.key, (counts.get(r.key) ?? 0) + 1)
  expect(Object.fromEntries(keys.map((k) => [k, counts.get(k)]))).toEqual(Object.fromEntries(keys.map((k) => [k, 1])))
  return keys.map((k) => accepted().find((r) => r.key === k)!)
}

/** Deliveries in the outbox neither delivered nor given up, and how many of them were tried. */
async function outbox(db: TeamDatabase): Promise<{ waiting: number; tried: number }> {
  const { rows } = await db.sql.query<{ waiting: number; tried: number }>(
    'SELECT count(*)::int AS waiting, (count(*) FILTER (WHERE attempts > 0))::int AS tried FROM webhook_outbox WHERE delivered_at IS NULL AND given_up_at IS NULL'
  )
  return rows[0]!
}

const firedKeys = (alerts: Alert[]): string[] => alerts.map((a) => `alert:${a.id}:fired`)

/** Signed with the secret the administrator gave: the servers opened it with the key file. */
const signedWith = (secret: string, r: Received): boolean => r.signature === `sha256=${createHmac('sha256', secret).update(`${r.timestamp}.${r.body}`).digest('hex')}`

/** Both servers' answers to GET /readyz. */
const readiness = (servers: Server[]): Promise<{ status: number; text: string }[]> =>
  Promise.all(servers.map(async (s) => fetch(`${s.origin}/readyz`).then(async (r) => ({ status: r.status, text: await r.text() }))))

async function sessionIdsStored(db: TeamDatabase, connectionId: string): Promise<string[]> {
  return (await db.sql.query<{ id: string }>('SELECT event_session_id AS id FROM sessions WHERE connection_id = $1 ORDER BY 1', [connectionId])).rows.map((r) => r.id)
}

/** Every row of `table` as PostgreSQL writes it in text, in the order of their ids. */
async function rowsOf(db: TeamDatabase, table: 'alerts' | 'audit_log' | 'alert_transitions'): Promise<string[]> {
  return (await db.sql.query<{ row: string }>(`SELECT t::text AS row FROM ${table} t ORDER BY id`)).rows.map((r) => r.row)
}

const alertIdsIn = async (db: TeamDatabase): Promise<number[]> => (await db.sql.query<{ id: number }>('SELECT id::int AS id FROM alerts ORDER BY id')).rows.map((r) => r.id)

const liveSessions = (sim: RunningSimulator): string[] => sim.world.sessions.filter((s) => !s.hasEnded).map((s) => s.eventSessionId)

describe('a team of two servers on PostgreSQL', () => {
  it('survives its polling server’s SIGKILL: the other takes over, alerts once, and shows alice’s acknowledgement within a second', async () => {
    const database = await freshDatabase()
    cleanups.add(() => database.drop())
    const { sim, db, connectionId, alice, signing, receiver, serve } = await team(database.url)
    // Who writes the alerts, by the application_name of each writer.
    await db.logWrites(['alerts'])
    const leaseName = `connection:${connectionId}`

    const a = await serve('A')
    const first = await db.lease(leaseName, (l) => l?.live === true && l.pid === a.pid)
    await eventually('A polls the connection', () => statusOf(a, connectionId), (c) => c?.state === 'connected')
    const onA = await scrape(a)
    expect(valueOf(onA, 'eventwatch_connection_lease_held_here', { connection_id: connectionId })).toBe(1)
    expect(valueOf(onA, 'eventwatch_connection_lease', { connection_id: connectionId, holder: first.holder })).toBe(1)

    const b = await serve('B')
    await eventually('B shows the connection as A polls it', () => statusOf(b, connectionId), (c) => c?.state === 'connected')
    expect(valueOf(await scrape(b), 'eventwatch_connection_lease_held_here', { connection_id: connectionId })).toBe(0)
    expect((await db.leases()).get(leaseName)).toMatchObject({ holder: first.holder, live: true })
    const streamOnB = await streamOn(b)

    const killed = Date.now()
    process.kill(a.pid, 'SIGKILL')
    const taken = await db.lease(leaseName, (l) => l?.pid === b.pid && l.live, TAKEOVER_WITHIN_MS)
    expect(taken.fence).toBe(first.fence + 1)
    console.log(`takeover after SIGKILL: ${Date.now() - killed} ms (leases of ${LEASE_SECONDS} s; bound ${TAKEOVER_WITHIN_MS} ms)`)
    await eventually('B polls the connection', () => statusOf(b, connectionId), polledSince(killed))
    const onB = await scrape(b)
    expect(valueOf(onB, 'eventwatch_connection_lease_held_here', { connection_id: connectionId })).toBe(1)
    expect(valueOf(onB, 'eventwatch_lease_takeovers_total', { lease: leaseName })).toBe(1)

    // The session falls: B fires its alerts (it alone writes them), and B's own stream hears them.
    const victim = liveSessions(sim)[0]!
    sim.faults.incident(victim, { drop: 40, minutes: 60 })
    const fired = await firedOn(b, victim)
    expect(fired.map((alert) => alert.rule).sort()).toEqual(['reliability-below', 'reliability-falling'])
    expect(await db.tablesWrittenBy(b.pid, taken.acquiredAt)).toContain('alerts')
    await eventually('B’s stream hears the firings', async () => alertPushes(streamOnB).flatMap((e) => e.data.fired.map((f) => f.id)), (ids) => fired.every((f) => ids.includes(f.id)))
    // The webhook receives each firing once, not once per server.
    const deliveries = await deliveredOnce(receiver, firedKeys(fired))
    expect(deliveries.map((d) => [d.event, d.status, signedWith(signing, d)])).toEqual(fired.map(() => ['fired', 200, true]))

    // A comes back, and alice acknowledges the critical one through A.
    const a2 = await serve('A again')
    await eventually('A again shows the connection as B polls it', () => statusOf(a2, connectionId), (c) => c?.state === 'connected')
    const onA2 = await scrape(a2)
    expect(valueOf(onA2, 'eventwatch_connection_lease_held_here', { connection_id: connectionId })).toBe(0)
    expect(valueOf(onA2, 'eventwatch_connection_lease', { connection_id: connectionId, holder: taken.holder })).toBe(1)
    const critical = fired.find((alert) => alert.rule === 'reliability-below')!
    const askedAt = Date.now()
    const page = await ask<{ alerts: Alert[] }>(a2, 'acknowledgeAlert', { id: critical.id, note: 'on it' }, alice)
    const answeredAt = Date.now()
    const acked = page.alerts.find((alert) => alert.id === critical.id)!
    expect(acked).toMatchObject({ state: 'acknowledged' })
    const shown = await eventually('the acknowledgement on B’s stream', async () => acknowledgementOn(streamOnB, critical.id, 'alice'), (push) => push !== undefined, 10_000)
    const lag = shown!.at - answeredAt
    console.log(`acknowledgement through A on B's stream ${lag} ms after A's answer (${shown!.at - askedAt} ms after it was asked; A answered in ${answeredAt - askedAt} ms)`)
    expect(lag, 'ms from A’s answer to the acknowledgement on B’s stream').toBeLessThanOrEqual(PUSH_WITHIN_MS)

    // The acknowledgement goes out once too; and with A back, no firing went out again.
    const [ackDelivery] = await deliveredOnce(receiver, [`alert:${critical.id}:acknowledged:${acked.transitions.at(-1)!.at}`])
    expect(JSON.parse(ackDelivery!.body)).toMatchObject({ event: 'acknowledged', by: 'alice', note: 'on it' })
    await eventually('the outbox empty', async () => valueOf(await scrape(a2), 'eventwatch_webhook_outbox_depth', {}), (depth) => depth === 0)
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_SECONDS * 1000))
    await deliveredOnce(receiver, firedKeys(fired))
    expect(new Set(receiver.received.map((r) => r.key)).size).toBe(receiver.received.length)

    // Every session the simulator served is in the database.
    expect(await sessionIdsStored(db, connectionId)).toEqual(expect.arrayContaining(sim.world.sessions.map((s) => s.eventSessionId)))
  }, 300_000)

  it('rides out a PostgreSQL restart: not ready while it is down, ready again by itself, and nothing lost', async () => {
    // A cluster of this test's own: the run's shared one serves other test files meanwhile.
    const cluster = await startPostgres()
    cleanups.add(() => cluster.stop())
    const admin = new pg.Client({ connectionString: cluster.url() })
    await admin.connect()
    await admin.query('CREATE DATABASE team')
    await admin.end()
    const { sim, db, connectionId, alice, receiver, serve } = await team(cluster.url('team'))
    const a = await serve('A')
    await db.lease(`connection:${connectionId}`, (l) => l?.live === true && l.pid === a.pid)
    const b = await serve('B')
    for (const server of [a, b]) await eventually(`${server.label} shows the connection connected`, () => statusOf(server, connectionId), (c) => c?.state === 'connected')
    const streamOnB = await streamOn(b)

    // Before: an alert fired, and acknowledged by alice (an audit row). The receiver refuses the
    // first delivery (503): it is retried 10 s later, so the outbox has it waiting, tried, over the restart.
    receiver.answer(503)
    const [before, during] = liveSessions(sim) as [string, string]
    sim.faults.incident(before, { drop: 40, minutes: 60 })
    const firedBefore = await firedOn(a, before)
    const ackedBefore = await ask<{ alerts: Alert[] }>(b, 'acknowledgeAlert', { id: firedBefore.find((x) => x.rule === 'reliability-below')!.id }, alice)
    const waitingBefore = await eventually('the refused delivery waiting to be tried again', () => outbox(db), (o) => o.tried === 1)
    expect(receiver.received.map((r) => r.status)).toEqual([503])
    const keysBefore = [
      ...firedKeys(firedBefore),
      ...ackedBefore.alerts.filter((x) => x.state === 'acknowledged').map((x) => `alert:${x.id}:acknowledged:${x.transitions.at(-1)!.at}`)
    ]
    expect(waitingBefore.waiting).toBe(keysBefore.length)
    const audit = await rowsOf(db, 'audit_log')
    const alertIds = await alertIdsIn(db)
    const transitions = await rowsOf(db, 'alert_transitions')
    expect(audit.some((row) => row.includes('alice'))).toBe(true)
    await db.sql.end()

    // Down. Meanwhile the service goes on: a session starts, another session falls.
    const listings = (): number => sim.stats.requests['GET /v1/events/sessions'] ?? 0
    const down = Date.now()
    cluster.shutDown()
    await eventually('both servers not ready', () => readiness([a, b]), (answers) => answers.every((r) => r.status !== 200), 20_000)
    const started = sim.world.addCrowdSession(40).eventSessionId
    sim.faults.incident(during, { drop: 40, minutes: 60 })
    const listedBefore = listings()
    // An acknowledgement asked for meanwhile is refused, and says why.
    await expect(ask(b, 'acknowledgeAlert', { id: firedBefore.find((x) => x.rule === 'reliability-falling')!.id }, alice)).rejects.toThrow(
      /cannot reach the PostgreSQL server .*\(ECONNREFUSED\)/
    )
    // Down past the lease: every lease has run out when it comes back.
    await new Promise((resolve) => setTimeout(resolve, (LEASE_SECONDS + 1) * 1000))
    const notReady = await readiness([a, b])
    console.log(`while PostgreSQL is down, /readyz: ${notReady.map((r) => `${r.status} ${r.text.trim()}`).join(' | ')}`)
    for (const answer of notReady) {
      expect(answer.status).toBe(503)
      expect(answer.text).toMatch(/^not ready: the database cannot be read: cannot reach the PostgreSQL server of the team's database \(ECONNREFUSED\): .+\n$/)
    }
    const listedWhileDown = listings() - listedBefore
    cluster.startAgain()
    const back = Date.now()
    console.log(`PostgreSQL down for ${back - down} ms; the service listed its sessions ${listedWhileDown} times meanwhile`)

    // Ready again, the same processes.
    await eventually('both servers ready again', () => readiness([a, b]), (answers) => answers.every((r) => r.status === 200), 30_000)
    for (const server of [a, b]) expect([server.cli.child.exitCode, server.cli.child.signalCode]).toEqual([null, null])
    const sql = new pg.Client({ connectionString: cluster.url('team') })
    await sql.connect()
    cleanups.add(() => sql.end())
    const after = new TeamDatabase(sql)
    // Polling resumes: the connection held and polled, both servers say so.
    await after.lease(`connection:${connectionId}`, (l) => l?.live === true && [a.pid, b.pid].includes(l.pid), TAKEOVER_WITHIN_MS)
    for (const server of [a, b]) await eventually(`${server.label} shows the connection polled since`, () => statusOf(server, connectionId), polledSince(back), 60_000)

    // Nothing lost: the session started while down is stored, the fall alerted and delivered
    // once, pushed to the stream B had open, and what was there before is still there.
    await eventually('the session started while down stored', () => sessionIdsStored(after, connectionId), (ids) => ids.includes(started), 30_000)
    const firedDuring = await firedOn(b, during)
    // The outbox delivers: what waited over the restart, then the firings since, each once.
    await deliveredOnce(receiver, [...keysBefore, ...firedKeys(firedDuring)], 60_000)
    await eventually('B’s stream hears the fall', async () => alertPushes(streamOnB).flatMap((e) => e.data.fired.map((f) => f.id)), (ids) => firedDuring.every((f) => ids.includes(f.id)))
    expect((await rowsOf(after, 'audit_log')).slice(0, audit.length)).toEqual(audit)
    expect((await rowsOf(after, 'alert_transitions')).slice(0, transitions.length)).toEqual(transitions)
    expect(await alertIdsIn(after)).toEqual(expect.arrayContaining([...alertIds, ...firedDuring.map((x) => x.id)]))
    // …and a change through A after it is recorded, and reaches B's stream from the database.
    const critical = firedDuring.find((x) => x.rule === 'reliability-below')!
    await ask(a, 'acknowledgeAlert', { id: critical.id }, alice)
    expect((await rowsOf(after, 'audit_log')).length).toBe(audit.length + 1)
    await eventually('the acknowledgement through A on B’s stream', async () => acknowledgementOn(streamOnB, critical.id, 'alice'), (push) => push !== undefined, 10_000)
    expect(await sessionIdsStored(after, connectionId)).toEqual(expect.arrayContaining(sim.world.sessions.map((s) => s.eventSessionId)))
    await eventually('the outbox drained', () => outbox(after), (o) => o.waiting === 0)
  }, 300_000)
})
