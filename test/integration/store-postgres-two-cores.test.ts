// Two cores on one PostgreSQL database, as two `serve` processes are (issue 26, docs/scaling-plan.md
// section 3): what one core's units change reaches the faces of the other, from LISTEN/NOTIFY —
// an acknowledgement made through core A reaches an onEvent subscriber of core B with the alert
// as acknowledged, and B's board follows A's polls. Both cores have the connection; B never polls
// it (its passes only when asked, and nobody asks), so all B's faces hear of it comes from A.
import { userInfo } from 'node:os'
import { afterEach, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCoreOptions, LocalAppCore } from '../../src/main/core/app/types'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import type { AlertsChanged, AlertsPage } from '../../src/shared/alerts'
import type { LiveBoard, SessionsChanged } from '../../src/shared/domain'
import { Cleanups, frozenSimulator, Pushes, saveConnections, testKeychain, value } from '../support/app-core'
import { freshDatabase } from '../support/postgres-databases'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())

/** A core that polls only when the test asks (completePasses), closed after the test. */
async function core(db: string, secrets: SecretStore, options: Partial<AppCoreOptions> = {}): Promise<LocalAppCore> {
  const started = await startAppCore({ db, secrets, passesOnRequest: true, ...options })
  cleanups.add(() => started.close())
  return started
}

/** A database with one saved connection to a simulator, and two cores on it. */
async function twoCores(): Promise<{ a: LocalAppCore; b: LocalAppCore; url: string; connectionId: string; sim: Awaited<ReturnType<typeof frozenSimulator>> }> {
  const database = await freshDatabase()
  cleanups.add(() => database.drop())
  const sim = await frozenSimulator(cleanups, 'two-cores')
  const secrets = testKeychain(cleanups)
  const ids = await saveConnections(database.url, secrets, [{ sim, name: 'Tenant' }])
  const a = await core(database.url, secrets)
  const b = await core(database.url, secrets)
  return { a, b, url: database.url, connectionId: ids['Tenant']!, sim }
}

/** The person at the machine acknowledges (core/team/local-actor.ts): the transition names them. */
const me = userInfo().username || 'local'
const acknowledged = (id: number) => (push: AlertsChanged) =>
  push.changed.some((alert) => alert.id === id && alert.state === 'acknowledged' && alert.transitions.at(-1)?.by === me)

it('brings an acknowledgement made through core A to an onEvent subscriber of core B, with the alert as acknowledged', async () => {
  const { a, b, url, connectionId, sim } = await twoCores()
  const victim = sim.world.sessions.find((s) => !s.hasEnded)!.eventSessionId
  // A critical firing, as a poll's judgement left it (written by a third store: another server).
  const other = await openPgStore(url)
  cleanups.add(() => other.close())
  const id = await other.withTransaction((tx) =>
    tx.alerts.insert(
      connectionId,
      { rule: 'reliability-below', eventSessionId: victim, eventName: 'Town hall', state: 'firing', severity: 'critical', summary: 'reliability 40 below 60', value: 40, streak: 2 },
      Date.now()
    )
  )
  const [onA, onB] = [new Pushes(a), new Pushes(b)]
  const heardOnB = onB.next('alertsChanged', acknowledged(id), 10_000)

  await value(a, 'acknowledgeAlert', { id, note: 'on it' })
  const pushedOnA = onA.of('alertsChanged').find(acknowledged(id))!
  const pushedOnB = await heardOnB
  // A push carries data: B's faces get the alert as A's got it, at the same revision.
  expect(pushedOnB.changed).toEqual(pushedOnA.changed)
  expect(pushedOnB.situation.revision).toBe(pushedOnA.situation.revision)
  expect(pushedOnB.situation.epoch).toBe(pushedOnA.situation.epoch)
  // …and what B answers agrees.
  const page = await value<AlertsPage>(b, 'listAlerts', { limit: 10 })
  expect(page.alerts.find((alert) => alert.id === id)?.state).toBe('acknowledged')
})

it("has core B's board follow core A's polls, and B's faces hear the alert A's polls fire", async () => {
  const { a, b, connectionId, sim } = await twoCores()
  const onB = new Pushes(b)
  const live = sim.world.sessions.filter((s) => !s.hasEnded).map((s) => s.eventSessionId)
  const boardOnB = onB.next('sessionsChanged', (push: SessionsChanged) => push.rows.filter((row) => row.connectionId === connectionId).length === live.length, 15_000)

  await a.completePasses({})
  const pushed = await boardOnB
  expect(pushed.rows.map((row) => row.eventSessionId).sort()).toEqual([...live].sort())
  // B's own count, in B's epoch: its faces hold B's board, not A's.
  const held = await value<LiveBoard>(b, 'listLiveSessions')
  expect(held.epoch).toBe(pushed.epoch)
  expect(held.sessions.map((s) => s.eventSessionId).sort()).toEqual([...live].sort())

  // The victim falls: two of A's polls later its alert fires, and B's faces hear it, and its row.
  const victim = live[0]!
  sim.faults.incident(victim, { drop: 40, minutes: 30 })
  const firedOnB = onB.next('alertsChanged', (push) => push.fired.some((alert) => alert.eventSessionId === victim), 30_000)
  await a.completePasses({})
  await a.completePasses({})
  await firedOnB
  // Acknowledged through A, every alert firing on it (the fall fires more than one rule): B's
  // faces hear each, and B's row of the session shows it acknowledged.
  const firing = (await value<AlertsPage>(b, 'listAlerts', { limit: 50 })).alerts.filter((alert) => alert.eventSessionId === victim && alert.state === 'firing')
  expect(firing.length).toBeGreaterThan(0)
  const rowOnB = onB.next('sessionsChanged', (push) => push.rows.some((row) => row.eventSessionId === victim && row.alert?.state === 'acknowledged'), 10_000)
  for (const alert of firing) {
    const acknowledgedOnB = onB.next('alertsChanged', acknowledged(alert.id), 10_000)
    await value(a, 'acknowledgeAlert', { id: alert.id })
    await acknowledgedOnB
  }
  await rowOnB
}, 90_000)
