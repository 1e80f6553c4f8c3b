/// <reference lib="dom" />
// Each team user's own display (issue 25, item 5), in a real browser against `eventwatch serve`:
// alice and bob are signed in at once, each in a browser of their own; alice switches to UTC and
// the light theme in Settings → Display; her screens follow at once, bob's stay in the server's
// local time and dark theme (his page is pushed his own settings, never hers), and both stay so
// after a reload. The units are the server's: read on the screen, not offered to change.
import { expect, test, type Browser, type Page } from '@playwright/test'
import { axeViolations } from './support/axe'
import { watchProblems } from './support/problems'
import { startTeamServe, type TeamServe } from './support/team-serve'

test.use({ viewport: { width: 1400, height: 900 } })

let team: TeamServe

test.beforeAll(async () => {
  team = await startTeamServe([
    ['alice', 'operator'],
    ['bob', 'viewer']
  ])
})
test.afterAll(async () => {
  await team?.stop()
})

/** A browser of its own (its own cookies) in New York, signed in with `name`'s token. */
async function signedIn(browser: Browser, name: string): Promise<Page> {
  const page = await (await browser.newContext({ timezoneId: 'America/New_York' })).newPage()
  await page.goto(`${team.origin}/signin`)
  await page.getByLabel('Access token').fill(team.tokens[name]!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByTestId('signed-in-as')).toHaveText(new RegExp(`${name} · `))
  return page
}

const views = (page: Page) => page.getByRole('navigation', { name: 'Views' })
const display = (page: Page) => page.locator('#settings-display')

/** The page's theme and the Live view's word for its times. */
async function expectDisplay(page: Page, theme: 'dark' | 'light', times: 'UTC' | 'local time'): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
  await views(page).getByRole('button', { name: 'Live' }).click()
  await expect(page.locator('main footer')).toContainText(`Times are ${times}.`)
}

async function expectNoViolations(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page)
  expect(violations, `${screen}: ${violations.map((v) => `${v.rule} (${v.impact})`).join(', ')}`).toEqual([])
}

test("alice's UTC and light theme are hers: bob's screens keep the server's", async ({ browser }) => {
  test.setTimeout(120_000)
  const alice = await signedIn(browser, 'alice')
  const bob = await signedIn(browser, 'bob')
  const problems = [watchProblems(alice), watchProblems(bob)]
  await expectDisplay(alice, 'dark', 'local time')
  await expectDisplay(bob, 'dark', 'local time')

  // Bob waits on Settings, where his own choices show.
  await views(bob).getByRole('button', { name: 'Settings' }).click()
  await expect(display(bob).getByLabel('Theme')).toHaveValue('system')

  await views(alice).getByRole('button', { name: 'Settings' }).click()
  await expect(alice.getByTestId('team-settings-note')).toContainText('Your time zone, theme and sound (Display) are your own')
  // Her own choices, offered; the server's units, read only.
  for (const label of ['Time zone', 'Theme', 'Sound for critical alerts', 'Sound for warnings']) await expect(display(alice).getByLabel(label)).toBeEnabled()
  await expect(display(alice).getByLabel('Traffic unit')).toHaveCount(0)
  await expect(display(alice).getByTestId('display-fixed')).toHaveText(['Detect', 'Detect'])
  await display(alice).getByLabel('Time zone').selectOption('utc')
  await expect(display(alice).getByRole('status')).toContainText('Saved.')
  await display(alice).getByLabel('Theme').selectOption('light')
  await expect(alice.locator('html')).toHaveAttribute('data-theme', 'light')
  await expect(display(alice).getByLabel('Time zone')).toHaveValue('utc')
  await alice.screenshot({ path: 'test-results/team-display-alice-settings.png', fullPage: true })
  await expectNoViolations(alice, "Settings, alice's own light theme")

  // Bob's page was pushed the settings too, as his: still the server's (the system's theme: dark here), still local time.
  await bob.waitForTimeout(1000)
  await expect(display(bob).getByLabel('Theme')).toHaveValue('system')
  await expect(display(bob).getByLabel('Time zone')).toHaveValue('local')
  await bob.screenshot({ path: 'test-results/team-display-bob-settings.png', fullPage: true })
  await expectNoViolations(bob, "Settings, bob's (a viewer) in the server's dark theme")
  await expectDisplay(bob, 'dark', 'local time')

  // Kept on the server for each of them, not in the page: both read the same after a reload.
  await expectDisplay(alice, 'light', 'UTC')
  await expect(alice.getByTestId('last-update')).toContainText('UTC')
  await alice.reload()
  await expectDisplay(alice, 'light', 'UTC')
  await alice.screenshot({ path: 'test-results/team-display-alice-live.png' })
  await bob.reload()
  await expectDisplay(bob, 'dark', 'local time')
  await bob.screenshot({ path: 'test-results/team-display-bob-live.png' })
  expect(problems.flat()).toEqual([])
})
