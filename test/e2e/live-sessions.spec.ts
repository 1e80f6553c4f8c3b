// The first screen, end to end: demo simulator -> poller -> SQLite -> browser host -> Chromium.
import { expect, test, type Page } from '@playwright/test'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { watchProblems } from './support/problems'

let host: BrowserHost

test.beforeAll(async () => {
  host = await startBrowserHost(['--interval', '1'])
})

test.afterAll(async () => {
  await host?.stop()
})

test('shows the demo live sessions and their viewer counts change over time', async ({ page }) => {
  test.setTimeout(90_000)
  const problems = watchProblems(page)

  await page.goto(host.url)
  // The header's badge (the situation's line may name "Demo data" too, in an element of its own).
  await expect(page.getByRole('banner').getByTitle(/^No connection is configured/)).toHaveText('Demo data')

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

const HEALTH_RANK: Record<string, number> = { critical: 0, warning: 1, unknown: 2, good: 3 }
const viewerNumbers = async (page: Page): Promise<number[]> =>
  (await page.getByTestId('viewers').allTextContents()).map((t) => Number(t.replace(/[^\d]/g, '')))

test('the rows can be re-sorted and trouble-first puts critical and warning on top, biggest audience first', async ({ page }) => {
  await page.goto(host.url)
  const rows = page.getByTestId('live-row')
  await expect(rows.first()).toBeVisible({ timeout: 30_000 })
  // Pause so the numbers hold still while we compare orders.
  await page.getByRole('button', { name: 'Pause polling' }).click()
  await expect(page.getByTestId('poll-state')).toHaveText('Paused')

  const healths = (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-health') ?? ''))).map((h) => HEALTH_RANK[h] ?? 9)
  const viewers = await viewerNumbers(page)
  expect(healths).toEqual([...healths].sort((a, b) => a - b))
  for (let i = 1; i < healths.length; i++) {
    if (healths[i] === healths[i - 1]) expect(viewers[i]).toBeLessThanOrEqual(viewers[i - 1] ?? Infinity)
  }
  await expect(page.getByRole('button', { name: 'Trouble first' })).toHaveAttribute('aria-pressed', 'true')

  const viewersHeader = page.getByRole('columnheader', { name: /Viewers now/ })
  await expect(viewersHeader).toHaveAttribute('aria-sort', 'none')
  await page.getByRole('button', { name: /Viewers now/ }).click()
  await expect(viewersHeader).toHaveAttribute('aria-sort', 'descending')
  const descending = await viewerNumbers(page)
  expect(descending).toEqual([...descending].sort((a, b) => b - a))

  // Keyboard: the header buttons sort too, and a second press reverses.
  await page.getByRole('button', { name: /Viewers now/ }).focus()
  await page.keyboard.press('Enter')
  await expect(viewersHeader).toHaveAttribute('aria-sort', 'ascending')
  const ascending = await viewerNumbers(page)
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b))

  await page.getByRole('button', { name: /^Event/ }).click()
  await expect(page.getByRole('columnheader', { name: /^Event/ })).toHaveAttribute('aria-sort', 'ascending')
  const names = await page.locator('[data-testid=live-row] .event').allTextContents()
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)))

  await page.getByRole('button', { name: 'Resume polling' }).click()
})

test('every row has sparklines with a summary, a state word, traffic rate, offload share and poll age', async ({ page }) => {
  test.setTimeout(60_000)
  await page.setViewportSize({ width: 1600, height: 900 })
  await page.goto(host.url)
  const rows = page.getByTestId('live-row')
  await expect(rows.first()).toBeVisible({ timeout: 30_000 })
  // Trends arrive shortly after the rows; with a poll a second there are soon two snapshots.
  await expect(rows.first().locator('[data-testid=sparkline] polyline').first()).toBeVisible({ timeout: 15_000 })
  await expect(rows.first().getByTestId('rate')).toHaveText(/\/s$/, { timeout: 15_000 })

  for (const row of await rows.all()) {
    await expect(row.getByRole('img', { name: /^viewers over the last hour: [\d,]+( to [\d,]+)?$/ })).toBeVisible()
    await expect(row.getByRole('img', { name: /^reliability over the last hour: / })).toBeVisible()
    await expect(row.getByTestId('health')).toHaveText(/Good|Warning|Critical|Unknown/)
    await expect(row.getByTestId('offload')).toHaveText(/^\d+ %$|^—$/)
    await expect(row.getByTestId('last-poll')).toHaveText(/ago|never/)
  }
  await page.screenshot({ path: 'test-results/live.png', fullPage: true })
})

