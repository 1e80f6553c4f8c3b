/// <reference lib="dom" />
// Hostile names on the screens (issue 23, item 6), end to end: a service whose event names carry
// a right-to-left override, a terminal escape and an unclosed isolate, and whose content id
// carries an override too -> poller -> SQLite -> browser host -> Chromium; and maintenance
// windows, one with a legitimate Hebrew name, which the header quotes. The live view, the header, the
// wall and the alerts view show no control or bidi character, and the words after a name are
// drawn in their order, left to right: the name moved nothing around it.
import { expect, test, type Locator } from '@playwright/test'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import type { Alert } from '../../src/shared/alerts'
import { plainText } from '../../src/shared/plain-text'
import { unsafeCharacters } from '../support/hostile-names'
import type { BrowserHost } from './browser-host'
import { request } from './support/api'
import { watchProblems } from './support/problems'
import { startBrowserHostFor } from './support/simulator-host'
import { views } from './support/views'

/** An override with no end, a colour escape and an isolate with no end: each would act on the rest of its line. */
const HOSTILE = 'Town hall \u202eexe.gnp\u001b[31m\u2066'
const HOSTILE_CONTENT = 'content-\u202e42'
const HEBREW_EVENT = 'ערב חג'
const HEBREW_WINDOW = 'ליל תיקונים'
/** Named after the Hebrew one: unisolated, its digits would join the Hebrew's direction and be drawn left of it. */
const NEXT_WINDOW = '2026 freeze'

let sim: RunningSimulator
let host: BrowserHost

test.beforeAll(async () => {
  sim = await startSimulator({ liveSessions: 2, endedSessions: 0, viewersPerSession: 30, churnSessions: false, randomIncidents: false })
  // The service says so: every record from now on carries these names. The hostile session's
  // reliability falls 25 points, so an alert names it on the wall and in the alerts view.
  const [hostile, hebrew] = sim.world.sessions
  hostile!.eventName = HOSTILE
  hostile!.contentId = HOSTILE_CONTENT
  hebrew!.eventName = HEBREW_EVENT
  sim.world.incident(hostile!.eventSessionId, { drop: 25, minutes: 30 })
  host = await startBrowserHostFor(sim, 1)
})

test.afterAll(async () => {
  await host?.stop()
  await sim?.close()
})

/** What a person reads in `locator` has no control, bidi or invisible character (innerText's own line breaks and tabs aside). */
async function expectPlain(locator: Locator): Promise<void> {
  expect(unsafeCharacters(await locator.innerText(), ['\n', '\t'])).toEqual([])
}

/**
 * Where each fragment's first character is drawn, left to right, in `locator`: the fragments in
 * the order they come in its text (the text is in logical order; the drawing is what bidi made of it).
 */
function drawnAt(locator: Locator, fragments: string[]): Promise<(number | null)[]> {
  return locator.evaluate((element, wanted) => {
    const nodes: { node: Text; start: number }[] = []
    let text = ''
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push({ node: node as Text, start: text.length })
      text += node.nodeValue ?? ''
    }
    let from = 0
    return wanted.map((fragment) => {
      const at = text.indexOf(fragment, from)
      if (at < 0) return null
      from = at + fragment.length
      const { node, start } = nodes.findLast((n) => n.start <= at)!
      const range = document.createRange()
      range.setStart(node, at - start)
      range.setEnd(node, at - start + 1)
      return range.getBoundingClientRect().left
    })
  }, fragments)
}

/** The fragments are drawn in their order, each right of the one before. */
async function expectInOrder(locator: Locator, fragments: string[]): Promise<void> {
  const lefts = await drawnAt(locator, fragments)
  expect(lefts, `where ${JSON.stringify(fragments)} are drawn`).not.toContain(null)
  const sorted = [...(lefts as number[])].sort((a, b) => a - b)
  expect(lefts, `where ${JSON.stringify(fragments)} are drawn`).toEqual(sorted)
  expect(new Set(lefts).size).toBe(lefts.length)
}

