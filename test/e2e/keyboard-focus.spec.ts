// The keyboard and focus (issue 14): a skip link past Live's sort buttons, the arrow keys in the
// breakdown tabs, and focus back where the operator was after closing a viewer's details and
// after leaving the wall.
import { expect, test } from '@playwright/test'
import { browserHostForFile } from './browser-host'
import { openFirstLiveSession } from './support/session'

const browserHost = browserHostForFile(['--interval', '2'])
test.use({ viewport: { width: 1600, height: 900 } })

test('a skip link takes the keyboard past the sort buttons to the first session', async ({ page }) => {
  await page.goto(browserHost().url)
  await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
  const skip = page.getByRole('link', { name: 'Skip the sort buttons to the sessions' })
  await skip.focus()
  await expect(skip).toBeVisible() // shown once focused
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('live-row').first()).toBeFocused()
})

test('the breakdown tabs follow the arrow keys, Home and End', async ({ page }) => {
  await page.goto(browserHost().url)
  await openFirstLiveSession(page)
  const tab = (name: string) => page.getByRole('tab', { name })
  await tab('Site').focus()
  await page.keyboard.press('ArrowRight')
  await expect(tab('Device type')).toBeFocused()
  await expect(tab('Device type')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('End')
  await expect(tab('Connection type')).toBeFocused()
  await page.keyboard.press('ArrowRight') // wraps round
  await expect(tab('Site')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('ArrowLeft')
  await expect(tab('Connection type')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Home')
  await expect(tab('Site')).toBeFocused()
  // Only the selected tab is in the Tab order.
  await expect(tab('Device type')).toHaveAttribute('tabindex', '-1')
})

test('closing a viewer\'s details gives focus back to its row; leaving the wall, to the Wall mode button', async ({ page }) => {
  await page.goto(browserHost().url)
  await openFirstLiveSession(page)
  const row = page.getByTestId('viewer-row').nth(2)
  await expect(row.locator('.id')).toBeVisible({ timeout: 40_000 })
  await row.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(row).toBeFocused()

  await page.getByRole('button', { name: 'Wall mode' }).click()
  await expect(page.getByTestId('wall')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('button', { name: 'Wall mode' })).toBeFocused()
})
