// Issue 24, items 2 and 6, on the incident desk (three connections, 8 live sessions): Northwind's
// busiest office ("Leeds office", named with `sites set`) watches at 30 while its session's own
// score stays good, and Fabrikam's session of the same name falls to about 41.
//
//   - The office's trouble shows on its session's Live row and wall tile: its name and its figure,
//     in the alert's colour (read as drawn), though the session's own verdict is good.
//   - Every text naming the site says "Leeds office", never "Site <code>": the alert card, the
//     wall's line of alerts firing.
//   - The two same-named sessions read apart away from their rows: the wall's line names each one's
//     connection, "Product Launch: Aurora (Fabrikam)", as do their alert cards.
import { expect, test, type Locator, type Page } from '@playwright/test'
import type { Alert } from '../../src/shared/alerts'
import { request } from './support/api'
import { axeViolations } from './support/axe'
import { DESK_CONNECTIONS, OFFICE_NAME, startIncidentDesk, type IncidentDesk } from './support/incident-desk'
import { paintOf } from './support/situation'
import { views } from './support/views'

let desk: IncidentDesk

/** "Site 415", "site 415": how the site was named before it had its name. */
const SITE_CODE_WORDS = /\bSite \d+\b/i

test.beforeAll(async () => {
  test.setTimeout(240_000)
  desk = await startIncidentDesk({ liveSessions: 8 })
  // Both incidents fire before any screen is looked at: the office's site alert, the fall's.
  const firing = async (): Promise<Alert[]> =>
    (await request(desk.host, 'listAlerts', {})).alerts.filter((a) => a.state === 'firing' || a.state === 'acknowledged')
  await expect
    .poll(
      async () => {
        const alerts = await firing()
        return {
          office: alerts.some((a) => a.rule === 'site-reliability' && a.connectionName === DESK_CONNECTIONS.office),
          falling: alerts.some((a) => a.rule === 'reliability-below' && a.connectionName === DESK_CONNECTIONS.falling)
        }
      },
      { timeout: 180_000, intervals: [1000], message: "the office's site alert and the falling session's alert fire" }
    )
    .toEqual({ office: true, falling: true })
})

test.afterAll(async () => {
  await desk?.stop()
})

/** A session's Live row on one connection: the two same-named sessions share their id too. */
const rowOf = (page: Page, connection: string): Locator =>
  page
    .locator(`[data-testid=live-row][data-session-id="${desk.office.eventSessionId}"]`)
    .filter({ has: page.getByRole('cell', { name: connection, exact: true }) })

const tileOf = (page: Page, connection: string): Locator =>
  page.locator(`[data-testid=wall-tile][data-session-id="${desk.office.eventSessionId}"]`).filter({ hasText: connection })

/** The office's line: its name whole (not cut), its figure below the site critical level, in the
 *  critical colour as drawn, inside `box`. */
