// The Settings screen: forms that explain a bad value as it is typed and save nothing invalid,
// saved values that survive a reload, and display choices every screen follows at once.
import { expect, test, type Page } from '@playwright/test'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { openFirstLiveSession } from './support/session'
import { webhookReceiver } from '../support/webhook-receiver'

// A zone that is not UTC, so switching the display to UTC visibly changes the times.
test.use({ timezoneId: 'America/New_York', viewport: { width: 1600, height: 900 } })
test.describe.configure({ mode: 'serial' })

let host: BrowserHost
test.beforeAll(async () => {
  host = await startBrowserHost(['--interval', '2'])
})
test.afterAll(async () => {
  await host?.stop()
})

async function openSettings(page: Page): Promise<void> {
  await page.goto(host.url)
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByLabel('Session list')).toBeVisible()
}

test('a cadence too short is explained, cannot be saved, and a valid one survives a reload', async ({ page }) => {
  await openSettings(page)
  await page.screenshot({ path: 'test-results/settings.png', fullPage: true })

  const discovery = page.getByLabel('Session list')
  const save = page.getByRole('button', { name: 'Save polling' })
  await discovery.fill('2')
  await expect(page.locator('#cadence-discoverySeconds-issue')).toHaveText(/Session list must be at least 5 seconds\./)
  await expect(discovery).toHaveAttribute('aria-invalid', 'true')
  await expect(discovery).toHaveAttribute('aria-describedby', /cadence-discoverySeconds-issue/)
  await expect(save).toBeDisabled()
  await page.getByLabel('Viewer lists', { exact: true }).first().fill('20.5')
  await expect(page.locator('#cadence-viewersSeconds-issue')).toHaveText(/must be a whole number/)
  await page.screenshot({ path: 'test-results/settings-invalid.png' })

  await discovery.fill('45')
  await page.getByLabel('Viewer lists', { exact: true }).first().fill('120')
  await expect(page.locator('#cadence-discoverySeconds-issue')).toHaveCount(0)
  await expect(save).toBeEnabled()
  await save.click()
  await expect(page.locator('#settings-polling')).toContainText('Saved.')

  await page.reload()
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByLabel('Session list')).toHaveValue('45')
  await expect(page.locator('#cadence-viewersSeconds')).toHaveValue('120')
})

test('a critical level at or above the warning level is refused in words', async ({ page }) => {
  await openSettings(page)
  const save = page.getByRole('button', { name: 'Save reliability levels' })
  await page.getByLabel('Warning below', { exact: true }).fill('90')
  await page.getByLabel('Critical below', { exact: true }).fill('92')
  await expect(page.locator('#threshold-critical-issue')).toHaveText(/the critical level must be below the warning level/)
  await expect(save).toBeDisabled()
  await page.getByLabel('Critical below', { exact: true }).fill('80')
  await save.click()
  await expect(page.locator('#settings-levels')).toContainText('Saved.')
  await page.reload()
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByLabel('Critical below', { exact: true })).toHaveValue('80')
})

test('retention can keep a kind forever', async ({ page }) => {
  await openSettings(page)
  await page.getByLabel('Keep snapshots forever').check()
  await expect(page.locator('#retention-snapshotsDays')).toBeDisabled()
  await page.locator('#retention-viewerListsDays').fill('0')
  await expect(page.locator('#retention-viewerListsDays-issue')).toHaveText(/must be at least 1 day/)
  await page.locator('#retention-viewerListsDays').fill('30')
  await page.getByRole('button', { name: 'Save retention' }).click()
  await expect(page.locator('#settings-retention')).toContainText('Saved.')
  await page.reload()
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByLabel('Keep snapshots forever')).toBeChecked()
  await expect(page.locator('#retention-viewerListsDays')).toHaveValue('30')
})

