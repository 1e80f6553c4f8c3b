// Two saved connections polled together by one browser host, one service reporting reliability
// on 0–1 and one on 0–100 (each an `eventwatch simulate` process): Live shows every session on
// 0–100 with the health the core judged from that connection's own scale, so the 0–1 tenant's
// healthy sessions are Good, not critical; only the 0–100 tenant's failing session alerts; and
// Settings says each connection's scale, that it was detected, and why.
import { expect, test } from '@playwright/test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ConnectionView } from '../../src/shared/connections'
import type { LiveSession } from '../../src/shared/domain'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { request } from './support/api'
import { addConnection, cli } from './support/cli'
import { watchProblems } from './support/problems'
import { startSimulator, type Simulator } from './support/simulator'
import { pausePolling, views } from './support/views'

const stamp = Date.now()
const TENANTS = {
  unit: { name: `E2E scores 0-1 ${stamp}`, args: ['--reliability-scale', '0-1', '--seed', '7'] },
  // Its first live session loses 25 points from the start: the one session that should alert.
  percent: { name: `E2E scores 0-100 ${stamp}`, args: ['--reliability-scale', '0-100', '--seed', '42', '--incident', '0'] }
} as const
type Tenant = keyof typeof TENANTS
const SMALL = ['--live', '3', '--viewers', '150']

let dir: string
let db: string
let host: BrowserHost
const sims: Partial<Record<Tenant, Simulator>> = {}

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-e2e-scales-'))
  db = join(dir, 'cache.db')
  for (const tenant of Object.keys(TENANTS) as Tenant[]) {
    const sim = await startSimulator([...TENANTS[tenant].args, ...SMALL])
    sims[tenant] = sim
    // Saved as `auto`: each connection's scale is decided from its own scores.
    addConnection(TENANTS[tenant].name, sim, db)
  }
  host = await startBrowserHost(['--interval', '2', '--db', db])
})

test.afterAll(async () => {
  await host?.stop()
  try {
    for (const { name } of Object.values(TENANTS)) cli(['connections', 'remove', name, '--db', db])
  } finally {
    for (const sim of Object.values(sims)) await sim.stop()
    rmSync(dir, { recursive: true, force: true })
  }
})

test.use({ viewport: { width: 1600, height: 900 } })

