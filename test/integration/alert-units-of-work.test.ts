// An alert change is one unit of work (docs/units-of-work.md): the change, the webhook deliveries
// it queues and an operator's audit row commit in one transaction, or none of them does. Faults
// are real SQLite refusals (a trigger that aborts an insert, as a full disk would), made by the
// test through its own connection to the cache file the app core runs on; the core polls the demo
// over loopback and delivers to a loopback receiver.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { WebhookService } from '../../src/main/core/webhooks/service'
import type { AlertsPage } from '../../src/shared/alerts'
import type { AppCore } from '../../src/main/core/app/types'
import { asAnotherProgram } from '../support/another-program'
import { Cleanups, Pushes, startCore, testKeychain, value } from '../support/app-core'
import { storeOn } from '../support/store-on'
import { tempDirs } from '../support/temp-dirs'
import { webhookReceiver } from '../support/webhook-receiver'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())
const tempDir = tempDirs('eventwatch-units-of-work-')

// Both are made while the core may run on the file: as another program, never waiting on its thread.
/** A SQLite refusal of every insert into `table`, with the message a full disk would give. */
const refuseInserts = async (db: Db, table: string): Promise<void> => {
  await asAnotherProgram(db, () => db.exec(`CREATE TRIGGER refuse_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`))
}
const allowInserts = async (db: Db, table: string): Promise<void> => {
  await asAnotherProgram(db, () => db.exec(`DROP TRIGGER refuse_${table}`))
}

/** The deliveries queued in the outbox, as (event, alert id). */
const outboxRows = (db: Db): { event: string; alertId: number }[] =>
  db.prepare('SELECT event, alert_id AS alertId FROM webhook_outbox ORDER BY id').all() as { event: string; alertId: number }[]

/** The alerts on record, as (id, state); a pending one announces nothing and is left out. */
const alertRows = (db: Db): { id: number; state: string }[] =>
  db.prepare("SELECT id, state FROM alerts WHERE state <> 'pending' ORDER BY id").all() as { id: number; state: string }[]

/**
 * A cache with a JSON webhook to a loopback receiver, a connection of the test's own to it (for
 * faults and looks), and `before` done to it, then an app core on it polling the demo every
 * second with its incident from the start.
 */
async function coreWithWebhook(before: (db: Db) => Promise<void> | void = () => undefined) {
  const receiver = await webhookReceiver()
  cleanups.add(() => receiver.close())
  const dbFile = join(tempDir(), 'cache.db')
  const secrets = testKeychain(cleanups)
  const db = openDatabase(dbFile)
  cleanups.add(() => db.close())
  await new WebhookService(storeOn(db), secrets).add({ name: 'On call', url: receiver.url, format: 'json' })
  await before(db)
  const core = await startCore(cleanups, {
    db: dbFile,
    secrets,
    cadences: { discoveryMs: 1000, detailMs: 1000, viewersMs: 60_000 },
    demoIncidentAfterSeconds: 0
  })
  return { core, pushes: new Pushes(core), db, receiver }
}

const firingReliability = async (core: AppCore) =>
  (await value<AlertsPage>(core, 'listAlerts', {})).alerts.find((a) => a.rule === 'reliability-below' && a.state === 'firing')

describe('an alert change and its webhook deliveries', () => {
  it('roll back together when the deliveries cannot be queued: no alert on record without them; once they can, both', async () => {
    const { pushes, db, receiver } = await coreWithWebhook((db) => refuseInserts(db, 'webhook_outbox'))

    // The incident is judged; its firing cannot queue its deliveries.
    const refused = await pushes.next('statusChanged', (s) => /alerts:/.test(s.problem ?? '') || alertRows(db).length > 0)
    expect(alertRows(db), 'an alert was recorded without its webhook deliveries').toEqual([])
    expect(refused.problem).toBe('alerts: webhook deliveries could not be queued: database or disk is full')
    expect(outboxRows(db)).toEqual([])

    // The outbox takes rows again: the same poll's change is judged again, and commits whole.
    await allowInserts(db, 'webhook_outbox')
    const fired = await pushes.next('alertsChanged', (p) => p.fired.some((a) => a.rule === 'reliability-below'))
    const alert = fired.fired.find((a) => a.rule === 'reliability-below')!
    expect(outboxRows(db)).toContainEqual({ event: 'fired', alertId: alert.id })
    await expect.poll(() => receiver.received.map((r) => r.event), { timeout: 15_000 }).toContain('fired')
  }, 60_000)
})

describe("an operator's change and its audit row", () => {
  for (const [action, args, state] of [
    ['acknowledgeAlert', { note: 'looking' }, 'acknowledged'],
    ['snoozeAlert', { until: '1h' }, 'snoozed']
  ] as const) {
    it(`${action}: rolls back with its audit row (and the deliveries it queued) when that row cannot be written`, async () => {
      const { core, pushes, db } = await coreWithWebhook()
      await pushes.next('alertsChanged', (p) => p.fired.some((a) => a.rule === 'reliability-below'))
      const alert = (await firingReliability(core))!
      const audited = (db.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n

      await refuseInserts(db, 'audit_log')
      const outboxBefore = outboxRows(db)
      const refused = await core.dispatch(action, { id: alert.id, ...args })
      expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/database or disk is full$/) } })
      expect(alertRows(db).find((a) => a.id === alert.id), `the ${state} alert stayed changed without its audit row`).toMatchObject({ state: 'firing' })
      expect(outboxRows(db)).toEqual(outboxBefore)

      // The audit log takes rows again: the change, its row (and its deliveries) commit together.
      await allowInserts(db, 'audit_log')
      await value(core, action, { id: alert.id, ...args })
      expect(alertRows(db).find((a) => a.id === alert.id)).toMatchObject({ state })
      const entries = db.prepare('SELECT action, subject FROM audit_log ORDER BY id').all().slice(audited)
      expect(entries).toHaveLength(1)
      if (action === 'acknowledgeAlert') expect(outboxRows(db)).toContainEqual({ event: 'acknowledged', alertId: alert.id })
    }, 60_000)
  }

  it('setSessionAlertOverride: a mute is not stored without its audit row, and mutes nothing', async () => {
    const { core, pushes, db } = await coreWithWebhook()
    await pushes.next('alertsChanged', (p) => p.fired.some((a) => a.rule === 'reliability-below'))
    const alert = (await firingReliability(core))!
    const mute = { connectionId: alert.connectionId, eventSessionId: alert.eventSessionId, muted: true }
    const overrides = () => db.prepare('SELECT event_session_id AS id, muted FROM alert_overrides').all()

    await refuseInserts(db, 'audit_log')
    expect(await core.dispatch('setSessionAlertOverride', mute)).toMatchObject({ ok: false, error: { message: expect.stringMatching(/database or disk is full$/) } })
    expect(overrides(), 'the mute was stored without its audit row').toEqual([])
    expect(alertRows(db).find((a) => a.id === alert.id)).toMatchObject({ state: 'firing' })

    await allowInserts(db, 'audit_log')
    await value(core, 'setSessionAlertOverride', mute)
    expect(overrides()).toEqual([{ id: alert.eventSessionId, muted: 1 }])
    expect(alertRows(db).find((a) => a.id === alert.id)).toMatchObject({ state: 'muted' })
  }, 60_000)
})
