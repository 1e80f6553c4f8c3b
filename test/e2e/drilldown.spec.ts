/// <reference lib="dom" />
// A session's drill-down, end to end: the demo simulator -> poller -> SQLite -> browser host ->
// Chromium. Charts, breakdowns filtering the virtual viewer table, sorting, a viewer's details,
// a CSV export; then the same table with 100,000 viewers, its speed printed (never asserted).
import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { watchProblems } from './support/problems'
import { openFirstLiveSession, viewerTotal } from './support/session'
import { startSimulator, type Simulator } from './support/simulator'

test.use({ viewport: { width: 1600, height: 900 } })

test.describe('drill-down on demo data', () => {
  let host: BrowserHost
  test.beforeAll(async () => {
    host = await startBrowserHost(['--interval', '2'])
  })
  test.afterAll(async () => {
    await host?.stop()
  })

  test('charts, breakdown filter, sort, viewer details and a CSV export', async ({ page }) => {
    test.setTimeout(150_000)
    const problems = watchProblems(page)
    await page.goto(host.url)
    await openFirstLiveSession(page)
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(/Loading/)
    await expect(page.getByTestId('session-state')).toHaveText(/Live|Ended/)

    // Three charts, drawn on canvas, with exact values in the legend under the pointer.
    for (const id of ['chart-viewers', 'chart-reliability', 'chart-traffic']) {
      const chart = page.getByTestId(id)
      await expect(chart.locator('canvas')).toBeVisible({ timeout: 40_000 })
      await chart.locator('.u-over').hover({ position: { x: 200, y: 60 } })
      await expect(chart.locator('.u-legend .u-series').nth(0).locator('.u-value')).toHaveText(/\d\d:\d\d:\d\d/)
      await expect(chart.locator('.u-legend .u-series').nth(1).locator('.u-value')).toHaveText(/\d/)
    }

    // Viewers arrive with the first viewer-list poll.
    await expect(page.getByTestId('viewer-row').first().locator('.id')).toBeVisible({ timeout: 40_000 })
    const all = await viewerTotal(page)
    expect(all).toBeGreaterThan(0)
    // Who is still watching, beside everyone ever in the list: the table follows the toggle.
    const watchingButton = page.getByTestId('show-watching')
    await expect(watchingButton).toBeVisible()
    const watching = Number(((await watchingButton.locator('.n').textContent()) ?? '').replace(/[^\d]/g, ''))
    expect(watching).toBeGreaterThan(0)
    await watchingButton.click()
    await expect.poll(() => viewerTotal(page)).toBe(watching)
    await page.getByTestId('show-everyone').click()
    await expect.poll(() => viewerTotal(page)).toBe(all)
    // A few more polls, so the screenshot shows lines rather than two points.
    await expect
      .poll(async () => Number(await page.getByTestId('chart-note').getAttribute('data-snapshots')), {
        timeout: 30_000
      })
      .toBeGreaterThanOrEqual(6)
    await page.mouse.move(0, 0)
    await page.screenshot({ path: 'test-results/drilldown.png', fullPage: true })
    // A laptop's screen: the charts' time labels must not run together (look at the screenshot).
    const viewport = page.viewportSize()!
    await page.setViewportSize({ width: 1366, height: 768 })
    await page.waitForTimeout(300) // the charts resize on the next frame
    await page.screenshot({ path: 'test-results/drilldown-1366.png' })
    await page.setViewportSize(viewport)

    // A breakdown row filters the table; the filter shows as a removable chip.
    await page.getByRole('tab', { name: 'Device type' }).click()
    const group = page.getByTestId('breakdown-row').first()
    await expect(group).toBeVisible()
    const groupSize = Number(((await group.locator('td').nth(1).textContent()) ?? '').replace(/[^\d]/g, ''))
    await group.click()
    await expect(page.getByTestId('filter-chip')).toContainText('Device type')
    await expect.poll(() => viewerTotal(page)).toBeLessThan(all)
    expect(await viewerTotal(page)).toBeGreaterThan(0)
    expect(groupSize).toBeGreaterThan(0)
    await page.getByRole('button', { name: /Remove the Device type filter/ }).click()
    await expect(page.getByTestId('filter-chip')).toHaveCount(0)

    // Sort by site, biggest first: the visible rows follow it.
    await page.getByRole('columnheader', { name: 'Site' }).getByRole('button').click()
    await expect(page.getByRole('columnheader', { name: 'Site' })).toHaveAttribute('aria-sort', 'descending')
    await expect(page.getByTestId('viewer-row').first().locator('.id')).toBeVisible()
    const sites = (await page.getByTestId('viewer-row').locator('[role=cell]:nth-child(5)').allTextContents())
      .slice(0, 15)
      .map((t) => (t === '—' ? -1 : Number(t)))
    expect(sites.length).toBeGreaterThan(1)
    expect(sites).toEqual([...sites].sort((a, b) => b - a))

    // A viewer's details, its network connection included; Esc closes only the panel.
    await page.getByTestId('viewer-row').first().click()
    const detail = page.getByTestId('viewer-detail')
    await expect(detail).toBeVisible()
    const connection = detail.getByTestId('network-connection').first()
    await expect(connection).toContainText('Public IP')
    await expect(connection).toContainText(/\d+\.\d+\.\d+\.\d+/)
    await page.screenshot({ path: 'test-results/viewer-detail.png' })
    await page.keyboard.press('Escape')
    await expect(detail).toHaveCount(0)
    await expect(page.getByTestId('viewer-table')).toBeVisible()

    // Export every viewer as CSV: a header, then one line per viewer.
    const panel = page.getByTestId('export-panel')
    await panel.getByRole('combobox').nth(0).selectOption('viewers')
    await panel.getByRole('combobox').nth(1).selectOption('csv')
    const download = page.waitForEvent('download')
    await panel.getByRole('button', { name: 'Export viewers' }).click()
    const file = await (await download).path()
    expect((await download).suggestedFilename()).toMatch(/-viewers-\d{4}-\d\d-\d\d\.csv$/)
    const lines = readFileSync(file, 'utf8').split('\r\n').filter((l) => l !== '')
    expect(lines[0]).toMatch(/^viewerId,/)
    const saved = Number(((await panel.getByRole('status').textContent()) ?? '').match(/([\d,]+) records?/)?.[1]?.replace(/,/g, ''))
    expect(saved).toBeGreaterThan(0)
    expect(lines.length).toBe(saved + 1)
    await page.screenshot({ path: 'test-results/export.png' })

    expect(problems).toEqual([])
  })
})

