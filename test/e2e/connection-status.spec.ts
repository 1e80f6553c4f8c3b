/// <reference lib="dom" />
// The polling status per connection (issue 24, item 1). On the incident desk one service of three
// stops answering: with 8 live sessions, at 1366×768 and 1920×1080, the header and the wall's
// status line name that connection offline with since when and why, keep the others' freshness
// (seconds old) and never call the app "Offline"; Diagnostics names each entry's connection and,
// filtered to the stopped one, lists its entries only. Before, the header read "Offline since
// 06:10 · Last update 06:10:08 (3 min ago) · GET /v1/events/sessions: connection refused" while
// the two others had polled seconds earlier.
import { expect, test, type Locator, type Page } from '@playwright/test'
import { request } from './support/api'
import { axeViolations } from './support/axe'
import { DESK_CONNECTIONS, startIncidentDesk, type IncidentDesk } from './support/incident-desk'
import { watchProblems } from './support/problems'

const { stopped: CONTOSO, falling: FABRIKAM, office: NORTHWIND } = DESK_CONNECTIONS
const SIZES = [
  [1366, 768],
  [1920, 1080]
] as const

const TIME = String.raw`\d\d:\d\d:\d\d`
const OFFLINE = new RegExp(String.raw`${CONTOSO} offline since (\d\d:\d\d) \(connection refused\)`)
const OTHERS_CONNECTED = `${FABRIKAM}, ${NORTHWIND} connected`
/** The freshest update of the connections that poll: seconds old, not Contoso's minutes (the wall says only its age). */
const FRESH = new RegExp(String.raw`Last update ${TIME}\s+\(\d+ s ago\)`)
const FRESH_ON_WALL = /updated \d+ s ago/

let desk: IncidentDesk

test.describe.configure({ timeout: 120_000 })

test.beforeAll(async () => {
  test.setTimeout(180_000)
  desk = await startIncidentDesk({ liveSessions: 8 })
  // The core has found Contoso unreachable (its first failed poll after the desk stopped it).
  await expect
    .poll(async () => (await request(desk.host, 'getStatus', {})).offlineSince, { timeout: 60_000, message: 'Contoso found offline' })
    .not.toBeNull()
})

test.afterAll(async () => {
  await desk?.stop()
})

/** The words say Contoso offline (since when, why) and the others connected, never the app offline. */
async function expectPerConnection(line: Locator, fresh = FRESH): Promise<string> {
  await expect(line).toContainText(OFFLINE, { timeout: 30_000 })
  await expect(line).toContainText(OTHERS_CONNECTED)
  await expect(line).toContainText(fresh)
  const text = (await line.textContent()) ?? ''
  expect(text).not.toMatch(/(^|[·●⚠]\s*)Offline/)
  return OFFLINE.exec(text)![1]!
}

/** Each connection's own line on hover: its state, and its own last update. */
async function expectEachFreshness(element: Locator): Promise<void> {
  const lines = (await element.getAttribute('title')) ?? ''
  for (const name of [FABRIKAM, NORTHWIND]) {
    expect(lines).toMatch(new RegExp(String.raw`^${name}: connected; last update ${TIME} \(\d+ s ago\)$`, 'm'))
  }
  expect(lines).toMatch(
    new RegExp(String.raw`^${CONTOSO}: offline since \d\d:\d\d \(connection refused\); last update ${TIME} \(\d+ (s|min) ago\) — GET /v1/\S+: connection refused$`, 'm')
  )
}

/** Rows or tiles: Contoso's health badges say what its last poll said ("Was good"), the others' are current. */
async function expectHealthNotCurrentOnlyFor(items: Locator): Promise<void> {
  const contoso = items.filter({ hasText: CONTOSO })
  await expect(contoso).toHaveCount(2)
  for (const item of await contoso.all()) {
    await expect(item.getByTestId('health')).toHaveAttribute('data-outdated', 'true')
    await expect(item.getByTestId('health')).toHaveText(/^\?\s*Was (good|warning|critical)$/)
  }
  for (const item of await items.filter({ hasNotText: CONTOSO }).all()) {
    await expect(item.getByTestId('health')).not.toHaveAttribute('data-outdated', 'true')
  }
}

async function expectNoViolations(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([])
}

