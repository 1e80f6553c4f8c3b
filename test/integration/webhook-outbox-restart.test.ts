// The outbox is rows, written with the alert change (docs/units-of-work.md): a firing committed
// with its webhook deliveries, the process SIGKILLed before the receiver accepted any, and a fresh
// core on the same cache file delivers it; a firing whose deliveries could not be queued was never
// committed, so the fresh core fires it again and delivers it. Real `eventwatch` children against
// the simulator over loopback, a webhook added by the CLI, and a loopback receiver.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { CLAIM_MS } from '../../src/main/core/webhooks/deliverer'
import { homeEnv, simulatorFlags } from '../support/cli'
import { runCli, startCli, type RunningCli } from '../support/cli-processes'
import { freePort } from '../support/cli-team'
import { tempDirs } from '../support/temp-dirs'
import { webhookReceiver, type Received } from '../support/webhook-receiver'

/** The commands that run the core, without their connection and cache flags: `serve`, and
 *  `sync --interval 1`, the same core minus the HTTP face (how people run it as a service). */
const CORE_COMMANDS: Record<string, () => Promise<string[]>> = {
  serve: async () => ['serve', '--listen', `127.0.0.1:${await freePort()}`, '--interval', '1'],
  'sync --interval 1': async () => ['sync', '--interval', '1']
}

const newDir = tempDirs('eventwatch-outbox-restart-')
const cleanups: (() => Promise<unknown> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const bodyOf = (r: Received): { event: string; rule: string } => JSON.parse(r.body) as { event: string; rule: string }

/** The site most of the session's viewers watch from: the one an incident there alerts for. */
function biggestSite(sim: RunningSimulator, eventSessionId: string): number {
  const session = sim.world.sessions.find((s) => s.eventSessionId === eventSessionId)!
  const counts = new Map<number, number>()
  for (const v of session.viewers) counts.set(v.siteCode, (counts.get(v.siteCode) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0]
}

/** A simulator with one live session, a cache with a JSON webhook to a loopback receiver (added
 *  by the CLI), and the command's arguments for a core on both. */
async function cacheWithWebhook(coreCommand = CORE_COMMANDS.serve!) {
  const sim = await startSimulator({ liveSessions: 1, endedSessions: 0, viewersPerSession: 400, churnSessions: false, randomIncidents: false })
  cleanups.push(() => sim.close())
  const receiver = await webhookReceiver()
  cleanups.push(() => receiver.close())
  const env = { ...homeEnv(newDir()), EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret }
  const file = join(newDir(), 'cache.db')
  const added = await runCli(['webhooks', 'add', 'On call', '--url', receiver.url, '--db', file], env)
  expect(added.code, added.stderr).toBe(0)
  const core = async (): Promise<RunningCli> => {
    const running = startCli([...(await coreCommand()), ...simulatorFlags(sim), '--db', file], env)
    cleanups.push(() => running.stop())
    return running
  }
  /** One office of the session falls to 30 for 10 minutes; the session's own score holds. */
  const siteIncident = (): string => {
    const victim = sim.world.sessions[0]!.eventSessionId
    sim.faults.siteIncident(victim, biggestSite(sim, victim), { reliability: 30, minutes: 10 })
    return victim
  }
  return { receiver, file, core, siteIncident }
}

/** A SQLite refusal of every webhook delivery queued, with the message a full disk would give. */
const refuseDeliveries = (db: Db): void => {
  db.exec("CREATE TRIGGER refuse_deliveries BEFORE INSERT ON webhook_outbox BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
}

const siteAlertStates = (db: Db): string[] =>
  (db.prepare("SELECT state FROM alerts WHERE rule = 'site-reliability' ORDER BY id").all() as { state: string }[]).map((r) => r.state)
const listFetchedAt = (db: Db, eventSessionId: string): number | undefined =>
  (db.prepare('SELECT fetched_at AS at FROM viewer_lists WHERE event_session_id = ? AND staged_at IS NULL').get(eventSessionId) as { at: number } | undefined)?.at

describe('webhook deliveries across a crash', () => {
  it.each(Object.keys(CORE_COMMANDS))('%s: a firing queued before a SIGKILL reaches the webhook from a fresh core on the same cache', async (command) => {
    const { receiver, core, siteIncident } = await cacheWithWebhook(CORE_COMMANDS[command])

    // The receiver holds the first delivery open and never answers it: it is never accepted.
    receiver.answer('hang')
    const first = await core()
    siteIncident()
    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBe(1)
    const held = receiver.received[0]!
    expect(bodyOf(held)).toMatchObject({ event: 'fired', rule: 'site-reliability' })

    first.child.kill('SIGKILL')
    expect(await first.stop()).toEqual({ code: null, signal: 'SIGKILL' })
    expect(held.status).toBe(0) // killed before the receiver accepted it

    const second = await core()
    const accepted = () => receiver.received.filter((r) => r.status === 200)
    // The killed core's claim on the delivery runs out first (docs/webhooks.md), then it goes.
    await expect.poll(() => accepted().length, { timeout: CLAIM_MS + 30_000 }).toBe(1)
    // The same delivery, from the outbox: the alert was already firing, nothing fired again.
    expect(accepted()[0]).toMatchObject({ key: held.key, body: held.body })
    expect((await second.stop()).code, second.output().stderr).toBe(0)
  }, 150_000)

  it('a firing whose deliveries could not be queued is not on record; after a SIGKILL a fresh core fires it and delivers it', async () => {
    const { receiver, file, core, siteIncident } = await cacheWithWebhook()
    const db = openDatabase(file)
    cleanups.push(() => void db.close())
    refuseDeliveries(db)

    const first = await core()
    const victim = siteIncident()
    // The office's first list below its level makes the alert pending; the next one fires it (and
    // its deliveries are refused); one list more and that judgement is surely behind us.
    await expect.poll(() => siteAlertStates(db).length, { timeout: 60_000 }).toBe(1)
    const pendingAt = listFetchedAt(db, victim)!
    let lists = 0
    let seen = pendingAt
    await expect
      .poll(
        () => {
          const at = listFetchedAt(db, victim) ?? seen
          if (at > seen) [lists, seen] = [lists + 1, at]
          return lists
        },
        { timeout: 60_000, interval: 50 }
      )
      .toBeGreaterThanOrEqual(2)
    expect(siteAlertStates(db), 'a firing was recorded without its webhook deliveries').toEqual(['pending'])

    first.child.kill('SIGKILL')
    expect(await first.stop()).toEqual({ code: null, signal: 'SIGKILL' })
    db.exec('DROP TRIGGER refuse_deliveries')

    await core()
    await expect.poll(() => receiver.received.map(bodyOf).map((b) => [b.event, b.rule]), { timeout: 60_000 }).toEqual([['fired', 'site-reliability']])
  }, 180_000)
})