test.describe('drill-down with 100,000 viewers', () => {
  let simulator: Simulator
  let host: BrowserHost
  test.beforeAll(async () => {
    test.setTimeout(120_000)
    // --viewers is a typical peak audience; with this seed the one live session has 110,000–140,000.
    simulator = await startSimulator(['--live', '1', '--viewers', '170000', '--seed', '5'])
    host = await startBrowserHost(simulator.hostArgs, { EVENTWATCH_CLIENT_SECRET: simulator.clientSecret })
  })
  test.afterAll(async () => {
    await host?.stop()
    await simulator?.stop()
  })

  test('the viewer table opens fast and scrolls smoothly (figures printed)', async ({ page }) => {
    test.setTimeout(300_000)
    const problems = watchProblems(page)
    await page.goto(host.url)
    await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 60_000 })

    // Wait until the session's 100,000 and more viewers are in the cache.
    const viewersCached = (): Promise<number> =>
      page.evaluate(async () => {
        const post = async (name: string, args: unknown): Promise<{ ok: boolean; value: unknown }> =>
          (await fetch(`/api/request/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(args) })).json()
        const { sessions } = (await post('listLiveSessions', {})).value as { sessions: { connectionId: string; eventSessionId: string }[] }
        const first = sessions[0]
        if (!first) return 0
        const page = await post('viewerPage', { connectionId: first.connectionId, eventSessionId: first.eventSessionId, sort: 'reliabilityScore', limit: 1 })
        return page.ok ? (page.value as { total: number }).total : 0
      })
    await expect.poll(viewersCached, { timeout: 240_000, intervals: [2000] }).toBeGreaterThanOrEqual(100_000)
    const cached = await viewersCached()

    // From the click to the first rows on screen and the page answering input again.
    const interactiveMs = await page.evaluate(async () => {
      const row = document.querySelector<HTMLElement>('[data-testid="live-row"]')!
      const start = performance.now()
      row.click()
      await new Promise<void>((done) => {
        const look = (): void => {
          if (document.querySelector('[data-testid="viewer-row"] .id')) done()
          else requestAnimationFrame(look)
        }
        look()
      })
      // Accepting input: a task queued now runs once the main thread is free.
      await new Promise((done) => setTimeout(done, 0))
      return performance.now() - start
    })
    console.log(`perf: ${cached} viewers interactive ${Math.round(interactiveMs)} ms (goal < 500 ms)`)
    await expect(page.getByTestId('viewer-row').first().locator('.id')).toBeVisible()
    expect(await viewerTotal(page)).toBeGreaterThanOrEqual(100_000)

    // Long tasks while scrolling the table for about 3 s with the mouse wheel, as an operator
    // does (100 px a notch, as fast as the page takes them).
    const table = page.getByTestId('viewer-table')
    await table.scrollIntoViewIfNeeded()
    const box = (await table.boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await watchLongTasks(page)
    let notches = 0
    for (const until = Date.now() + 3000; Date.now() < until; notches++) await page.mouse.wheel(0, 100)
    const wheel = await collectLongTasks(page)
    console.log(
      `perf: long tasks while wheel-scrolling (${notches} notches, ${wheel.scrolledTo} px): ${wheel.count}, longest ${wheel.longest} ms (goal: none over 50 ms)`
    )
    expect(wheel.scrolledTo).toBeGreaterThan(1000)

    // A stress figure for reference: 480 px every frame (about 29,000 px/s), far beyond a wheel.
    await watchLongTasks(page)
    await page.evaluate(async () => {
      const scroller = document.querySelector<HTMLElement>('[data-testid="viewer-table"]')!
      const until = performance.now() + 3000
      await new Promise<void>((done) => {
        const step = (): void => {
          scroller.scrollTop += 480
          if (performance.now() < until) requestAnimationFrame(step)
          else done()
        }
        requestAnimationFrame(step)
      })
    })
    const stress = await collectLongTasks(page)
    console.log(`perf: long tasks at 480 px per frame (stress, no goal): ${stress.count}, longest ${stress.longest} ms; scrolled to ${stress.scrolledTo} px`)
    // Scrolled far down, the rows there are loaded too.
    await expect(page.getByTestId('viewer-row').first().locator('.id')).toBeVisible({ timeout: 10_000 })
    expect(problems).toEqual([])
  })
})

/** Starts counting long tasks in the page. */
async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[]; longTaskObserver?: PerformanceObserver }
    w.longTaskObserver?.disconnect()
    w.longTasks = []
    w.longTaskObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push(entry.duration)
    })
    w.longTaskObserver.observe({ type: 'longtask', buffered: false })
  })
}

/** The long tasks since watchLongTasks (after the frames in hand settle), and where the table is scrolled to. */
async function collectLongTasks(page: Page): Promise<{ count: number; longest: number; scrolledTo: number }> {
  await page.waitForTimeout(200)
  return page.evaluate(() => {
    const w = window as unknown as { longTasks: number[]; longTaskObserver?: PerformanceObserver }
    w.longTaskObserver?.disconnect()
    const scroller = document.querySelector<HTMLElement>('[data-testid="viewer-table"]')!
    return { count: w.longTasks.length, longest: Math.round(Math.max(0, ...w.longTasks)), scrolledTo: scroller.scrollTop }
  })
}
