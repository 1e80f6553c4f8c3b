// Every screen checked by axe-core as an operator reaches it (issue 14): no violation of its
// WCAG A/AA and best-practice rules on Live, Alerts, History, Settings, Diagnostics, a session's
// drill-down with a viewer's details open, and the wall.
import { expect, test, type Page } from '@playwright/test'
import { axeViolations } from './support/axe'
import { browserHostForFile } from './browser-host'
import { openFirstLiveSession } from './support/session'

const browserHost = browserHostForFile(['--interval', '2'])
test.use({ viewport: { width: 1600, height: 900 } })

async function expectNoViolations(page: Page, screen: string): Promise<void> {
  expect(await axeViolations(page), screen).toEqual([])
}

test('no screen has an axe violation', async ({ page }) => {
  await page.goto(browserHost().url)
  await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
  await expectNoViolations(page, 'Live')
  const views = page.getByRole('navigation', { name: 'Views' })
  for (const [name, ready] of [
    ['Alerts', 'Alerts'],
    ['History', 'Past sessions'],
    ['Settings', 'Settings'],
    ['Diagnostics', 'Diagnostics']
  ] as const) {
    await views.getByRole('button', { name }).click()
    await expect(page.getByRole('heading', { name: ready, exact: false }).first()).toBeVisible()
    await page.waitForTimeout(300) // lists settle
    await expectNoViolations(page, name)
  }
  await views.getByRole('button', { name: 'Live' }).click()
  await openFirstLiveSession(page)
  await expect(page.getByTestId('viewer-row').first().locator('.id')).toBeVisible({ timeout: 40_000 })
  await expectNoViolations(page, 'drill-down')
  await page.getByTestId('viewer-row').first().click()
  await expect(page.getByRole('dialog')).toBeVisible()
  await expectNoViolations(page, 'viewer detail')
  await page.keyboard.press('Escape')
  await page.goto(`${browserHost().url}#wall`)
  await expect(page.getByTestId('wall-tile').first()).toBeVisible({ timeout: 30_000 })
  await expectNoViolations(page, 'wall')
})
