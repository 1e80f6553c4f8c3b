// The first screen, end to end: demo simulator -> poller -> SQLite -> browser host -> Chromium.
import { expect, test } from '@playwright/test'
import { startBrowserHost, type BrowserHost } from './browser-host'

let host: BrowserHost

test.beforeAll(async () => {
  host = await startBrowserHost(['--interval', '1'])
})

test.afterAll(async () => {
  await host?.stop()
})

test('shows the demo live sessions and their viewer counts change over time', async ({ page }) => {
  test.setTimeout(90_000)
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })

  await page.goto(host.url)
  await expect(page.getByText('Demo data', { exact: true })).toBeVisible()

  const rows = page.getByTestId('live-row')
  await expect(rows.first()).toBeVisible({ timeout: 30_000 })
  expect(await rows.count()).toBeGreaterThan(0)
  await expect(page.getByTestId('last-update')).toContainText('Last update')

  // Every row shows a name, a viewer count and a reliability score.
  for (const row of await rows.all()) {
    await expect(row.locator('.event')).not.toBeEmpty()
    await expect(row.getByTestId('viewers')).toHaveText(/\d/)
    await expect(row.getByTestId('reliability')).toHaveText(/\d+\.\d/)
  }

  const viewerCounts = async (): Promise<Record<string, string>> => {
    const counts: Record<string, string> = {}
    for (const row of await rows.all()) {
      const id = (await row.getAttribute('data-session-id')) ?? ''
      counts[id] = ((await row.getByTestId('viewers').textContent()) ?? '').replace(/[^\d]/g, '')
    }
    return counts
  }
  const before = await viewerCounts()
  await expect
    .poll(
      async () => {
        const now = await viewerCounts()
        return Object.keys(now).some((id) => before[id] !== undefined && now[id] !== before[id])
      },
      { timeout: 30_000, intervals: [1000] }
    )
    .toBe(true)

  await page.screenshot({ path: 'test-results/live-sessions.png', fullPage: true })
  expect(problems).toEqual([])
})

test('the rows can be re-sorted and trouble-first puts the worst reliability on top', async ({ page }) => {
  await page.goto(host.url)
  const rows = page.getByTestId('live-row')
  await expect(rows.first()).toBeVisible({ timeout: 30_000 })

  const scores = async (): Promise<number[]> =>
    (await page.getByTestId('reliability').locator('.score').allTextContents()).map(Number)
  const trouble = await scores()
  expect(trouble).toEqual([...trouble].sort((a, b) => a - b))

  await page.getByRole('button', { name: /Viewers now/ }).click()
  const viewers = (await page.getByTestId('viewers').allTextContents()).map((t) => Number(t.replace(/[^\d]/g, '')))
  expect(viewers).toEqual([...viewers].sort((a, b) => b - a))
})

test('polling can be paused and resumed from the header', async ({ page }) => {
  await page.goto(host.url)
  await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: 'Pause polling' }).click()
  await expect(page.getByTestId('poll-state')).toHaveText('Paused')
  await expect(page.getByRole('button', { name: 'Refresh now' })).toBeDisabled()
  // While paused, the numbers stand still.
  const frozen = await page.getByTestId('viewers').allTextContents()
  await page.waitForTimeout(2500)
  expect(await page.getByTestId('viewers').allTextContents()).toEqual(frozen)
  await page.getByRole('button', { name: 'Resume polling' }).click()
  await expect(page.getByTestId('poll-state')).toHaveText(/Live \(demo\)/, { timeout: 15_000 })
})