/** The hostile session's alert, once it fires. */
async function hostileAlert(): Promise<Alert> {
  const [hostile] = sim.world.sessions
  let found: Alert | undefined
  await expect
    .poll(
      async () => {
        const { alerts } = await request(host, 'listAlerts', {})
        found = alerts.find((a) => a.eventSessionId === hostile!.eventSessionId && a.state === 'firing')
        return found !== undefined
      },
      { message: "the hostile session's alert to fire", timeout: 40_000, intervals: [500] }
    )
    .toBe(true)
  return found!
}

test('hostile and right-to-left names are plain and isolated on the live view, the header, the wall and the alerts view', async ({ page }) => {
  test.setTimeout(120_000)
  const problems = watchProblems(page)
  await page.setViewportSize({ width: 1600, height: 1000 })
  await page.goto(host.url)
  const { summary, connectionId } = await hostileAlert()
  // Two windows over the hostile session's connection: the header names them, in their order of start.
  const at = (minutes: number): string => new Date(Date.now() + minutes * 60_000).toISOString()
  await request(host, 'addMaintenance', { window: { name: HEBREW_WINDOW, startsAt: at(-60), endsAt: at(120), connectionId } })
  await request(host, 'addMaintenance', { window: { name: NEXT_WINDOW, startsAt: at(-30), endsAt: at(120), connectionId } })

  // The live view: the names plain; the alert's badge drawn after the content id, not inside it.
  const hostileRow = page.getByTestId('live-row').filter({ hasText: 'exe.gnp' })
  await expect(hostileRow.getByTestId('session-alert')).toBeVisible({ timeout: 30_000 })
  await expect(hostileRow.locator('.event')).toHaveText(plainText(HOSTILE))
  await expect(page.getByTestId('live-row').filter({ hasText: HEBREW_EVENT }).locator('.event')).toHaveText(HEBREW_EVENT)
  await expectPlain(page.getByTestId('live-table'))
  await expectInOrder(hostileRow.locator('.sub'), ['content-', '42', 'Alert'])

  // The header: the Hebrew window's name, then the next window's, in their order.
  const header = page.getByTestId('header-alerts')
  const windows = ['maintenance:', ',', '2026', 'freeze']
  await expect(header).toContainText(`maintenance: ${HEBREW_WINDOW}, ${NEXT_WINDOW}`, { timeout: 15_000 })
  await expectPlain(header)
  await expectInOrder(header, windows)
  await expect(page).toHaveTitle(new RegExp(`^✖ \\d+ alerts? firing · maintenance: ${HEBREW_WINDOW}, ${NEXT_WINDOW} — Eventwatch$`))
  expect(unsafeCharacters(await page.title())).toEqual([])
  await page.screenshot({ path: 'test-results/hostile-names-live.png' })

  // The wall: tiles and the line of alerts firing, the summary drawn after the name, left to right.
  await page.getByRole('button', { name: 'Wall mode' }).click()
  const firing = page.getByTestId('wall-firing').locator('li').filter({ hasText: 'exe.gnp' })
  await expect(firing).toContainText(`${plainText(HOSTILE)}: ${summary}`)
  await expectPlain(page.getByTestId('wall'))
  await expectInOrder(firing, ['Town', 'exe.gnp', summary.slice(0, 11), summary.slice(-3)])
  await expectInOrder(page.getByTestId('wall-situation'), windows)
  const tile = page.getByTestId('wall-tile').filter({ hasText: 'exe.gnp' })
  await expect(tile.locator('h2')).toContainText(plainText(HOSTILE))
  await expectInOrder(tile.locator('h2'), ['Town', 'hall', 'exe.gnp'])
  await page.screenshot({ path: 'test-results/hostile-names-wall.png' })
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('wall')).toHaveCount(0)

  // The alerts view: the card's place ("event · connection") and summary in their order.
  await views(page).getByRole('button', { name: /^Alerts/ }).click()
  const card = page.getByTestId('alert').filter({ hasText: 'exe.gnp' }).first()
  await expect(card.getByTestId('alert-place')).toContainText(`${plainText(HOSTILE)} · `)
  await expectPlain(page.locator('main'))
  await expectInOrder(card.getByTestId('alert-place'), ['Town', 'exe.gnp', '·'])
  await expectInOrder(page.getByTestId('alerts-situation'), windows)
  await page.screenshot({ path: 'test-results/hostile-names-alerts.png' })
  expect(problems).toEqual([])
})