test('a site named in Settings shows beside its code in the drill-down; a bad code is explained and cannot be saved', async ({ page }) => {
  await openSettings(page)
  const sites = page.locator('#settings-sites')
  await sites.getByLabel('Code').fill('north')
  await sites.getByLabel('Name').fill('Leeds')
  await expect(sites.getByRole('alert')).toHaveText('The site code is a number, as the service gives it.')
  await expect(sites.getByRole('button', { name: 'Name the site' })).toBeDisabled()
  // A code the demo's viewers have: the first row of the first live session's site breakdown.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Live' }).click()
  await openFirstLiveSession(page)
  await page.getByRole('tab', { name: 'Site' }).click()
  const firstSite = page.getByTestId('breakdown-row').first().locator('td').first()
  await expect(firstSite).toHaveText(/^\d+$/, { timeout: 30_000 })
  const code = (await firstSite.textContent())!.trim()
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click()
  await sites.getByLabel('Code').fill(code)
  await sites.getByLabel('Name').fill('Leeds')
  await expect(sites.getByRole('alert')).toHaveCount(0)
  await sites.getByRole('button', { name: 'Name the site' }).click()
  await expect(sites.getByTestId('site-names')).toContainText(`${code}Leeds`)
  await expect(sites.getByTestId('site-names-message')).toHaveText(`Site ${code} is named "Leeds".`)
  await sites.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/settings-sites.png' })
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Live' }).click()
  await openFirstLiveSession(page)
  await page.getByRole('tab', { name: 'Site' }).click()
  await expect(page.getByTestId('breakdown-row').filter({ hasText: `${code} · Leeds` })).toHaveCount(1)
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click()
  await sites.getByRole('button', { name: `Remove the name of site ${code}` }).click()
  await expect(sites.getByTestId('site-names')).toHaveCount(0)
})

test('units say what is in use and why; theme and time zone apply at once', async ({ page }) => {
  await openSettings(page)
  // The reliability scale belongs to each connection now (connections.spec.ts); the units left here say theirs.
  await expect(page.locator('#display-reliabilityScale')).toHaveCount(0)
  await expect(page.locator('#display-trafficUnit-in-use')).toContainText(/(Detected|Assumed|Set here): (bytes|kilobytes|megabytes) — \S/)
  await expect(page.locator('#display-viewerTimeUnit-in-use')).toContainText(/(Detected|Assumed|Set here): (seconds|milliseconds) — \S/)

  const pageBackground = (): Promise<string> => page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor')
  const dark = await pageBackground()
  await page.getByLabel('Theme').selectOption('light')
  await expect.poll(pageBackground).not.toBe(dark)
  expect(await pageBackground()).toBe('rgb(245, 246, 248)')

  // The header's "Last update" time follows the zone: compare it with the instant it shows.
  const headerTime = page.getByTestId('last-update').locator('time')
  await expect(headerTime).toBeVisible({ timeout: 30_000 })
  // Read together, so a poll between the two reads cannot make them disagree.
  const shownIn = async (zone: string): Promise<boolean> => {
    const { at, text } = await headerTime.evaluate((el) => ({ at: el.getAttribute('datetime') ?? '', text: el.textContent ?? '' }))
    const expected = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: zone }).format(Date.parse(at))
    return text.trim() === expected
  }
  await expect.poll(() => shownIn('America/New_York')).toBe(true)
  await page.getByLabel('Time zone', { exact: true }).selectOption('utc')
  await expect.poll(() => shownIn('UTC')).toBe(true)
  await expect(page.getByTestId('last-update')).toContainText('UTC')

  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Live' }).click()
  await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
  await page.screenshot({ path: 'test-results/live-light.png' })
  await page.reload()
  // The saved theme is back after a reload, before anyone opens Settings.
  await expect.poll(pageBackground).toBe('rgb(245, 246, 248)')
})

test('a webhook added in Settings is tested against its receiver and removed; a plain-http address is refused in words', async ({ page }) => {
  const receiver = await webhookReceiver()
  try {
    await openSettings(page)
    const hooks = page.locator('#settings-webhooks')
    await hooks.getByLabel('Name').fill('On call')
    await hooks.getByLabel('URL').fill('http://hooks.example.com/x')
    await expect(hooks.getByRole('alert')).toHaveText('The URL must use https: (plain http: is allowed only for this machine).')
    await expect(hooks.getByRole('button', { name: 'Add webhook' })).toBeDisabled()
    await hooks.getByLabel('URL').fill(receiver.url)
    await hooks.getByLabel('Format').selectOption('slack')
    await hooks.getByRole('button', { name: 'Add webhook' }).click()
    await expect(hooks.getByTestId('webhooks-message')).toHaveText('Added "On call".')
    await expect(hooks.getByTestId('webhooks')).toContainText('On callSlack')
    await hooks.getByRole('button', { name: 'Send a test to On call' }).click()
    await expect(hooks.getByTestId('webhooks-message')).toHaveText(/^Test of "On call": delivered: HTTP 200 in \d+ ms$/)
    expect(receiver.received.map((r) => r.event)).toEqual(['test'])
    await hooks.scrollIntoViewIfNeeded()
    await page.screenshot({ path: 'test-results/settings-webhooks.png' })
    await hooks.getByRole('button', { name: 'Remove On call' }).click()
    await expect(hooks.getByTestId('webhooks')).toHaveCount(0)
  } finally {
    await receiver.close()
  }
})

