// The alert situation and the alert pushes through the real app core, over an incident's life:
// acknowledging pushes that alert alone with a situation that still counts it as firing (issue 12:
// an acknowledged alert used to read as an all-clear); a new core on the same file answers the
// same situation at once, mid-incident (issue 12: a reload showed a grey "▲ 2 firing" until
// something changed); and when a connection stops being polled its open alerts end with the
// reason in words (disabled, demo left behind) or go with it (removed), and the situation stops
// counting them.
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/core/app/types'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import type { Alert, AlertsPage, AlertSituation } from '../../src/shared/alerts'
import type { PastSessionsPage } from '../../src/shared/screens'
import {
  cleanupsAfterAll,
  coreWithConnections,
  frozenSimulator,
  pollAll,
  Pushes,
  settled,
  simulatorSettings,
  startCore,
  testKeychain,
  value
} from '../support/app-core'
import { isolatedName } from '../../src/shared/plain-text'
import { tempDirs } from '../support/temp-dirs'

const cleanups = cleanupsAfterAll()
const tempDir = tempDirs('eventwatch-alerts-life-')

const open = (alerts: Alert[]) => alerts.filter((a) => a.state !== 'resolved')
const counts = (s: AlertSituation) => ({ firing: s.firing, acknowledged: s.acknowledged, worst: s.worst, tone: s.tone, tray: s.tray })

describe('an incident on two saved connections', () => {
  let dbFile: string
  let secrets: SecretStore
  let sims: Record<string, RunningSimulator>
  let ids: Record<string, string>
  let core: AppCore
  let pushes: Pushes

  const alertsOf = async (name: string) => (await value<AlertsPage>(core, 'listAlerts')).alerts.filter((a) => a.connectionId === ids[name])

  beforeAll(async () => {
    sims = {
      A: await frozenSimulator(cleanups, 'a', { seed: 31 }),
      B: await frozenSimulator(cleanups, 'b', { seed: 32, reliabilityScale: '0-1' })
    }
    ;({ core, pushes, ids, dbFile, secrets } = await coreWithConnections(cleanups, tempDir(), [
      { sim: sims.A!, name: 'A' },
      { sim: sims.B!, name: 'B' }
    ]))
    for (const sim of Object.values(sims)) sim.faults.incident(sim.world.sessions.filter((s) => !s.hasEnded)[0]!.eventSessionId, { drop: 20, minutes: 60 })
    await pollAll(core)
    await pollAll(core) // below the critical level twice: both fire
  }, 30_000)

  it('fires on both connections', async () => {
    const { alerts, situation } = await value<AlertsPage>(core, 'listAlerts')
    expect(alerts.filter((a) => a.rule === 'reliability-below').map((a) => [a.connectionId, a.state, a.severity]).sort()).toEqual(
      [[ids.A, 'firing', 'critical'], [ids.B, 'firing', 'critical']].sort()
    )
    expect(situation).toMatchObject({ firing: open(alerts).length, acknowledged: 0, worst: 'critical', tone: 'critical', tray: 'critical' })
  })

  it('pushes an acknowledged alert in `changed`, still counted as firing, one more acknowledged', async () => {
    const before = (await value<AlertsPage>(core, 'listAlerts')).situation
    const alert = (await alertsOf('A')).find((a) => a.rule === 'reliability-below')!
    const pushed = pushes.next('alertsChanged')
    const page = await value<AlertsPage>(core, 'acknowledgeAlert', { id: alert.id, note: 'CDN team on it' })
    const push = await pushed
    expect(push.changed).toEqual([expect.objectContaining({ id: alert.id, state: 'acknowledged', severity: 'critical' })])
    expect(push.changed[0]?.transitions.at(-1)).toMatchObject({ state: 'acknowledged', note: 'CDN team on it' })
    expect(push).toMatchObject({ removed: [], fired: [], resolved: [] })
    expect(counts(push.situation)).toEqual({ ...counts(before), acknowledged: before.acknowledged + 1 })
    expect(push.situation.firing).toBe(before.firing)
    expect(push.situation.headline).toMatch(new RegExp(`^${before.firing} alerts firing \\(1 acknowledged\\)$`))
    expect(push.situation.revision).toBeGreaterThan(before.revision)
    // The answer carries the same situation the push did.
    expect(page.situation).toEqual(push.situation)
  })

  it('answers the same situation at once after a reload mid-incident', async () => {
    const before = await value<AlertsPage>(core, 'listAlerts')
    await core.close()
    core = await startCore(cleanups, { db: dbFile, secrets })
    pushes = new Pushes(core)
    // Before any poll of the new core: read from the file.
    const after = await value<AlertsPage>(core, 'listAlerts')
    expect(counts(after.situation)).toEqual(counts(before.situation))
    expect(after.situation).toMatchObject({ worst: 'critical', tone: 'critical', acknowledged: 1 })
    expect(after.alerts.map((a) => [a.id, a.state])).toEqual(before.alerts.map((a) => [a.id, a.state]))
    await settled(core, 0)
  })

  it('ends a disabled connection\'s alerts saying so, and stops counting them', async () => {
    const ended = open(await alertsOf('A'))
    expect(ended.length).toBeGreaterThan(0)
    const remaining = open(await alertsOf('B'))
    const pushed = pushes.next('alertsChanged', (p) => p.resolved.length > 0)
    await value(core, 'setConnectionEnabled', { id: ids.A, enabled: false })
    const push = await pushed
    expect(push.resolved.map((a) => [a.id, a.state, a.endReason, a.endKind]).sort()).toEqual(
      ended.map((a) => [a.id, 'resolved', 'connection disabled: no longer polled', 'unwatched']).sort()
    )
    expect(push.situation).toMatchObject({ firing: remaining.length, acknowledged: 0, worst: 'critical' })
    expect((await alertsOf('A')).every((a) => a.state === 'resolved' && a.endReason === 'connection disabled: no longer polled')).toBe(true)
  })

  it('alerts again when the connection is polled again with the incident still on: an unwatched end is no recovery', async () => {
    const since = Date.now()
    await value(core, 'setConnectionEnabled', { id: ids.A, enabled: true })
    await settled(core, since)
    await pollAll(core)
    const { alerts, situation } = await value<AlertsPage>(core, 'listAlerts')
    const again = open(alerts).filter((a) => a.connectionId === ids.A && a.rule === 'reliability-below')
    expect(again.map((a) => [a.state, a.severity])).toEqual([['firing', 'critical']])
    expect(situation).toMatchObject({ cooldown: 0, worst: 'critical', tray: 'critical' })
  })

  it('pushes a removed connection\'s alerts away with it, and stops counting them', async () => {
    const gone = (await alertsOf('B')).map((a) => a.id)
    expect(gone.length).toBeGreaterThan(0)
    const stay = open(await alertsOf('A'))
    const pushed = pushes.next('alertsChanged', (p) => p.removed.length > 0)
    await value(core, 'deleteConnection', { id: ids.B })
    const push = await pushed
    expect([...push.removed].sort()).toEqual([...gone].sort())
    expect(push.situation).toMatchObject({ firing: stay.length, acknowledged: 0, worst: 'critical' })
    expect(await alertsOf('B')).toEqual([])
  })
})

