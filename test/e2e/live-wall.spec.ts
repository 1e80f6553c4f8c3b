// Wall mode: big tiles for a screen across the room, the connection state always in view,
// and Esc (or Exit) back to the live table.
import { expect, test } from '@playwright/test'
import { startBrowserHost, type BrowserHost } from './browser-host'

let host: BrowserHost

test.beforeAll(async () => {
  host = await startBrowserHost(['--interval', '1'])
})

test.afterAll(async () => {
  await host?.stop()
})

test('wall mode shows one tile per live session with state words, and Esc leaves it', async ({ page }) => {
  test.setTimeout(60_000)
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  await page.setViewportSize({ width: 1920, height: 1080 })
  await page.goto(host.url)
  const rows = page.getByTestId('live-row')
  await expect(rows.first()).toBeVisible({ timeout: 30_000 })
  const liveCount = await rows.count()

  await page.getByRole('button', { name: 'Wall mode' }).click()
  const tiles = page.getByTestId('wall-tile')
  await expect(tiles.first()).toBeVisible()
  expect(await tiles.count()).toBe(liveCount)
  // No chrome: the view tabs and the header are gone.
  await expect(page.getByRole('navigation', { name: 'Views' })).toHaveCount(0)
  await expect(page.getByTestId('wall-status')).toContainText(/Live \(demo\)|Paused|Stale|Offline|Connecting/)
  await expect(page.getByTestId('wall-status')).toContainText(/updated \d+ (s|min) ago|Waiting/)

  for (const tile of await tiles.all()) {
    await expect(tile.locator('h2')).not.toBeEmpty()
    await expect(tile.getByTestId('wall-viewers')).toHaveText(/\d/)
    await expect(tile.getByTestId('wall-reliability')).toHaveText(/\d+\.\d/)
    await expect(tile.getByTestId('health')).toHaveText(/Good|Warning|Critical|Unknown/)
    await expect(tile.getByTestId('wall-offload')).toHaveText(/\d+ %|—/)
  }
  // Readable from across the room: the numbers are big.
  await expect(tiles.first().getByTestId('wall-viewers')).toHaveCSS('font-size', /^(4[89]|[5-9]\d|\d{3})(\.\d+)?px$/)

  // Cycling highlights one session at a time.
  const cycle = page.getByRole('button', { name: /Cycle/ })
  await expect(cycle).toHaveAttribute('aria-pressed', 'false')
  await cycle.click()
  await expect(cycle).toHaveAttribute('aria-pressed', 'true')
  if (liveCount >= 3) await expect(page.locator('[data-testid=wall-tile].featured')).toHaveCount(1)
  await page.screenshot({ path: 'test-results/wall-cycle.png' })
  await cycle.click()
  await expect(page.locator('[data-testid=wall-tile].featured')).toHaveCount(0)

  await expect(tiles.first().getByRole('img', { name: /^viewers over the last hour: [\d,]+ to [\d,]+$/ })).toBeVisible({ timeout: 15_000 })
  await page.screenshot({ path: 'test-results/wall.png' })

  await page.keyboard.press('Escape')
  await expect(page.getByTestId('wall')).toHaveCount(0)
  await expect(page.getByTestId('live-table')).toBeVisible()
  expect(problems).toEqual([])
})

test('the Exit button leaves wall mode', async ({ page }) => {
  await page.goto(host.url)
  await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: 'Wall mode' }).click()
  await expect(page.getByTestId('wall-tile').first()).toBeVisible()
  await page.getByRole('button', { name: 'Exit' }).click()
  await expect(page.getByTestId('wall')).toHaveCount(0)
  await expect(page.getByTestId('live-table')).toBeVisible()
})

test('a stale or paused wall says so in its status line', async ({ page }) => {
  await page.goto(host.url)
  await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: 'Pause polling' }).click()
  await page.getByRole('button', { name: 'Wall mode' }).click()
  await expect(page.getByTestId('wall-status')).toContainText('Paused')
  await page.getByRole('button', { name: 'Exit' }).click()
  await page.getByRole('button', { name: 'Resume polling' }).click()
  await expect(page.getByTestId('poll-state')).toHaveText(/Live \(demo\)/, { timeout: 15_000 })
})
