/// <reference lib="dom" />
// The post-event report as a manager reads it (issue 24, item 8), through the browser host polling
// a simulator over loopback, rendered in Chromium:
// - a session first seen after its end, on a service that then counts everyone who watched it:
//   History, the drill-down and the report give its peak from the viewers' times (never the count
//   after the end "from polls"), and say how many viewers had no usable times;
// - a live session whose reliability falls to about 41, an alert acknowledged with a note: the
//   report says it is still live (as of when), its reliability line is red under the critical
//   line, its axes tick on round values, and the alert table names who acknowledged and the note.
// The rendered reports are saved as PNGs under test-results/ to be looked at.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { formatCount } from '../../src/shared/format'
import { concurrentPeak } from '../support/concurrent-peak'
import type { BrowserHost } from './browser-host'
import { request } from './support/api'
import { axeViolations } from './support/axe'
import { startBrowserHostFor } from './support/simulator-host'

let sim: RunningSimulator
let host: BrowserHost
const ACK_NOTE = 'ECDN peer down in <b>Leeds</b>, vendor called'

test.beforeAll(async () => {
  sim = await startSimulator({ liveSessions: 2, endedSessions: 1, viewersPerSession: 300, churnSessions: false, randomIncidents: false, seed: 5 })
  // Once over, this service counts everyone who watched; and three viewers' times are unusable.
  const ended = endedSession()
  sim.world.reportCountAfterEnd(ended.eventSessionId, ended.viewers.length)
  sim.world.spoilViewerTimes(ended.eventSessionId, { withoutStart: 2, endBeforeStart: 1 })
  host = await startBrowserHostFor(sim)
})

test.afterAll(async () => {
  await host?.stop()
  await sim?.close()
})

const endedSession = () => sim.world.sessions.find((s) => s.hasEnded)!
const liveSession = () => sim.world.sessions.find((s) => !s.hasEnded)!

/** The session's report as the drill-down's "Report…" saves it, opened from a file in its own page. */
async function openReport(page: Page, eventSessionId: string, name: string): Promise<Page> {
  const { sessions } = await request(host, 'listLiveSessions', {})
  const connectionId = sessions[0]!.connectionId
  const file = await request(host, 'sessionReport', { connectionId, eventSessionId, format: 'html' })
  const path = join('test-results', `${name}.html`)
  writeFileSync(path, file!.text)
  const report = await page.context().newPage()
  await report.setViewportSize({ width: 900, height: 1200 })
  await report.goto(pathToFileURL(path).href)
  return report
}

/** The value labels of a chart's axis (the numbers right-aligned left of the plot). */
const axisValues = (svg: ReturnType<Page['locator']>) => svg.locator('text[text-anchor="end"]').evaluateAll((nodes) => nodes.map((n) => n.textContent ?? '').filter((t) => /^[\d,]+$/.test(t)).map((t) => Number(t.replace(/,/g, ''))))

/** 1, 2 or 5 × 10^n apart, each a whole multiple of that step. */
function isRound(ticks: number[]): boolean {
  const step = ticks[1]! - ticks[0]!
  const mantissa = step / 10 ** Math.floor(Math.log10(step))
  return ticks.length >= 3 && [1, 2, 5].includes(Math.round(mantissa * 1e6) / 1e6) && ticks.every((t, i) => i === 0 || t - ticks[i - 1]! === step) && ticks[0]! % step === 0
}

test("a session first seen after its end: History, the drill-down and its report give its viewers' peak, and who was left out", async ({ page }) => {
  test.setTimeout(90_000)
  const ended = endedSession()
  const peak = concurrentPeak(ended.viewers)
  expect(peak).toBeLessThan(ended.viewers.length)

  await page.setViewportSize({ width: 1600, height: 900 })
  await page.goto(host.url)
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'History' }).click()
  const row = page.locator(`[data-testid="history-row"][data-session-id="${ended.eventSessionId}"]`)
  // Its viewer list arrives after its record: until then its peak is unknown, never "from polls".
  await expect(row.getByTestId('peak')).toHaveAttribute('data-source', 'viewers', { timeout: 45_000 })
  await expect(row.getByTestId('peak')).toHaveText(formatCount(peak))
  await expect(row.getByTestId('peak')).toHaveAttribute('title', "from the viewers' start and end times")
  await expect(row.getByTestId('peak-untimed')).toHaveText('3 viewers without usable times not counted')
  await row.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/history-peak-from-viewers.png' })

  // The drill-down says the same; the service's count after the end raises nothing.
  await row.click()
  await expect(page.getByTestId('session-peak')).toHaveText(formatCount(peak))
  await expect(page.getByTestId('session-peak-untimed')).toHaveText('3 viewers without usable times not counted')

  const report = await openReport(page, ended.eventSessionId, 'report-first-seen-ended')
  const figure = report.locator('.figure').first()
  await expect(figure.locator('.value')).toHaveText(formatCount(peak))
  await expect(figure.locator('.note')).toContainText("from the viewers' start and end times")
  await expect(figure.locator('.note')).toContainText('3 viewers without usable times not counted')
  await expect(report.locator('body')).not.toContainText('at a poll')
  expect(await axeViolations(report), 'the report of a session first seen ended').toEqual([])
  await report.screenshot({ path: 'test-results/report-first-seen-ended.png', fullPage: true })
  await report.close()
})

