// Two tenants polled at once through the real app core, one whose service reports reliability on
// 0–1 and one on 0–100, both `auto` (issue 12: the scale used to be decided for the whole cache,
// so the 0–1 tenant's healthy sessions fired critical alerts). Each connection's scale is decided
// from its own data and said in Settings with the reason; every score the core hands out is on
// 0–100; an incident in exactly one session alerts for that session only. A third connection has
// its scale set by the operator. Real SQLite, real keychain, simulators over loopback.
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/core/app/types'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import type { AlertsPage } from '../../src/shared/alerts'
import type { ConnectionView } from '../../src/shared/connections'
import type { LiveBoard, LiveSession } from '../../src/shared/domain'
import type { PastSessionsPage } from '../../src/shared/screens'
import { cleanupsAfterAll, coreWithConnections, frozenSimulator, pollAll, value } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'

const cleanups = cleanupsAfterAll()
const tempDir = tempDirs('eventwatch-scales-')

let core: AppCore
let unit: RunningSimulator
let hundred: RunningSimulator
let forced: RunningSimulator
let ids: Record<string, string>

beforeAll(async () => {
  unit = await frozenSimulator(cleanups, 'unit', { reliabilityScale: '0-1', seed: 11 })
  hundred = await frozenSimulator(cleanups, 'hundred', { reliabilityScale: '0-100', seed: 12 })
  forced = await frozenSimulator(cleanups, 'forced', { reliabilityScale: '0-1', seed: 13 })
  ;({ core, ids } = await coreWithConnections(cleanups, tempDir(), [
    { sim: unit, name: 'Tenant on 0-1' },
    { sim: hundred, name: 'Tenant on 0-100' },
    { sim: forced, name: 'Tenant set to 0-1', extra: { reliabilityScale: '0-1' } }
  ]))
}, 30_000)

const board = () => value<LiveBoard>(core, 'listLiveSessions')
const rowsOf = (sessions: LiveSession[], name: string) => sessions.filter((s) => s.connectionId === ids[name])
const scaleOf = async (name: string) => (await value<ConnectionView[]>(core, 'listConnections')).find((c) => c.id === ids[name])

describe('two tenants on different scales, polled together', () => {
  it('decides each connection\'s scale from its own data and says why', async () => {
    const connections = await value<ConnectionView[]>(core, 'listConnections')
    expect(connections.map((c) => [c.name, c.polled])).toEqual([
      ['Tenant on 0-1', true],
      ['Tenant on 0-100', true],
      ['Tenant set to 0-1', true]
    ])
    expect((await scaleOf('Tenant on 0-1'))?.reliabilityScale).toEqual({
      setting: 'auto',
      value: '0-1',
      source: 'detected',
      reason: expect.stringMatching(/^every reliabilityScore this connection reported is between 0 and 1 \(\d+ sessions\)$/)
    })
    expect((await scaleOf('Tenant on 0-100'))?.reliabilityScale).toEqual({
      setting: 'auto',
      value: '0-100',
      source: 'detected',
      reason: expect.stringMatching(/^this connection reports reliabilityScore values above 1 \(highest \d+(\.\d)?, \d+ sessions\)$/)
    })
    expect((await scaleOf('Tenant set to 0-1'))?.reliabilityScale).toEqual({
      setting: '0-1',
      value: '0-1',
      source: 'setting',
      reason: 'set for this connection'
    })
  })

  it('hands out every live session on 0–100 and healthy, whatever its service\'s scale', async () => {
    const { sessions } = await board()
    for (const name of ['Tenant on 0-1', 'Tenant set to 0-1']) {
      const rows = rowsOf(sessions, name)
      expect(rows, name).toHaveLength(3)
      for (const s of rows) {
        expect(s.reliabilityScore, `${name}: the service's own value`).toBeLessThanOrEqual(1)
        expect(s.reliability).toBeCloseTo(s.reliabilityScore * 100, 6)
        expect(s.latestPoint?.reliability).toBeCloseTo(s.reliabilityScore * 100, 6)
      }
    }
    const hundreds = rowsOf(sessions, 'Tenant on 0-100')
    expect(hundreds).toHaveLength(3)
    for (const s of hundreds) expect(s.reliability).toBe(s.reliabilityScore)
    for (const s of sessions) {
      expect(s.reliability).toBeGreaterThanOrEqual(95)
      expect(s.reliability).toBeLessThanOrEqual(100)
      expect(s).toMatchObject({ health: 'good', alert: null, levels: { warning: 95, critical: 90, source: 'settings' } })
    }
    // History judges them the same way.
    const past = await value<PastSessionsPage>(core, 'pastSessions', { connectionId: ids['Tenant on 0-1'], sort: 'started', includeLive: true })
    const byId = (a: { eventSessionId: string }, b: { eventSessionId: string }) => a.eventSessionId.localeCompare(b.eventSessionId)
    const live = past.rows.filter((r) => !r.hasEnded).sort(byId)
    expect(live.map((r) => [r.eventSessionId, r.reliability, r.health, r.watched])).toEqual(
      rowsOf(sessions, 'Tenant on 0-1').sort(byId).map((s) => [s.eventSessionId, s.reliability, 'good', true])
    )
  })

  it('alerts for exactly the one session whose reliability fell, and for no healthy one of either scale', async () => {
    // Healthy polls first: nothing alerts, not even the 0–1 tenant's 0.97s.
    await pollAll(core)
    await pollAll(core)
    const quiet = await value<AlertsPage>(core, 'listAlerts')
    expect(quiet.alerts).toEqual([])
    expect(quiet.situation).toMatchObject({ firing: 0, pending: 0, tone: 'ok', headline: 'No alerts' })

    const victim = unit.world.sessions.filter((s) => !s.hasEnded)[1]!.eventSessionId
    unit.faults.incident(victim, { drop: 20, minutes: 30 })
    await pollAll(core)
    await pollAll(core) // two polls below the critical level: it fires

    const { alerts, situation } = await value<AlertsPage>(core, 'listAlerts')
    expect(alerts.length).toBeGreaterThan(0)
    expect(new Set(alerts.map((a) => `${a.connectionId}/${a.eventSessionId}`))).toEqual(new Set([`${ids['Tenant on 0-1']}/${victim}`]))
    const below = alerts.find((a) => a.rule === 'reliability-below')
    expect(below).toMatchObject({ state: 'firing', severity: 'critical', connectionName: 'Tenant on 0-1' })
    // Said on 0–100: "Reliability 77.8, below the critical level 90", never 0.778.
    expect(below?.summary).toMatch(/^Reliability (7\d|80)(\.\d+)?, below the critical level 90$/)
    expect(situation).toMatchObject({ worst: 'critical', tone: 'critical', tray: 'critical' })

    const { sessions } = await board()
    const hit = sessions.find((s) => s.eventSessionId === victim)
    expect(hit).toMatchObject({ health: 'critical', alert: { rule: expect.any(String), state: 'firing', severity: 'critical' } })
    expect(hit?.reliability).toBeCloseTo((hit?.reliabilityScore ?? 0) * 100, 6)
    expect(hit?.reliability).toBeLessThan(90)
    for (const s of sessions.filter((s) => s.eventSessionId !== victim)) expect([s.connectionId, s.health, s.alert]).toEqual([s.connectionId, 'good', null])
  }, 30_000)
})
