// The drill-down's viewer filter and the Esc key (issue 24, item 4): Esc empties the box AND the
// filter, so the table shows every viewer again (it used to empty the box and keep the table
// filtered, or empty).
import { expect, test, type Page } from '@playwright/test'
import { browserHostForFile } from './browser-host'
import { request } from './support/api'
import { watchProblems } from './support/problems'
import { openFirstLiveSession, viewerTotal } from './support/session'

const browserHost = browserHostForFile(['--interval', '2'])
test.use({ viewport: { width: 1600, height: 900 } })

const filterBox = (page: Page) => page.getByRole('searchbox', { name: 'Filter viewers by text' })

test('Esc in the viewer filter clears the box and the filter: every viewer shows again', async ({ page }) => {
  test.setTimeout(90_000)
  const problems = watchProblems(page)
  await page.goto(browserHost().url)
  await openFirstLiveSession(page)
  await expect(page.getByTestId('viewer-row').first().locator('.id')).toBeVisible({ timeout: 40_000 })
  // Held still: no newer viewer list changes the count under the test.
  await request(browserHost(), 'setPaused', { paused: true })
  await page.waitForTimeout(2500)
  const everyone = await viewerTotal(page)
  expect(everyone).toBeGreaterThan(0)

  // A filter that matches nobody empties the table.
  await filterBox(page).fill('no-such-viewer-anywhere')
  await expect.poll(() => viewerTotal(page)).toBe(0)
  await expect(page.getByText('No viewer matches this filter.')).toBeVisible()

  await filterBox(page).press('Escape')
  await expect(filterBox(page)).toHaveValue('')
  await expect.poll(() => viewerTotal(page)).toBe(everyone)
  await expect(page.getByText('No viewer matches this filter.')).toHaveCount(0)
  await expect(page.getByTestId('viewer-row').first().locator('.id')).toBeVisible()

  // A filter that matches some, then Esc: all of them again, and the drill-down stays open.
  const firstId = (await page.getByTestId('viewer-row').first().locator('.id').textContent()) ?? ''
  await filterBox(page).fill(firstId)
  await expect.poll(() => viewerTotal(page)).toBeLessThan(everyone)
  await filterBox(page).press('Escape')
  await expect.poll(() => viewerTotal(page)).toBe(everyone)
  await expect(page.getByTestId('viewer-table')).toBeVisible()
  expect(problems).toEqual([])
})

test('Esc in the History search clears the box and the search: every past session shows again', async ({ page }) => {
  const problems = watchProblems(page)
  await page.goto(`${browserHost().url}#history`)
  const total = page.getByTestId('history-total')
  await expect(page.getByTestId('history-row').first()).toBeVisible({ timeout: 30_000 })
  const all = (await total.textContent()) ?? ''
  const search = page.locator('[data-search]')
  await search.fill('no-such-session-anywhere')
  await expect(total).toHaveText('0')
  await search.press('Escape')
  await expect(search).toHaveValue('')
  await expect(total).toHaveText(all)
  await expect(page.getByTestId('history-row').first()).toBeVisible()
  expect(problems).toEqual([])
})
