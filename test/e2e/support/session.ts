// Opening a session's drill-down from the Live table, as an operator does.
import { expect, type Page } from '@playwright/test'

/** Clicks the first live session (Enter on it if a click does not open it) and waits for the drill-down. */
export async function openFirstLiveSession(page: Page): Promise<void> {
  const row = page.getByTestId('live-row').first()
  await expect(row).toBeVisible({ timeout: 30_000 })
  await row.click()
  const opened = page.getByTestId('viewer-table')
  try {
    await expect(opened).toBeVisible({ timeout: 5_000 })
  } catch {
    await page.getByTestId('live-row').first().focus()
    await page.keyboard.press('Enter')
    await expect(opened).toBeVisible({ timeout: 5_000 })
  }
}

/** Where the viewer table says how many viewers match. */
export async function viewerTotal(page: Page): Promise<number> {
  return Number(((await page.getByTestId('viewer-total').textContent()) ?? '').replace(/[^\d]/g, ''))
}
