// A service whose records drift from the schema: the live screen still works, and the
// diagnostics view says what was skipped and where.
import { expect, test } from '@playwright/test'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import type { BrowserHost } from './browser-host'
import { startBrowserHostFor } from './support/simulator-host'

let sim: RunningSimulator
let host: BrowserHost

test.beforeAll(async () => {
  sim = await startSimulator({ liveSessions: 4, endedSessions: 2, viewersPerSession: 60 })
  sim.faults.driftSchema(true)
  host = await startBrowserHostFor(sim)
})

test.afterAll(async () => {
  await host?.stop()
  await sim?.close()
})

test('schema drift shows up in the diagnostics view with the endpoint and reason', async ({ page }) => {
  test.setTimeout(60_000)
  await page.goto(host.url)
  // Not demo data: the header names the connection.
  await expect(page.getByText('Demo data', { exact: true })).toHaveCount(0)
  await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })

  await page.getByRole('button', { name: 'Diagnostics' }).click()
  const rows = page.getByTestId('diagnostic-row')
  await expect(rows.first()).toBeVisible({ timeout: 30_000 })
  await expect(rows.filter({ hasText: 'GET /v1/events/sessions' }).first()).toContainText('unexpected response')
  await page.screenshot({ path: 'test-results/diagnostics.png', fullPage: true })
})
