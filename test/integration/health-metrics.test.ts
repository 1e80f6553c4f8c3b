// Health and metrics on every server (issue 26; docs/health-and-metrics.md): GET /healthz and
// GET /readyz answer a load balancer without a token, on the team server and the loopback host
// alike, and nothing else does; GET /metrics, for a signed-in user (any role) or the loopback
// host's token, says in the Prometheus text format what this process measured. The real core on a
// real SQLite file polls the simulator over loopback (its fault modes make the errors), a real
// webhook receiver hangs, a real event stream stays open, all over real HTTP(S).
import Database from 'better-sqlite3'
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ReportingClient } from '../../src/main/core/api/client'
import type { ConnectionTarget } from '../../src/main/core/api/connection'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase } from '../../src/main/core/store/db'
import { latestSchema } from '../../src/main/core/store/migrate'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import { Cleanups, frozenSimulator } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'
import { addUser, openStream, startTeamHost, stubRenderer, throwawayCertificate, trustingFetch } from '../support/team-server'
import { webhookReceiver } from '../support/webhook-receiver'
import { parseExposition, valueOf, type Parsed } from '../support/exposition'

/** A connection name as a careless or hostile administrator might type it: quotes, a backslash,
 *  a line break, and what would be a metric line of its own if it were not escaped. */
const HOSTILE = 'Contoso "East" \\ branch\neventwatch_fake_metric{connection_id="x"} 1'

const cleanups = new Cleanups()
afterAll(() => cleanups.runAll())
const tempDir = tempDirs('eventwatch-health-')

/** Secrets in memory: this test keeps none of its own (an unsigned webhook on a plain URL). */
function memorySecrets(): SecretStore {
  const kept = new Map<string, string>()
  return {
    save: async (account, secret) => void kept.set(account, secret),
    read: async (account) => kept.get(account) ?? null,
    remove: async (account) => kept.delete(account)
  }
}

// --- the stage: a team server and a loopback host on one polling core -------------------------

let sim: RunningSimulator
let core: AppCore
let team: WebHost
let local: WebHost
let fetcher: ReturnType<typeof trustingFetch>
let viewerToken: string
let target: ConnectionTarget