for (const [width, height] of SIZES) {
  test(`at ${width}×${height} the header and the wall name Contoso offline, since when and why, the others connected and fresh`, async ({ page }) => {
    const problems = watchProblems(page)
    await page.setViewportSize({ width, height })
    await page.goto(desk.host.url)
    await expect(page.getByTestId('live-row')).toHaveCount(10, { timeout: 30_000 }) // 8 live, and Contoso's 2 as last seen

    const header = page.getByTestId('poll-state')
    const since = await expectPerConnection(page.getByRole('banner'))
    // Contoso's words in the trouble tone, the others' in the good one.
    await expect(header.locator('[data-tone="bad"]')).toHaveText(OFFLINE)
    await expect(header.locator('[data-tone="ok"]')).toHaveText(OTHERS_CONNECTED)
    await expectEachFreshness(header)
    await expectEachFreshness(page.getByTestId('last-update'))
    // Contoso's sessions show their last figures, not a present health: never a green "Good".
    await expectHealthNotCurrentOnlyFor(page.getByTestId('live-row'))
    await page.screenshot({ path: `test-results/connection-status-header-${width}x${height}.png` })
    await expectNoViolations(page)

    await page.goto(`${desk.host.url}#wall`)
    const wall = page.getByTestId('wall-status')
    await expect(page.getByTestId('wall-tile').first()).toBeVisible({ timeout: 30_000 })
    expect(await expectPerConnection(wall, FRESH_ON_WALL)).toBe(since)
    // The line gives way when it must (its whole text in its title), but never Contoso's words: they come first.
    const statusText = page.getByTestId('wall-status-text')
    const offline = (await statusText.locator('.phrase.bad').boundingBox())!
    expect(offline.x + offline.width).toBeLessThanOrEqual((await statusText.boundingBox())!.x + (await statusText.boundingBox())!.width + 0.5)
    await expectEachFreshness(statusText)
    // The others poll: the wall's line is not the red one of data wholly out of date.
    await expect(wall).not.toHaveClass(/outdated/)
    await expectHealthNotCurrentOnlyFor(page.getByTestId('wall-tile'))
    await page.screenshot({ path: `test-results/connection-status-wall-${width}x${height}.png` })
    await expectNoViolations(page)
    expect(problems).toEqual([])
  })
}

test("Diagnostics names each entry's connection and, filtered to Contoso, lists Contoso's only", async ({ page }) => {
  const problems = watchProblems(page)
  await page.setViewportSize({ width: 1366, height: 768 })
  // Fabrikam's service fails a request once (retried): an entry of another connection.
  desk.falling.sim.faults.serverErrors(1, [503])
  await expect
    .poll(async () => new Set((await request(desk.host, 'listDiagnostics', {})).map((d) => d.connectionName)), { timeout: 30_000 })
    .toEqual(new Set([CONTOSO, FABRIKAM]))

  await page.goto(`${desk.host.url}#diagnostics`)
  const connections = page.getByTestId('diagnostic-connection')
  await expect(connections.filter({ hasText: FABRIKAM }).first()).toBeVisible({ timeout: 30_000 })
  await expect(connections.filter({ hasText: CONTOSO }).first()).toBeVisible()

  await page.getByTestId('diagnostics-connection').selectOption({ label: CONTOSO })
  await expect(connections.filter({ hasText: FABRIKAM })).toHaveCount(0)
  const rows = page.getByTestId('diagnostic-row')
  await expect(rows.first()).toContainText('connection refused')
  expect(new Set(await connections.allTextContents()).size).toBe(1)
  expect((await connections.first().textContent())?.trim()).toBe(CONTOSO)
  await page.screenshot({ path: 'test-results/connection-status-diagnostics-contoso.png' })
  await expectNoViolations(page)
  expect(problems).toEqual([])
})

test('the header, the wall and Diagnostics in the light theme: no axe violation', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 })
  await request(desk.host, 'saveSettings', { display: { theme: 'light' } })
  try {
    for (const view of ['', '#wall', '#diagnostics']) {
      await page.goto(`${desk.host.url}${view}`)
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
      await expect(view === '#wall' ? page.getByTestId('wall-status') : page.getByTestId('poll-state')).toContainText(OFFLINE, { timeout: 30_000 })
      if (view === '') await page.screenshot({ path: 'test-results/connection-status-header-light.png' })
      expect(await axeViolations(page), view || 'Live').toEqual([])
    }
  } finally {
    await request(desk.host, 'saveSettings', { display: { theme: 'dark' } })
  }
})