test('a 0–1 and a 0–100 connection polled together: one scale on Live, health from each own scale, the scales in Settings', async ({ page }) => {
  test.setTimeout(120_000)
  const problems = watchProblems(page)

  // Both connections polled, and each one's scale detected from its own scores.
  let connections: ConnectionView[] = []
  await expect
    .poll(
      async () => {
        connections = await request(host, 'listConnections', {})
        return connections.map((c) => `${c.polled}/${c.reliabilityScale.source}`)
      },
      { timeout: 60_000, intervals: [1000] }
    )
    .toEqual(['true/detected', 'true/detected'])
  const idOf = (tenant: Tenant): string => connections.find((c) => c.name === TENANTS[tenant].name)?.id ?? ''
  const tenantOf = (s: LiveSession): Tenant => (s.connectionId === idOf('unit') ? 'unit' : 'percent')

  await page.goto(host.url)
  await expect(page.getByTestId('poll-state')).toHaveText(/\bconnected$/i, { timeout: 30_000 }) // both: "A, B connected"
  // Scores from both tenants, and the failing session's alert past pending: firing.
  let sessions: LiveSession[] = []
  await expect
    .poll(
      async () => {
        sessions = (await request(host, 'listLiveSessions', {})).sessions
        const { alerts } = await request(host, 'listAlerts', {})
        return {
          tenants: new Set(sessions.filter((s) => s.reliability !== null).map(tenantOf)).size,
          firing: alerts.some((a) => a.rule === 'reliability-below' && a.state === 'firing' && a.connectionId === idOf('percent'))
        }
      },
      { timeout: 60_000 }
    )
    .toEqual({ tenants: 2, firing: true })

  // Held still, so the page can be compared with the core's verdicts.
  await pausePolling(page, host)
  sessions = (await request(host, 'listLiveSessions', {})).sessions
  const settings = await request(host, 'getSettings', {})
  const { warning, critical } = settings.thresholds
  const rows = page.getByTestId('live-row')
  await expect(rows).toHaveCount(sessions.length)

  const healthy: Record<Tenant, number> = { unit: 0, percent: 0 }
  for (const s of sessions) {
    const tenant = tenantOf(s)
    const raw = s.reliabilityScore
    expect(raw, `${s.eventName} has a score`).not.toBeNull()
    // One scale on screen: the core's 0–100 score, the raw one kept as the service sent it.
    expect(raw!).toBeLessThanOrEqual(tenant === 'unit' ? 1 : 100)
    expect(s.reliability!).toBeCloseTo(tenant === 'unit' ? raw! * 100 : raw!, 6)
    const row = page.locator(`[data-testid=live-row][data-session-id="${s.eventSessionId}"]`)
    await expect(row.getByTestId('reliability')).toContainText(s.reliability!.toFixed(1))
    await expect(row).toHaveAttribute('data-health', s.health)
    // Health from the connection's own scale: a healthy score is Good, whatever the scale.
    if (s.reliability! >= warning) {
      expect(s.health, `${s.eventName} (${tenant}) at ${s.reliability}`).toBe('good')
      await expect(row.getByTestId('health')).toHaveText(/Good/)
      healthy[tenant]++
    }
    if (tenant === 'unit' && s.reliability! >= critical) await expect(row).not.toHaveAttribute('data-health', 'critical')
  }
  expect(healthy.unit, 'healthy sessions of the 0–1 tenant').toBeGreaterThanOrEqual(2)
  expect(healthy.percent, 'healthy sessions of the 0–100 tenant').toBeGreaterThanOrEqual(1)

  // Only the failing session alerts (the demo's own random incidents aside, which show a low score).
  const failing = sessions.filter((s) => tenantOf(s) === 'percent' && s.reliability! < critical)
  expect(failing.length, 'the 0–100 tenant has its failing session').toBeGreaterThanOrEqual(1)
  await expect(page.locator(`[data-testid=live-row][data-session-id="${failing[0]!.eventSessionId}"]`)).toHaveAttribute('data-health', 'critical')
  const { alerts } = await request(host, 'listAlerts', {})
  const alerted = alerts.filter((a) => a.state !== 'resolved' && a.rule === 'reliability-below')
  expect(alerted.filter((a) => a.state === 'firing').map((a) => a.eventSessionId)).toContain(failing[0]!.eventSessionId)
  for (const alert of alerted) {
    const session = sessions.find((s) => s.eventSessionId === alert.eventSessionId && s.connectionId === alert.connectionId)
    expect(session?.reliability ?? 0, `${alert.eventName} alerts while healthy: ${alert.summary}`).toBeLessThan(warning)
  }
  await page.mouse.move(0, 0)
  await page.screenshot({ path: 'test-results/live-scales.png', fullPage: true })

  // Settings: each connection's scale, detected, and the reason in words.
  await views(page).getByRole('button', { name: 'Settings' }).click()
  const scaleOf = (tenant: Tenant) => page.getByTestId('connection-row').filter({ hasText: TENANTS[tenant].name }).getByTestId('connection-scale')
  await expect(scaleOf('unit')).toHaveAttribute('data-scale', '0-1')
  await expect(scaleOf('unit')).toHaveAttribute('data-source', 'detected')
  await expect(scaleOf('unit')).toContainText('0–1, detected')
  await expect(scaleOf('unit')).toContainText(/every reliabilityScore this connection reported is between 0 and 1 \(\d+ sessions?\)/)
  await expect(scaleOf('percent')).toHaveAttribute('data-scale', '0-100')
  await expect(scaleOf('percent')).toHaveAttribute('data-source', 'detected')
  await expect(scaleOf('percent')).toContainText('0–100, detected')
  await expect(scaleOf('percent')).toContainText(/this connection reports reliabilityScore values above 1 \(highest [\d.]+, \d+ sessions?\)/)
  await page.mouse.move(0, 0)
  await page.screenshot({ path: 'test-results/settings-scales.png', fullPage: true })

  await request(host, 'setPaused', { paused: false })
  expect(problems).toEqual([])
})