async function expectOfficeLine(line: Locator, box: Locator, what: string): Promise<void> {
  await expect(line, what).toBeVisible({ timeout: 30_000 })
  await expect(line, what).toHaveAttribute('data-severity', 'critical')
  await expect(line.getByTestId('site-alert-label'), what).toHaveText(OFFICE_NAME)
  await expect(line.getByTestId('site-alert-figure'), what).toHaveText(/^\d+\.\d$/)
  expect(Number(await line.getByTestId('site-alert-figure').textContent()), `${what}: the office's figure`).toBeLessThan(60)
  const paint = await paintOf(line)
  expect(paint.color, `${what} is not drawn in the critical colour`).toBe(paint.critical)
  const label = line.getByTestId('site-alert-label')
  const cut = await label.evaluate((el) => el.scrollWidth > el.clientWidth)
  expect(cut, `${what}: "${OFFICE_NAME}" is cut`).toBe(false)
  const inner = await line.boundingBox()
  const outer = await box.boundingBox()
  expect(inner && outer, `${what} has no box`).toBeTruthy()
  expect(inner!.x >= outer!.x - 0.5 && inner!.x + inner!.width <= outer!.x + outer!.width + 0.5, `${what} leaves its box`).toBe(true)
  expect(inner!.y >= outer!.y - 0.5 && inner!.y + inner!.height <= outer!.y + outer!.height + 0.5, `${what} leaves its box`).toBe(true)
}

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 }
]) {
  const at = `${size.width}x${size.height}`

  test(`at ${at}: the failing office shows by its name on its row, tile, alert and the wall's line; same-named sessions name their connections`, async ({
    page
  }) => {
    test.setTimeout(120_000)
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    await page.setViewportSize(size)
    await page.goto(desk.host.url)
    const name = desk.office.eventName
    expect(desk.falling.eventName, 'the desk has two sessions of one name').toBe(name)

    // Live: Northwind's row keeps its good verdict and shows the office under its score.
    const row = rowOf(page, DESK_CONNECTIONS.office)
    await expect(row).toHaveCount(1, { timeout: 30_000 })
    await expect(row).toHaveAttribute('data-health', 'good')
    await expectOfficeLine(row.getByTestId('site-alert'), row, "Northwind's Live row")
    // Fabrikam's session of the same name has no office in trouble: no line.
    await expect(rowOf(page, DESK_CONNECTIONS.falling).getByTestId('site-alert')).toHaveCount(0)
    await page.mouse.move(0, 0)
    await page.screenshot({ path: `test-results/site-alert-names-live-${at}.png` })

    // Alerts: the site alert's card names the office, no card says "Site <code>", and each of the
    // two same-named sessions' cards names its connection.
    await views(page).getByRole('button', { name: /^Alerts/ }).click()
    const cards = page.getByTestId('open-alerts').getByTestId('alert')
    const siteCard = cards.filter({ has: page.getByRole('heading', { name: 'A site below level' }) })
    await expect(siteCard).toHaveCount(1)
    await expect(siteCard).toContainText(OFFICE_NAME)
    for (const card of await page.getByTestId('alert').all()) await expect(card).not.toContainText(SITE_CODE_WORDS)
    for (const connection of [DESK_CONNECTIONS.falling, DESK_CONNECTIONS.office]) {
      const places = cards.getByTestId('alert-place').filter({ hasText: name })
      await expect(places.filter({ hasText: connection }).first(), `an alert of ${connection}'s "${name}" names its connection`).toBeVisible()
    }
    await page.mouse.move(0, 0)
    await page.screenshot({ path: `test-results/site-alert-names-alerts-${at}.png` })

    // The wall: the tile shows the office as the row did; the line of alerts firing names the
    // office and each same-named session's connection.
    await views(page).getByRole('button', { name: 'Wall mode' }).click()
    const tile = tileOf(page, DESK_CONNECTIONS.office)
    await expect(tile).toBeVisible({ timeout: 30_000 })
    await expectOfficeLine(tile.getByTestId('site-alert'), tile, "Northwind's wall tile")
    const strip = page.getByTestId('wall-firing')
    await expect(strip).toContainText(OFFICE_NAME)
    await expect(strip).not.toContainText(SITE_CODE_WORDS)
    const entries = strip.locator('li').filter({ hasText: name })
    await expect(entries).toHaveCount(2)
    await expect(entries.filter({ hasText: `${name} (${DESK_CONNECTIONS.falling})` })).toHaveCount(1)
    await expect(entries.filter({ hasText: `${name} (${DESK_CONNECTIONS.office})` })).toHaveCount(1)
    await expect(entries.filter({ hasText: `${name} (${DESK_CONNECTIONS.office})` })).toContainText(OFFICE_NAME)
    await page.screenshot({ path: `test-results/site-alert-names-wall-${at}.png` })
    await page.getByRole('button', { name: 'Exit' }).click()
    expect(problems).toEqual([])
  })
}

test("axe-core finds nothing on the office's Live row, the alerts and the wall, in both themes", async ({ page }) => {
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 1366, height: 768 })
  try {
    for (const theme of ['dark', 'light'] as const) {
      await request(desk.host, 'saveSettings', { display: { theme } })
      await page.goto(desk.host.url)
      await expect(rowOf(page, DESK_CONNECTIONS.office).getByTestId('site-alert')).toBeVisible({ timeout: 30_000 })
      expect(await axeViolations(page), `Live (${theme})`).toEqual([])
      await views(page).getByRole('button', { name: /^Alerts/ }).click()
      await expect(page.getByTestId('open-alerts').getByTestId('alert').first()).toBeVisible()
      expect(await axeViolations(page), `Alerts (${theme})`).toEqual([])
      await views(page).getByRole('button', { name: 'Wall mode' }).click()
      await expect(tileOf(page, DESK_CONNECTIONS.office).getByTestId('site-alert')).toBeVisible({ timeout: 30_000 })
      expect(await axeViolations(page), `wall (${theme})`).toEqual([])
      await page.screenshot({ path: `test-results/site-alert-names-wall-${theme}.png` })
      await page.getByRole('button', { name: 'Exit' }).click()
    }
  } finally {
    await request(desk.host, 'saveSettings', { display: { theme: 'dark' } })
  }
})
