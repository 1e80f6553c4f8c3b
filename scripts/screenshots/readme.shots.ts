// Pictures for the README, during an incident on three tenants (test/e2e/support/incident-desk.ts):
// the wall at 1366x768, and the tile of a session whose named office is failing.
import { expect, test } from '@playwright/test'
import { join, resolve } from 'node:path'
import { DESK_CONNECTIONS, OFFICE_NAME, startIncidentDesk, type IncidentDesk } from '../../test/e2e/support/incident-desk'

const IMAGES = resolve(import.meta.dirname, '../../docs/images')

let desk: IncidentDesk
test.beforeAll(async () => {
  desk = await startIncidentDesk({ liveSessions: 8 })
})
test.afterAll(async () => desk?.stop())

test('the wall at 1366x768 during an incident, and a failing office on its tile', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 })
  await page.goto(`${desk.host.url}#wall`)
  // The incident in full: Contoso found offline, the office's alert on its tile, and no alert
  // still pending (the falling session's critical has fired).
  await expect(page.getByTestId('wall-status')).toContainText(`${DESK_CONNECTIONS.stopped} offline since`, { timeout: 150_000 })
  await expect(page.getByText(OFFICE_NAME).first()).toBeVisible({ timeout: 150_000 })
  await expect(page.getByTestId('wall-situation')).toHaveText(/alerts? firing/, { timeout: 150_000 })
  await expect(page.getByTestId('wall-situation')).not.toContainText('pending', { timeout: 150_000 })
  await page.waitForTimeout(1500) // the sparklines' last point drawn
  await page.screenshot({ path: join(IMAGES, 'wall-incident-1366x768.png') })
  const tile = page.getByTestId('wall-tile').filter({ hasText: OFFICE_NAME }).first()
  await tile.screenshot({ path: join(IMAGES, 'site-alert-tile.png') })
})
