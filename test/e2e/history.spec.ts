// The History screen: past sessions from the cache, searched, sorted and opened — with the
// service online (the demo) and with it gone (a cache filled by `sync`, then the service killed).
import { expect, test, type Page } from '@playwright/test'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CLI_BIN, cliEnv, ROOT } from '../support/cli'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { axeViolations } from './support/axe'


interface SimulatorProcess {
  child: ChildProcess
  fields: Record<string, string>
}

/** `eventwatch simulate` as its own process, so it can be killed like a service going away. */
async function startSimulatorProcess(): Promise<SimulatorProcess> {
  const child = spawn(process.execPath, [CLI_BIN, 'simulate', '--port', '0', '--live', '2', '--seed', '3', '--viewers', '200'], {
    cwd: ROOT,
    env: cliEnv(),
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`simulator did not start:\n${output}`)), 30_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Press Ctrl-C')) {
        clearTimeout(timer)
        done()
      }
    })
    child.once('exit', (code) => fail(new Error(`simulator exited (${code}):\n${output}`)))
  })
  const fields: Record<string, string> = {}
  for (const line of output.split('\n')) {
    const match = /^([a-zA-Z -]+):\s+(\S+)$/.exec(line)
    if (match?.[1] && match[2]) fields[match[1].trim()] = match[2]
  }
  return { child, fields }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await exited
}

async function openHistory(page: Page, url: string): Promise<void> {
  await page.setViewportSize({ width: 1600, height: 900 })
  await page.goto(url)
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'History' }).click()
  await expect(page.getByTestId('history-row').first()).toBeVisible({ timeout: 30_000 })
}

test.describe('with the service online (demo)', () => {
  let host: BrowserHost
  test.beforeAll(async () => {
    host = await startBrowserHost(['--interval', '2'])
  })
  test.afterAll(async () => {
    await host?.stop()
  })

  test('lists ended sessions, sorts them, and says when nothing matches', async ({ page }) => {
    await openHistory(page, host.url)
    await expect(page.getByTestId('history-cache-notice')).toContainText('From the local cache, as of')
    await expect(page.getByTestId('history-total')).not.toHaveText('0')

    // Sorting by peak viewers, biggest first, says so to assistive technology.
    const peak = page.getByRole('columnheader', { name: /Peak viewers/ })
    await peak.getByRole('button').click()
    await expect(peak).toHaveAttribute('aria-sort', 'descending')
    const peaks = (await page.locator('[data-testid="history-row"] td:nth-child(5)').allTextContents()).map((t) => Number(t.replace(/,/g, '')))
    expect(peaks.length).toBeGreaterThan(1)
    expect(peaks).toEqual([...peaks].sort((a, b) => b - a))
    // Every row says its reliability state in words, not only in colour.
    await expect(page.locator('[data-testid="history-row"] .health').first()).toHaveText(/good|warning|critical/)
    await page.screenshot({ path: 'test-results/history.png' })

    // '/' focuses the search box from anywhere on the screen.
    await page.locator('body').click({ position: { x: 5, y: 880 } })
    await page.keyboard.press('/')
    await expect(page.locator('[data-search]')).toBeFocused()
    await page.keyboard.type('no-such-event-anywhere')
    await expect(page.getByTestId('history-empty')).toContainText('Nothing matches “no-such-event-anywhere”')
  })
})

