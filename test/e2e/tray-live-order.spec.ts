// One worst-first order on every face (issue 25): during an incident, the tray's menu, built from
// the live sessions the core hands out, lists them in the order the Live view shows its rows in
// Chromium (trouble first). The tray has no browser face: its menu is built here by the desktop's
// own trayMenuTemplate from the board the host answers, as the tray builds it from the same board.
import { expect, test } from '@playwright/test'
import { trayMenuTemplate } from '../../src/main/desktop/tray-menu'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { request } from './support/api'
import { watchProblems } from './support/problems'
import { openLive, pausePolling } from './support/views'

let host: BrowserHost

test.beforeAll(async () => {
  // Six demo sessions, polled every second; the first loses 25 points 5 s in.
  host = await startBrowserHost(['--interval', '1', '--demo-live', '6', '--demo-incident', '5'])
})

test.afterAll(async () => {
  await host?.stop()
})

test("the tray's menu lists the live sessions in the Live view's order", async ({ page }) => {
  test.setTimeout(120_000)
  const problems = watchProblems(page)
  await openLive(page, host)
  await expect
    .poll(async () => (await request(host, 'listAlerts', {})).situation.firing, { message: 'an alert firing', timeout: 60_000, intervals: [500] })
    .toBeGreaterThan(0)
  await pausePolling(page, host)
  // The rows hold still: the page has every push the core made before the pause.
  const board = await request(host, 'listLiveSessions', {})
  const rows = page.getByTestId('live-row')
  await expect(rows).toHaveCount(board.sessions.length)
  const live = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-session-id') ?? ''))

  const { situation } = await request(host, 'listAlerts', {})
  const opened: string[] = []
  const menu = trayMenuTemplate(
    { sessions: board.sessions, blind: situation.blind, pollingPaused: situation.pollingPaused },
    {
      open: (target) => {
        if (target?.view === 'session') opened.push(target.eventSessionId)
      },
      setPollingPaused: () => undefined,
      pauseNotifications: () => undefined,
      quit: () => undefined,
      acknowledge: () => undefined
    }
  )
  for (const item of menu) item.click?.(undefined as never, undefined, undefined as never)

  expect(live).toHaveLength(6)
  expect(opened).toEqual(live)
  await page.screenshot({ path: 'test-results/tray-live-order.png', fullPage: true })
  expect(problems).toEqual([])
})