beforeAll(async () => {
  const dir = tempDir()
  const dbFile = join(dir, 'server.db')
  const tls = throwawayCertificate(dir)
  const rendererDir = stubRenderer(dir)
  sim = await frozenSimulator(cleanups, 'health')
  target = { id: 'c1', name: HOSTILE, baseUrl: sim.baseUrl, authUrl: sim.authUrl, platformId: sim.credentials.platformId, tenantId: sim.credentials.tenantId, clientId: sim.credentials.clientId }
  const setup = openDatabase(dbFile)
  upsertConnection(setup, { ...target, isDemo: false })
  setup.close()
  viewerToken = await addUser(dbFile, 'val', 'viewer')
  // Polls when the test asks (refreshNow), not behind its back; one attempt per request, so a
  // failure the simulator is told to make is the poll's failure.
  const client = new ReportingClient(target, async () => sim.credentials, { retry: { sleep: async () => undefined, maxAttempts: 1 } })
  core = await startAppCore({
    db: dbFile,
    secrets: memorySecrets(),
    cadences: { discoveryMs: 3_600_000, detailMs: 3_600_000, viewersMs: 3_600_000 },
    sources: async () => [{ target, client, lookbackDays: 1, isDemo: false, close: async () => undefined }]
  })
  cleanups.add(() => core.close())
  team = await startTeamHost(core, tls, rendererDir)
  cleanups.add(() => team.close())
  local = await startWebHost({ core, rendererDir, port: 0 })
  cleanups.add(() => local.close())
  fetcher = trustingFetch(tls.caFile)
}, 60_000)

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` })

async function scrape(): Promise<Parsed> {
  const response = await fetcher(`${team.origin}/metrics`, { headers: bearer(viewerToken) })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  return parseExposition(await response.text())
}

async function refresh(): Promise<void> {
  const result = await core.dispatch('refreshNow', {})
  expect(result.ok).toBe(true)
}

const polls = (p: Parsed, kind = 'discovery'): number => valueOf(p, 'eventwatch_polls_total', { connection_id: 'c1', kind }) ?? 0
const errors = (p: Parsed, kind = 'discovery'): number => valueOf(p, 'eventwatch_poll_errors_total', { connection_id: 'c1', kind }) ?? 0

describe('probes without a token', () => {
  it('/healthz and /readyz answer anyone, on the team server and on the loopback host', async () => {
    for (const [origin, get] of [
      [team.origin, fetcher],
      [local.origin, fetch]
    ] as const) {
      const health = await get(`${origin}/healthz`)
      expect(health.status).toBe(200)
      expect(health.headers.get('cache-control')).toBe('no-store')
      expect(await health.text()).toBe('ok\n')
      const ready = await get(`${origin}/readyz`)
      expect(ready.status).toBe(200)
      expect(await ready.text()).toBe(`ready: schema ${latestSchema()}\n`)
      const head = await get(`${origin}/readyz`, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(await head.text()).toBe('')
    }
  })

  it('lets nothing else in without a token: of every route, the two probes alone answer; their look-alikes are refused', async () => {
    const routes: { path: string; method?: string; body?: string; open?: true }[] = [
      { path: '/healthz', open: true },
      { path: '/readyz', open: true },
      { path: '/readyz?full=1', open: true },
      { path: '/' },
      { path: '/index.html' },
      { path: '/metrics' },
      { path: '/metrics?format=json' },
      { path: '/api/events' },
      { path: '/api/request/getStatus', method: 'POST', body: '{}' },
      { path: '/api/request/listAlerts', method: 'POST', body: '{}' },
      { path: '/healthz/' },
      { path: '/HEALTHZ' },
      { path: '/readyz/metrics' },
      { path: '/readyz.html' },
      { path: '/healthz%2F..%2Fmetrics' },
      { path: '/healthz', method: 'POST', body: '{}' },
      { path: '/readyz', method: 'DELETE' }
    ]
    for (const [origin, get] of [
      [team.origin, fetcher],
      [local.origin, fetch]
    ] as const) {
      for (const route of routes) {
        const response = await get(`${origin}${route.path}`, {
          method: route.method ?? 'GET',
          redirect: 'manual',
          ...(route.body ? { body: route.body, headers: { 'Content-Type': 'application/json' } } : {})
        })
        const text = await response.text()
        const what = `${route.method ?? 'GET'} ${origin}${route.path}: ${response.status} ${text.slice(0, 120)}`
        if (route.open) {
          expect(response.status, what).toBe(200)
          expect(text, what).toMatch(/^(ok|ready: schema \d+)\n$/)
          continue
        }
        // Refused: asked to sign in (401, or the sign-in page's redirect), never answered.
        expect([401, 303], what).toContain(response.status)
        if (response.status === 303) expect(response.headers.get('location'), what).toBe('/signin')
        expect(text, what).not.toMatch(/eventwatch_|ready|"ok":true/)
      }
    }
  })
})

describe('/metrics', () => {
  it('is refused without a token or with a wrong one, and answered to any signed-in user and to the loopback host’s token', async () => {
    for (const headers of [{}, bearer('ewu_not-a-real-token')]) {
      const refused = await fetcher(`${team.origin}/metrics`, { headers, redirect: 'manual' })
      expect(refused.status).toBe(401)
      expect(await refused.text()).not.toContain('eventwatch_')
    }
    const localRefused = await fetch(`${local.origin}/metrics`, { headers: bearer('not-this-launch') })
    expect(localRefused.status).toBe(401)
    const localOk = await fetch(`${local.origin}/metrics`, { headers: bearer(local.token) })
    expect(localOk.status).toBe(200)
    expect(parseExposition(await localOk.text()).types.get('eventwatch_polls_total')).toBe('counter')
    // A viewer, the least role, reads them.
    expect((await scrape()).types.get('eventwatch_webhook_outbox_depth')).toBe('gauge')
  })

  it('counts the polls of each connection as they happen, and their errors when the simulator fails', async () => {
    const before = await scrape()
    // One pass after another (a refresh asked during a pass joins it).
    for (const n of [1, 2]) {
      await refresh()
      await vi.waitFor(async () => expect(polls(await scrape())).toBeGreaterThanOrEqual(polls(before) + n), { timeout: 15_000, interval: 50 })
    }
    const ok = await scrape()
    expect(errors(ok)).toBe(errors(before))
    expect(valueOf(ok, 'eventwatch_connection_state', { connection_id: 'c1', state: 'connected' })).toBe(1)

    sim.faults.serverErrors(1000, [503])
    await refresh()
    await vi.waitFor(async () => expect(errors(await scrape())).toBeGreaterThan(errors(ok)), { timeout: 15_000, interval: 50 })
    const failing = await scrape()
    expect(polls(failing)).toBeGreaterThan(polls(ok))
    expect(valueOf(failing, 'eventwatch_connection_state', { connection_id: 'c1', state: 'offline' })).toBe(1)
    expect(valueOf(failing, 'eventwatch_connection_state', { connection_id: 'c1', state: 'connected' })).toBe(0)

    sim.faults.reset()
    await refresh()
    await vi.waitFor(async () => expect(valueOf(await scrape(), 'eventwatch_connection_state', { connection_id: 'c1', state: 'connected' })).toBe(1), {
      timeout: 15_000,
      interval: 50
    })
    // Pushes left after their commits: the board's rows at least, each measured.
    const after = await scrape()
    const count = valueOf(after, 'eventwatch_push_lag_seconds_count', { event: 'sessionsChanged' }) ?? 0
    expect(count).toBeGreaterThan(0)
    expect(valueOf(after, 'eventwatch_push_lag_seconds_bucket', { event: 'sessionsChanged', le: '+Inf' })).toBe(count)
    expect(valueOf(after, 'eventwatch_push_lag_seconds_sum', { event: 'sessionsChanged' })).toBeGreaterThanOrEqual(0)
  }, 60_000)

  it('names a hostile connection in valid exposition text: its name parses back whole, and forges no line', async () => {
    await refresh()
    await vi.waitFor(async () => expect(polls(await scrape())).toBeGreaterThan(0), { timeout: 15_000, interval: 50 })
    const response = await fetcher(`${team.origin}/metrics`, { headers: bearer(viewerToken) })
    const text = await response.text()
    const parsed = parseExposition(text)
    const named = parsed.samples.filter((s) => s.labels.connection_id === 'c1')
    expect(named.length).toBeGreaterThan(0)
    for (const sample of named) expect(sample.labels.connection_name).toBe(HOSTILE)
    expect(parsed.samples.some((s) => s.name === 'eventwatch_fake_metric')).toBe(false)
    expect(text).toContain('connection_name="Contoso \\"East\\" \\\\ branch\\neventwatch_fake_metric{connection_id=\\"x\\"} 1"')
  }, 30_000)

  it('counts an open event stream while it is open', async () => {
    const streams = async (): Promise<number> => valueOf(await scrape(), 'eventwatch_event_streams_open') ?? -1
    const before = await streams()
    expect(before).toBeGreaterThanOrEqual(0)
    const stream = await openStream(fetcher, `${team.origin}/api/events`, bearer(viewerToken))
    await vi.waitFor(async () => expect(await streams()).toBe(before + 1), { timeout: 5_000, interval: 20 })
    stream.close()
    await vi.waitFor(async () => expect(await streams()).toBe(before), { timeout: 5_000, interval: 20 })
  })

  it('shows the outbox’s depth and its oldest delivery’s age while a webhook receiver hangs', async () => {
    const receiver = await webhookReceiver()
    cleanups.add(() => receiver.close())
    receiver.answer(...Array.from({ length: 50 }, () => 'hang' as const))
    const added = await core.dispatch('addWebhook', { settings: { name: 'Pager', url: receiver.url, format: 'json' } })
    expect(added.ok, JSON.stringify(added)).toBe(true)
    const quiet = await scrape()
    expect(valueOf(quiet, 'eventwatch_webhook_outbox_depth')).toBe(0)
    expect(valueOf(quiet, 'eventwatch_webhook_outbox_oldest_pending_age_seconds')).toBe(0)
    // Every live session falls well below the levels: alerts fire, and their deliveries hang.
    for (const session of sim.world.sessions.filter((s) => !s.hasEnded)) sim.faults.incident(session.eventSessionId, { drop: 60, minutes: 60 })
    await vi.waitFor(
      async () => {
        await refresh()
        expect(receiver.open).toBeGreaterThan(0)
      },
      { timeout: 30_000, interval: 500 }
    )
    await vi.waitFor(
      async () => {
        const p = await scrape()
        expect(valueOf(p, 'eventwatch_webhook_outbox_depth')).toBeGreaterThanOrEqual(1)
        expect(valueOf(p, 'eventwatch_webhook_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(1)
      },
      { timeout: 15_000, interval: 200 }
    )
    // The alerts' pushes were measured too.
    expect(valueOf(await scrape(), 'eventwatch_push_lag_seconds_count', { event: 'alertsChanged' })).toBeGreaterThan(0)
  }, 60_000)
})

describe('/readyz when the database is not fit', () => {
  let dir: string
  let dbFile: string
  let host: WebHost
  let idle: AppCore

  beforeAll(async () => {
    dir = tempDir()
    dbFile = join(dir, 'cache.db')
    idle = await startAppCore({ db: dbFile, polling: false, secrets: memorySecrets() })
    cleanups.add(() => idle.close())
    host = await startWebHost({ core: idle, rendererDir: stubRenderer(dir), port: 0 })
    cleanups.add(() => host.close())
  })

  const readyz = async (): Promise<{ status: number; text: string }> => {
    const response = await fetch(`${host.origin}/readyz`)
    return { status: response.status, text: await response.text() }
  }

  const stamp = (version: number): void => {
    const db = new Database(dbFile)
    try {
      db.pragma(`user_version = ${version}`)
    } finally {
      db.close()
    }
  }

  it('says 503 and why when a newer Eventwatch moved the schema on, and is ready again when it is current', async () => {
    expect(await readyz()).toEqual({ status: 200, text: `ready: schema ${latestSchema()}\n` })
    stamp(latestSchema() + 1)
    const refused = await readyz()
    expect(refused).toEqual({
      status: 503,
      text: `not ready: the database's schema is ${latestSchema() + 1}, newer than this build's ${latestSchema()}: upgrade this server\n`
    })
    stamp(latestSchema())
    expect((await readyz()).status).toBe(200)
    // /healthz says only that the process is up.
    expect((await fetch(`${host.origin}/healthz`)).status).toBe(200)
  })

  it('says 503 and why, in one line and without the cache’s path, when the cache file cannot be read', async () => {
    // The cache moved away whole (with its -wal and -shm, which the server keeps open), and
    // something else put at its path.
    const parts = ['', '-wal', '-shm'].filter((suffix) => existsSync(`${dbFile}${suffix}`))
    for (const suffix of parts) renameSync(`${dbFile}${suffix}`, `${dbFile}.away${suffix}`)
    try {
      const gone = await readyz()
      expect(gone.status).toBe(503)
      expect(gone.text).toMatch(/^not ready: the database cannot be read: the cache file does not exist[^\n]*\n$/)
      expect(gone.text).not.toContain(dir)
      writeFileSync(dbFile, 'this is no SQLite database, just text that took its place'.repeat(20))
      const garbage = await readyz()
      expect(garbage.status).toBe(503)
      expect(garbage.text).toMatch(/^not ready: the database cannot be read: the cache file is not an Eventwatch cache \(not a SQLite database\)[^\n]*\n$/)
      expect(garbage.text).not.toContain(dir)
      // /healthz still says the process is up: it is, and a load balancer asks /readyz for the rest.
      expect((await fetch(`${host.origin}/healthz`)).status).toBe(200)
    } finally {
      rmSync(dbFile, { force: true })
      for (const suffix of parts) renameSync(`${dbFile}.away${suffix}`, `${dbFile}${suffix}`)
    }
    expect((await readyz()).status).toBe(200)
  })
})