test.describe('with the service gone', () => {
  let host: BrowserHost
  let dir: string

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eventwatch-e2e-history-'))
    const db = join(dir, 'cache.db')
    const sim = await startSimulatorProcess()
    const f = sim.fields
    const connection = [
      '--base-url', f['base URL']!, '--auth-url', f['auth URL']!, '--platform-id', f['platform-id']!,
      '--tenant-id', f['tenant-id']!, '--client-id', f['client ID']!
    ]
    const secret = { EVENTWATCH_CLIENT_SECRET: f['client secret']! }
    try {
      execFileSync(process.execPath, [CLI_BIN, 'sync', '--once', '--db', db, ...connection], { cwd: ROOT, env: cliEnv(secret) })
    } finally {
      await stopProcess(sim.child)
    }
    // Started offline: the service it polls is no longer there.
    host = await startBrowserHost(['--interval', '2', '--db', db, ...connection], secret)
  })

  test.afterAll(async () => {
    await host?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('shows the cached past sessions, finds one by content id and opens it', async ({ page }) => {
    await openHistory(page, host.url)
    const notice = page.getByTestId('history-cache-notice')
    await expect(notice).toContainText(/Offline — showing cached data as of \d{1,2} \w{3} \d{4}, \d{2}:\d{2}/, { timeout: 30_000 })
    await expect(page.getByTestId('history-row')).toHaveCount(14)
    await expect(page.getByTestId('history-total')).toHaveText('14')
    await expect(page.getByTestId('history-row').first()).toContainText('(command line)')
    // Viewer lists were cached by the sync: the row says so and how many.
    await expect(page.getByTestId('history-row').first()).toContainText(/✓ \d+ viewers?/)
    await page.screenshot({ path: 'test-results/history-offline.png' })

    // Live sessions join the list on request.
    await page.getByLabel('Include live sessions').check()
    await expect(page.getByTestId('history-total')).toHaveText('16')
    await expect(page.getByText('● Live now')).toHaveCount(2)
    await page.getByLabel('Include live sessions').uncheck()
    await expect(page.getByTestId('history-total')).toHaveText('14')

    const target = page.getByTestId('history-row').nth(3)
    const contentId = (await target.getByTestId('content-id').textContent())!.trim()
    const sessionId = await target.getAttribute('data-session-id')
    await page.locator('[data-search]').fill(contentId)
    const found = page.locator(`[data-testid="history-row"][data-session-id="${sessionId}"]`)
    await expect(page.getByTestId('history-total')).not.toHaveText('14')
    await expect(found).toBeVisible()
    for (const sub of await page.locator('[data-testid="history-row"] [data-testid="content-id"]').allTextContents()) expect(sub.trim()).toBe(contentId)

    // Enter on a focused row opens the drill-down; Esc comes back to the same list.
    await found.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('history-table')).toHaveCount(0)
    await expect(page.getByRole('button', { name: /Back/ }).first()).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(found).toBeVisible()
    await expect(page.locator('[data-search]')).toHaveValue(contentId)

    // A click opens it too.
    await found.click()
    await expect(page.getByTestId('history-table')).toHaveCount(0)

    // A past session's viewer table: a filter that matches nothing, once cleared, shows every
    // viewer again (issue 14: it stayed on "No viewer matches this filter").
    await page.keyboard.press('Escape')
    await page.locator('[data-search]').fill('')
    const first = page.getByTestId('history-row').first()
    // Its peak is reconstructed from its viewer list, and its end is the last viewer's.
    await expect(first.getByTestId('peak')).toHaveAttribute('data-source', 'viewers')
    await expect(first.getByTestId('ended-source')).toHaveText('when the last viewer left')
    await first.click()
    const rows = page.getByTestId('viewer-row')
    await expect(rows.first()).toContainText(/\S/, { timeout: 15_000 })
    // Never watched live, so no snapshots: the charts come from the viewer list, and say so.
    await expect(page.getByTestId('story-charts')).toBeVisible()
    await expect(page.getByTestId('chart-note')).toHaveAttribute('data-source', 'viewers')
    await expect(page.getByTestId('chart-note')).toContainText('Reconstructed from the viewer list')
    await expect(page.getByTestId('chart-note')).toContainText(/Time watched, all viewers together: \d+ h \d+ min/)
    for (const chart of ['chart-story-viewers', 'chart-story-reliability', 'chart-story-quality', 'chart-story-flow']) {
      await expect(page.getByTestId(chart).locator('canvas')).toBeVisible()
    }
    await expect(page.getByTestId('session-peak')).toHaveText(/^\d[\d,]*$/)
    await expect(page.getByTestId('session-ended')).not.toHaveText('—')
    await page.mouse.move(0, 0)
    await page.screenshot({ path: 'test-results/past-session-offline.png', fullPage: true })
    expect(await axeViolations(page), 'a past session charted from its viewers').toEqual([])

    // Its post-event report: one HTML file that loads nothing from anywhere, with the same peak.
    const downloading = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Report…' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toMatch(/-report-\d{4}-\d{2}-\d{2}\.html$/)
    const reportFile = join(dir, 'report.html')
    await download.saveAs(reportFile)
    await expect(page.getByTestId('report-message')).toContainText('Saved')
    const peak = (await page.getByTestId('session-peak').textContent())!.trim()
    const reportPage = await page.context().newPage()
    const requested: string[] = []
    reportPage.on('request', (r) => requested.push(r.url()))
    await reportPage.goto(pathToFileURL(reportFile).href)
    await expect(reportPage.locator('.figure').first()).toContainText(peak)
    await expect(reportPage.locator('svg')).toHaveCount(2)
    expect(requested).toEqual([pathToFileURL(reportFile).href])
    expect(await axeViolations(reportPage), 'the report').toEqual([])
    await reportPage.screenshot({ path: 'test-results/report.png', fullPage: true })
    await reportPage.close()
    const total = (await page.getByTestId('viewer-total').textContent())!.trim()
    const viewerFilter = page.getByLabel('Filter viewers by text')
    await viewerFilter.fill('no viewer has this in any field')
    await expect(page.getByText('No viewer matches this filter.')).toBeVisible()
    await expect(page.getByTestId('viewer-total')).toHaveText('0')
    await viewerFilter.fill('')
    await expect(page.getByTestId('viewer-total')).toHaveText(total)
    await expect(page.getByText('No viewer matches this filter.')).toHaveCount(0)
    await expect(rows.first()).not.toContainText('Loading')
  })
})