describe('the demo left behind', () => {
  it('ends the demo\'s alerts saying why once a real connection is polled, and keeps its sessions apart', async () => {
    const secrets = testKeychain(cleanups)
    const core = await startCore(cleanups, {
      db: join(tempDir(), 'cache.db'),
      secrets,
      cadences: { discoveryMs: 1000, detailMs: 1000, viewersMs: 60_000 },
      demoIncidentAfterSeconds: 0
    })
    const pushes = new Pushes(core)
    const fired = await pushes.next('alertsChanged', (p) => p.fired.some((a) => a.rule === 'reliability-below'))
    expect(fired.situation.worst).toBe('critical')
    const demoAlerts = open((await value<AlertsPage>(core, 'listAlerts')).alerts)
    expect(demoAlerts.length).toBeGreaterThan(0)
    expect(demoAlerts.every((a) => a.connectionId === 'demo')).toBe(true)

    const sim = await frozenSimulator(cleanups, 'real', { seed: 41 })
    const ended = pushes.next('alertsChanged', (p) => p.resolved.length > 0)
    const left = pushes.next('sessionsChanged', (p) => p.removed.length > 0)
    await value(core, 'saveConnection', { settings: simulatorSettings(sim, 'Real tenant'), secret: sim.credentials.clientSecret })
    const push = await ended
    expect(push.resolved.map((a) => [a.id, a.endReason]).sort()).toEqual(
      demoAlerts.map((a) => [a.id, 'demo data left behind: a real connection is polled now']).sort()
    )
    // Nothing fires; the real tenant is not polled yet, so no all-clear either.
    expect(push.situation).toMatchObject({ firing: 0, pending: 0, tone: 'held', tray: 'ok', headline: `No alerts · waiting for the first poll of ${isolatedName('Real tenant')}` })
    expect((await left).removed.every((k) => k.connectionId === 'demo')).toBe(true)

    // History keeps the demo's data apart: out of the list, there when asked for by name, unwatched.
    await settled(core, Date.now())
    const all = await value<PastSessionsPage>(core, 'pastSessions', { sort: 'started', includeLive: true, limit: 1000 })
    expect(all.rows.some((r) => r.connectionId === 'demo')).toBe(false)
    const demo = await value<PastSessionsPage>(core, 'pastSessions', { connectionId: 'demo', sort: 'started', includeLive: true, limit: 1000 })
    expect(demo.rows.length).toBeGreaterThan(0)
    expect(demo.rows.every((r) => !r.watched)).toBe(true)
  }, 30_000)
})