test('an Opsgenie webhook in Settings needs its API key, posts under the API address with it, and its test opens and closes one alert', async ({ page }) => {
  const receiver = await webhookReceiver()
  try {
    await openSettings(page)
    const hooks = page.locator('#settings-webhooks')
    await hooks.getByLabel('Name').fill('Genie')
    await hooks.getByLabel('Format').selectOption('opsgenie')
    // The URL left as it starts means Opsgenie's default; here the receiver stands in for it.
    await expect(hooks.getByText('Left as https://, the URL is https://api.opsgenie.com.')).toBeVisible()
    await hooks.getByLabel('URL').fill(new URL(receiver.url).origin)
    await expect(hooks.getByRole('button', { name: 'Add webhook' })).toBeDisabled() // no key yet
    await hooks.getByLabel("Opsgenie's API key").fill('a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d')
    await hooks.getByRole('button', { name: 'Add webhook' }).click()
    await expect(hooks.getByTestId('webhooks-message')).toHaveText('Added "Genie".')
    await expect(hooks.getByTestId('webhooks')).toContainText('GenieOpsgenie')
    await expect(hooks.getByTestId('webhooks')).not.toContainText('a1b2c3d4')
    await hooks.getByRole('button', { name: 'Send a test to Genie' }).click()
    await expect(hooks.getByTestId('webhooks-message')).toHaveText(/^Test of "Genie": delivered: HTTP 200 in \d+ ms \(the test alert was opened and closed\)$/)
    expect(receiver.received.map((r) => r.path)).toEqual(['/v2/alerts', expect.stringMatching(/^\/v2\/alerts\/eventwatch-alert-0-[0-9a-f]{16}\/close\?identifierType=alias$/)])
    expect(receiver.received.every((r) => r.authorization === 'GenieKey a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d')).toBe(true)
    await hooks.getByRole('button', { name: 'Remove Genie' }).click()
    await expect(hooks.getByTestId('webhooks')).toHaveCount(0)
  } finally {
    await receiver.close()
  }
})

test('a maintenance window added in Settings is in force at once, said in the header, and removed', async ({ page }) => {
  // The times are read in the window's zone: the browser's (America/New_York here) unless chosen.
  const local = (ms: number): string => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
        .formatToParts(new Date(ms))
        .map((p) => [p.type, p.value])
    )
    return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`
  }
  await openSettings(page)
  const section = page.locator('#settings-maintenance')
  await section.getByLabel('Name').fill('Patch night')
  await section.getByLabel('Starts').fill(local(Date.now() + 3_600_000))
  await section.getByLabel('Ends').fill(local(Date.now() - 3_600_000))
  await expect(section.getByRole('alert')).toHaveText('The end must be after the start.')
  await expect(section.getByRole('button', { name: 'Add window' })).toBeDisabled()
  await section.getByLabel('Starts').fill(local(Date.now() - 3_600_000))
  await section.getByLabel('Ends').fill(local(Date.now() + 3_600_000))
  await expect(section.getByLabel("Window's time zone")).toHaveValue('America/New_York')
  await expect(section.getByText('Starts and Ends are read in America/New_York')).toBeVisible()
  // For everything (no connection chosen): added only once confirmed, saying why.
  await expect(section.getByTestId('maintenance-broad')).toContainText('Not an ordinary window: it covers everything')
  await expect(section.getByRole('button', { name: 'Add window' })).toBeDisabled()
  await section.getByLabel('Add it all the same').check()
  await section.getByRole('button', { name: 'Add window' }).click()
  await expect(section.getByTestId('maintenance-message')).toHaveText('Added "Patch night".')
  const row = section.getByTestId('maintenance-windows').getByRole('row', { name: /Patch night/ })
  await expect(row).toContainText('in force now')
  await expect(row).toContainText('silences everything')
  await expect(row).toContainText('America/New_York')
  // Every face says it: the header's situation line leads with the window over everything.
  await expect(page.getByText(/All alerts silenced by Patch night/).first()).toBeVisible()
  await section.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/settings-maintenance.png' })
  await section.getByRole('button', { name: 'Remove Patch night' }).click()
  await expect(section.getByTestId('maintenance-windows')).toHaveCount(0)
  await expect(page.getByText(/All alerts silenced by Patch night/)).toHaveCount(0)
})
