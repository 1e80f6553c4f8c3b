// An operator's pause holds across a restart of the host (issue 25: the pause flag is a row of
// the cache, not a flag in one process's memory). The browser host is started twice on one cache
// file; the second reads the pause and starts its poller paused, and the header says so.
import { expect, test } from '@playwright/test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startBrowserHost } from './browser-host'

test('polling paused stays paused when the host restarts on the same cache', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-e2e-pause-'))
  const db = join(dir, 'cache.db')
  try {
    const first = await startBrowserHost(['--db', db])
    try {
      await page.goto(first.url)
      await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
      await page.getByRole('button', { name: 'Pause polling' }).click()
      await expect(page.getByTestId('poll-state')).toHaveText('Paused')
    } finally {
      await first.stop()
    }

    const second = await startBrowserHost(['--db', db])
    try {
      await page.goto(second.url)
      // The rows of the last poll before the restart, and nothing polled since: paused.
      await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
      await expect(page.getByTestId('poll-state')).toHaveText('Paused')
      await expect(page.getByRole('button', { name: 'Resume polling' })).toBeVisible()
      // Nothing polled since the restart: paused, not "waiting for the first poll".
      await expect(page.getByTestId('header-alerts')).toContainText('paused')
      await expect(page.getByTestId('header-alerts')).not.toContainText('waiting')
      await expect(page.getByTestId('last-update')).toContainText('Polling is paused; showing cached data of')
      await page.screenshot({ path: 'test-results/pause-after-restart.png' })
      await page.getByRole('button', { name: 'Resume polling' }).click()
      await expect(page.getByTestId('poll-state')).toHaveText(/Live \(demo\)/, { timeout: 15_000 })
    } finally {
      await second.stop()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
