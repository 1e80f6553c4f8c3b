// `eventwatch sync` alerts as `serve` does (issue 25): it runs the same core, minus the HTTP face,
// so an alert it records goes to the webhooks through the outbox. Real `eventwatch` children
// against the simulator over loopback, a webhook added by the CLI first, and a loopback receiver:
// `sync --interval 1` delivers a site incident's firing and its resolution while it runs;
// `sync --once` delivers what its pass fired before it exits. (A firing queued before `sync` was
// SIGKILLed reaching the webhook after the restart: webhook-outbox-restart.test.ts, for both commands.)
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { homeEnv, simulatorFlags } from '../support/cli'
import { runCli, startCli, type RunningCli } from '../support/cli-processes'
import { tempDirs } from '../support/temp-dirs'
import { parseDeskLink } from '../../src/shared/session-link'
import { webhookReceiver, type Received } from '../support/webhook-receiver'

const newDir = tempDirs('eventwatch-sync-webhooks-')
const cleanups: (() => Promise<unknown> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** What a JSON webhook body says of its alert. */
interface Delivered {
  event: string
  rule: string
  site: string | null
  session: { id: string } | null
  link: string | null
}
const bodyOf = (r: Received): Delivered => JSON.parse(r.body) as Delivered

/** The site most of the session's viewers watch from: the one an incident there alerts for. */
function biggestSite(sim: RunningSimulator, eventSessionId: string): number {
  const session = sim.world.sessions.find((s) => s.eventSessionId === eventSessionId)!
  const counts = new Map<number, number>()
  for (const v of session.viewers) counts.set(v.siteCode, (counts.get(v.siteCode) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0]
}

/** A cache with a JSON webhook to a fresh receiver, added by `eventwatch webhooks add`. */
async function cacheWithWebhook(env: NodeJS.ProcessEnv) {
  const receiver = await webhookReceiver()
  cleanups.push(() => receiver.close())
  const db = join(newDir(), 'cache.db')
  const added = await runCli(['webhooks', 'add', 'On call', '--url', receiver.url, '--db', db], env)
  expect(added.code, added.stderr).toBe(0)
  return { receiver, db }
}

describe('sync sends webhooks as serve does', () => {
  it('sync --interval 1: a site incident reaches the webhook as it fires and as it resolves', async () => {
    const sim = await startSimulator({ liveSessions: 1, endedSessions: 0, viewersPerSession: 400, churnSessions: false, randomIncidents: false })
    cleanups.push(() => sim.close())
    const env = { ...homeEnv(newDir()), EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret }
    const { receiver, db } = await cacheWithWebhook(env)

    const sync: RunningCli = startCli(['sync', '--interval', '1', ...simulatorFlags(sim), '--db', db], env)
    cleanups.push(() => sync.stop())
    await expect.poll(() => sync.output().stderr, { timeout: 30_000 }).toMatch(/: 1 sessions, 1 live/)

    // One office's viewers fall to 30 for 15 s; the session's own score holds.
    const victim = sim.world.sessions[0]!.eventSessionId
    const site = biggestSite(sim, victim)
    sim.faults.siteIncident(victim, site, { reliability: 30, minutes: 0.25 })

    const siteEvents = () => receiver.received.map(bodyOf).filter((b) => b.rule === 'site-reliability')
    await expect.poll(() => siteEvents().map((b) => b.event), { timeout: 30_000 }).toContain('fired')
    await expect.poll(() => siteEvents().map((b) => b.event), { timeout: 60_000 }).toEqual(['fired', 'resolved'])
    expect(siteEvents()[0]).toMatchObject({ site: String(site), session: { id: victim } })
    // A headless sync links to the desk (issue 27): the link the desktop app opens on the session.
    for (const body of siteEvents()) expect(parseDeskLink(body.link!)).toEqual({ connectionId: expect.any(String), eventSessionId: victim })

    const exit = await sync.stop()
    expect(exit, sync.output().stderr).toEqual({ code: 0, signal: null })
  }, 120_000)

  it('sync --once: what its pass fired is delivered before it exits, and only once', async () => {
    const { receiver, once } = await onceWorld()
    await once() // the site is below its level: pending (1 list of 2)
    expect(receiver.received).toEqual([])
    await once() // firing: sent before the process ended
    expect(receiver.received.map(bodyOf).map((b) => [b.event, b.rule])).toEqual([['fired', 'site-reliability']])
    // The receiver's answer was recorded: the next run has nothing more to send.
    await once()
    expect(receiver.received).toHaveLength(1)
  }, 120_000)

  it('sync --once: SIGTERM ends a delivery the receiver holds; the next run sends it', async () => {
    const { receiver, once, args, env, db } = await onceWorld()
    await once() // pending
    receiver.answer('hang')
    const firing = startCli(args, env)
    cleanups.push(() => firing.stop())
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1)
    const held = receiver.received[0]!
    // The pass was whole: exit 0, and the delivery waits in the outbox, said on stderr.
    expect(await firing.stop()).toEqual({ code: 0, signal: null })
    expect(firing.output().stderr).toMatch(/^webhooks: deliveries to 1 webhook wait in the outbox for the next run/m)
    expect(held.status).toBe(0)
    // Abandoned by the signal, not failed by the receiver's timeout: not counted, due at once.
    expect(outboxOf(db)).toEqual([{ event: 'fired', attempts: 0, delivered: 0 }])

    await once()
    expect(receiver.received.map((r) => [r.key, r.status])).toEqual([[held.key, 0], [held.key, 200]])
  }, 120_000)
})

/**
 * A live session whose biggest site falls below its level after the first `sync --once`
 * (`once()` runs one, checks its exit and moves the service's clock a minute on).
 */
async function onceWorld() {
  let simNow = Date.now()
  const sim = await startSimulator({
    clock: () => simNow,
    liveSessions: 1,
    endedSessions: 0,
    viewersPerSession: 400,
    churnSessions: false,
    randomIncidents: false
  })
  cleanups.push(() => sim.close())
  const env = { ...homeEnv(newDir()), EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret }
  const { receiver, db } = await cacheWithWebhook(env)
  const args = ['sync', '--once', ...simulatorFlags(sim), '--db', db]
  const once = async () => {
    const result = await runCli(args, env)
    expect(result.code, result.stderr).toBe(0)
    simNow += 60_000
    return result
  }
  await once()
  const victim = sim.world.sessions[0]!.eventSessionId
  sim.faults.siteIncident(victim, biggestSite(sim, victim), { reliability: 30, minutes: 10 })
  return { receiver, once, args, env, db }
}

/** The cache's outbox, read as another SQLite client would. */
function outboxOf(file: string): { event: string; attempts: number; delivered: number }[] {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare('SELECT event, attempts, delivered_at IS NOT NULL AS delivered FROM webhook_outbox ORDER BY id').all() as {
      event: string
      attempts: number
      delivered: number
    }[]
  } finally {
    db.close()
  }
}