test('sessions in trouble come first and say their state in words; a session not polled lately says stale', async ({ page }) => {
  // The demo is healthy; make two of its sessions unhealthy (the core's verdicts, as it hands them
  // out) and one stale on the way to the page. Pushes carry live rows and would replace these at the
  // next poll, so the push stream is held back: the page shows the board as read.
  await page.route('**/api/events', (route) => route.abort())
  await page.route('**/api/request/listLiveSessions', async (route) => {
    const response = await route.fetch()
    type Row = { reliability: number | null; health: string; lastPolledAt: string | null }
    const body = (await response.json()) as { ok: boolean; value: { revision: number; sessions: Row[] } }
    const [first, second, third, ...rest] = body.value.sessions
    // The demo's own random incidents must not put another session in trouble beside these two.
    for (const session of [third, ...rest]) if (session) Object.assign(session, { reliability: 99.5, health: 'good' })
    if (first) Object.assign(first, { reliability: 82.5, health: 'critical' })
    if (second) Object.assign(second, { reliability: 93.1, health: 'warning' })
    if (third) third.lastPolledAt = new Date(Date.now() - 10 * 60_000).toISOString()
    await route.fulfill({ response, json: body })
  })
  await page.setViewportSize({ width: 1600, height: 900 })
  await page.goto(host.url)
  const rows = page.getByTestId('live-row')
  await expect(rows.first()).toBeVisible({ timeout: 30_000 })
  await expect(rows.nth(0).getByTestId('health')).toHaveText(/Critical/)
  await expect(rows.nth(0).getByTestId('reliability')).toContainText('82.5')
  await expect(rows.nth(1).getByTestId('health')).toHaveText(/Warning/)
  await expect(rows.nth(1).getByTestId('reliability')).toContainText('93.1')
  await expect(page.getByTestId('last-poll').filter({ hasText: /stale/i })).toHaveCount(1)
  await expect(page.getByTestId('last-poll').filter({ hasText: /stale/i })).toContainText('10 min ago')
  await page.screenshot({ path: 'test-results/live-trouble.png', fullPage: true })
})

test('a row opens its drill-down by click and by Enter, and Esc comes back to the table', async ({ page }) => {
  await page.goto(host.url)
  const rows = page.getByTestId('live-row')
  await expect(rows.first()).toBeVisible({ timeout: 30_000 })

  const openAndCheck = async (how: 'click' | 'enter', index: number): Promise<void> => {
    const row = rows.nth(index)
    const id = (await row.getAttribute('data-session-id')) ?? ''
    const name = (await row.locator('.event').textContent()) ?? ''
    if (how === 'click') await row.locator('.event').click()
    else {
      await row.focus()
      await page.keyboard.press('Enter')
    }
    await expect(page.getByTestId('live-table')).toHaveCount(0)
    await expect(page.getByRole('button', { name: /Back/ }).first()).toBeVisible()
    const escaped = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    await expect(page.locator('main')).toContainText(new RegExp(`${escaped(id)}|${escaped(name)}`))
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('live-table')).toBeVisible()
  }
  await openAndCheck('click', 0)
  await openAndCheck('enter', 1)
  // Focus returns to the row that was opened, so the keyboard user keeps their place.
  await expect(page.locator('[data-testid=live-row]:focus')).toHaveCount(1)
})

test('first paint of the live screen from the cache', async ({ page }) => {
  // One visit fills the cache (and the browser's cache of the page); the next paint is measured.
  await page.goto(host.url)
  await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
  await page.reload()
  const handle = await page.waitForFunction(
    "document.querySelector('[data-testid=live-row]') ? performance.now() : null",
    undefined,
    { polling: 'raf', timeout: 30_000 }
  )
  const ms = Math.round(Number(await handle.jsonValue()))
  console.log(`perf: live first paint ${ms} ms (goal < 1000 ms)`)
  expect(ms).toBeGreaterThan(0)
})

test('polling can be paused and resumed from the header', async ({ page }) => {
  await page.goto(host.url)
  await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: 'Pause polling' }).click()
  await expect(page.getByTestId('poll-state')).toHaveText('Paused')
  await expect(page.getByRole('button', { name: 'Refresh now' })).toBeDisabled()
  // While paused, the numbers stand still (once the unit of work in hand when pausing has landed).
  await page.waitForTimeout(2000)
  const frozen = await page.getByTestId('viewers').allTextContents()
  await page.waitForTimeout(2500)
  expect(await page.getByTestId('viewers').allTextContents()).toEqual(frozen)
  await page.getByRole('button', { name: 'Resume polling' }).click()
  await expect(page.getByTestId('poll-state')).toHaveText(/Live \(demo\)/, { timeout: 15_000 })
})
