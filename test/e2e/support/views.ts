// Getting about the page as an operator does, and holding it still for a comparison.
import { expect, type Locator, type Page } from '@playwright/test'
import type { BrowserHost } from '../browser-host'
import { request } from './api'

/** The views' bar: Live, Alerts, History, Settings, Diagnostics, Wall mode. */
export const views = (page: Page): Locator => page.getByRole('navigation', { name: 'Views' })

/** Opens the host's page and waits for the first live row. */
export async function openLive(page: Page, host: BrowserHost): Promise<void> {
  await page.goto(host.url)
  await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
}

/**
 * Pauses polling through the app API and waits until the page says so: from then on nothing
 * changes, so what the page shows can be compared with what the core answers.
 */
export async function pausePolling(page: Page, host: BrowserHost): Promise<void> {
  await request(host, 'setPaused', { paused: true })
  await expect(page.getByTestId('poll-state')).toHaveText('Paused')
}
