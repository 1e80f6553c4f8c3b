// A session with its own reliability levels shows the health those levels give it, as the core
// decides it, on its Live row, its wall tile and its drill-down header, while the other sessions
// keep the app levels and their own health; back to the app levels, it is healthy again.
import { expect, test, type Page } from '@playwright/test'
import type { LiveSession } from '../../src/shared/domain'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { request } from './support/api'
import { watchProblems } from './support/problems'
import { openLive, pausePolling, views } from './support/views'

/** Above any score the demo reports for a healthy session: its own levels make it critical. */
const OWN_LEVELS = { warning: 99.9, critical: 99.8 }

let host: BrowserHost
test.beforeAll(async () => {
  host = await startBrowserHost(['--interval', '2'])
})
test.afterAll(async () => {
  await host?.stop()
})

test.use({ viewport: { width: 1600, height: 900 } })

const liveSessions = async (): Promise<LiveSession[]> => (await request(host, 'listLiveSessions', {})).sessions
const row = (page: Page, id: string) => page.locator(`[data-testid=live-row][data-session-id="${id}"]`)
const tile = (page: Page, id: string) => page.locator(`[data-testid=wall-tile][data-session-id="${id}"]`)

/** Every live session but `targetId` shows the health the core gives it, from the app levels. */
async function expectOthersKeepTheirs(page: Page, targetId: string, where: 'live' | 'wall'): Promise<void> {
  const app = (await request(host, 'getSettings', {})).thresholds
  const others = (await liveSessions()).filter((s) => s.eventSessionId !== targetId)
  expect(others.length).toBeGreaterThan(0)
  for (const other of others) {
    expect(other.levels).toEqual({ ...app, source: 'settings' })
    const face = where === 'live' ? row(page, other.eventSessionId) : tile(page, other.eventSessionId)
    await expect(face.getByTestId('health'), `${other.eventName} on ${where}`).toHaveAttribute('data-health', other.health)
  }
}

test('its own levels decide its health on Live, the wall and the drill-down; reverting brings it back', async ({ page }) => {
  test.setTimeout(90_000)
  const problems = watchProblems(page)
  await openLive(page, host)

  // A healthy session, well below the levels it is about to get.
  let target: LiveSession | undefined
  await expect
    .poll(async () => {
      target = (await liveSessions()).find((s) => s.health === 'good' && s.reliability !== null && s.reliability < 99.5)
      return target?.eventSessionId
    }, { timeout: 30_000 })
    .toBeTruthy()
  const key = { connectionId: target!.connectionId, eventSessionId: target!.eventSessionId }
  const id = key.eventSessionId
  await expect(row(page, id).getByTestId('health')).toHaveAttribute('data-health', 'good')

  await request(host, 'setSessionAlertOverride', { ...key, thresholds: OWN_LEVELS })
  // Live: the row turns critical at once (the board is pushed again) and stays so at the next polls.
  await expect(row(page, id)).toHaveAttribute('data-health', 'critical')
  await expect(row(page, id).getByTestId('health')).toHaveText(/Critical/)
  const polled = await page.getByTestId('last-update').textContent()
  await expect(page.getByTestId('last-update')).not.toHaveText(polled ?? '', { timeout: 15_000 })
  await expect(row(page, id).getByTestId('health')).toHaveAttribute('data-health', 'critical')
  const own = (await liveSessions()).find((s) => s.eventSessionId === id)
  expect(own?.levels).toEqual({ ...OWN_LEVELS, source: 'session' })
  expect(own?.health).toBe('critical')

  // Held still from here, so every face can be compared with the core's verdicts.
  await pausePolling(page, host)
  await expectOthersKeepTheirs(page, id, 'live')
  await page.mouse.move(0, 0)
  await page.screenshot({ path: 'test-results/session-levels-live.png', fullPage: true })

  await views(page).getByRole('button', { name: 'Wall mode' }).click()
  await expect(tile(page, id).getByTestId('health')).toHaveAttribute('data-health', 'critical')
  await expect(tile(page, id).getByTestId('health')).toHaveText(/Critical/)
  await expectOthersKeepTheirs(page, id, 'wall')
  await page.screenshot({ path: 'test-results/session-levels-wall.png' })
  await page.getByRole('button', { name: 'Exit' }).click()

  // The drill-down says the health and whose levels gave it.
  await row(page, id).locator('.event').click()
  const reliability = page.getByTestId('session-reliability')
  await expect(reliability).toHaveAttribute('data-health', 'critical')
  await expect(reliability).toContainText(/critical/i)
  await expect(page.getByTestId('session-levels')).toHaveText(/warning < 99\.9, critical < 99\.8\s*\(this session's own levels\)/)
  await page.mouse.move(0, 0)
  await page.screenshot({ path: 'test-results/session-levels-drilldown.png' })

  // Back to the app levels: healthy again on every face.
  await request(host, 'setSessionAlertOverride', { ...key, thresholds: null })
  await expect(reliability).toHaveAttribute('data-health', 'good')
  await expect(page.getByTestId('session-levels')).toHaveText(/warning < 95, critical < 90\s*\(the app levels\)/)
  await page.keyboard.press('Escape')
  await expect(row(page, id)).toHaveAttribute('data-health', 'good')
  await expect(row(page, id).getByTestId('health')).toHaveText(/Good/)
  await views(page).getByRole('button', { name: 'Wall mode' }).click()
  await expect(tile(page, id).getByTestId('health')).toHaveAttribute('data-health', 'good')
  await page.getByRole('button', { name: 'Exit' }).click()
  expect((await liveSessions()).find((s) => s.eventSessionId === id)?.levels.source).toBe('settings')

  await request(host, 'setPaused', { paused: false })
  expect(problems).toEqual([])
})