test('a live session at 41: its report says still live, draws the line red under the critical line on round ticks, and names who acknowledged', async ({ page }) => {
  test.setTimeout(120_000)
  const live = liveSession()
  sim.faults.incident(live.eventSessionId, { drop: live.baselineReliability - 41, minutes: 60 })
  // Both alerts fire: the fall at once, the critical level after two polls below it.
  let falling: number | undefined
  await expect
    .poll(async () => {
      const { alerts } = await request(host, 'listAlerts', {})
      const mine = alerts.filter((a) => a.eventSessionId === live.eventSessionId && a.state === 'firing')
      falling = mine.find((a) => a.rule === 'reliability-falling')?.id
      return mine.map((a) => a.rule).sort()
    }, { timeout: 60_000 })
    .toEqual(['reliability-below', 'reliability-falling'])
  await request(host, 'acknowledgeAlert', { id: falling!, note: ACK_NOTE })
  // A few more polls at 41, so the line sits there.
  await page.waitForTimeout(8_000)

  const report = await openReport(page, live.eventSessionId, 'report-live')
  await expect(report.getByTestId('when')).toContainText(/● still live as of \d{4}-\d\d-\d\d \d\d:\d\d UTC \(its last poll\): every figure here is so far/)
  await expect(report.locator('body')).not.toContainText('ended still live')

  // The reliability chart: its line is red where it sits at 41, and no green piece lies under the critical line.
  const reliability = report.locator('svg[aria-label="Reliability"]')
  await expect(reliability.locator('polyline[data-health="critical"]').last()).toBeVisible()
  const pieces = await reliability.locator('polyline').evaluateAll((nodes) =>
    nodes.map((n) => ({ health: n.getAttribute('data-health'), ys: (n.getAttribute('points') ?? '').split(' ').map((p) => Number(p.split(',')[1])) }))
  )
  expect(pieces.at(-1)?.health).toBe('critical')
  const criticalY = await reliability.locator('line[stroke="#c0262d"]').getAttribute('y1')
  for (const piece of pieces.filter((p) => p.health === 'good')) for (const y of piece.ys) expect(y).toBeLessThanOrEqual(Number(criticalY))

  // Round ticks on both charts' value axes.
  const viewersTicks = await axisValues(report.locator('svg[aria-label="Viewers at once"]'))
  const reliabilityTicks = await axisValues(reliability)
  expect(isRound(viewersTicks), `viewers axis ${viewersTicks.join('/')}`).toBe(true)
  expect(isRound(reliabilityTicks), `reliability axis ${reliabilityTicks.join('/')}`).toBe(true)

  // The alert table: who acknowledged, and their note as plain text (the markup shown, not run).
  const ackRow = report.locator('table.alerts tbody tr').filter({ hasText: 'Reliability fell' })
  await expect(ackRow).toContainText(`“${ACK_NOTE}”`)
  await expect(ackRow).toContainText('Still acknowledged')
  await expect(ackRow.locator('b')).toHaveCount(0)
  expect(await axeViolations(report), 'the report of a live session').toEqual([])
  await report.screenshot({ path: 'test-results/report-live.png', fullPage: true })
  await report.close()
})

test('a falling warning whose drop leaves its window while the session stays at 41 reads "Ended", never "recovered", in the Alerts view and the report', async ({ page }) => {
  test.setTimeout(180_000)
  // A 1-minute window, so the drop leaves it within the test.
  const { alertRules } = await request(host, 'getSettings', {})
  await request(host, 'saveSettings', { alertRules: { ...alertRules, reliabilityFalling: { ...alertRules.reliabilityFalling, windowMinutes: 1 } } })
  const live = sim.world.sessions.filter((s) => !s.hasEnded)[1]!
  sim.faults.incident(live.eventSessionId, { drop: live.baselineReliability - 41, minutes: 60 })
  let ended: Awaited<ReturnType<typeof request<'listAlerts'>>>['alerts'][number] | undefined
  await expect
    .poll(async () => {
      const { alerts } = await request(host, 'listAlerts', {})
      ended = alerts.find((a) => a.eventSessionId === live.eventSessionId && a.rule === 'reliability-falling' && a.state === 'resolved')
      return ended?.endKind
    }, { timeout: 150_000, intervals: [2_000] })
    .toBe('no-longer-applies')

  await page.setViewportSize({ width: 1366, height: 900 })
  await page.goto(`${host.url}#alerts`)
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /Alerts/ }).click()
  const card = page.getByTestId('alert-history').locator(`[data-testid="alert"][data-alert-id="${ended!.id}"]`)
  await expect(card.getByTestId('alert-state')).toHaveText(/^■\s*Ended$/)
  await expect(card.getByTestId('alert-end-reason')).toHaveText(
    /^Ended: no longer falling: the drop left its 1-minute window; reliability is still 4\d\.\d, below the critical level 90$/
  )
  await expect(card).not.toContainText(/recovered|Resolved/)
  await card.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/alert-ended-still-below.png' })
  expect(await axeViolations(page), 'the Alerts view with an alert ended still below').toEqual([])

  const report = await openReport(page, live.eventSessionId, 'report-ended-still-below')
  const row = report.locator('table.alerts tbody tr').filter({ hasText: 'Reliability fell' })
  await expect(row).toContainText('Ended — no longer falling: the drop left its 1-minute window; reliability is still 4')
  await expect(row).not.toContainText('recovered')
  await report.close()
})
