// Every screen checked by axe-core as an operator reaches it, in the dark and the light theme
// (issue 14; issue 24: both themes, the sign-in page too). axe runs its WCAG 2.x A/AA and
// best-practice rules over the whole document, and a violation of ANY impact fails (minor and
// moderate as much as serious and critical): Live, Alerts with alerts firing, History, Settings
// with the connection form open, Diagnostics, a session's drill-down and a viewer's details, the
// wall, and the team server's sign-in page (empty, and saying a token was wrong) and a viewer's
// screens behind it; and the same
// screens during an incident at several tenants (one service stopped, a session at 41, an office
// at 30), where the header, tiles and rows say the most.
import { expect, test, type Page } from '@playwright/test'
import { axeViolations } from './support/axe'
import { browserHostForFile } from './browser-host'
import { request } from './support/api'
import { startIncidentDesk, type IncidentDesk } from './support/incident-desk'
import { openFirstLiveSession } from './support/session'
import { startTeamServe, type TeamServe } from './support/team-serve'

const THEMES = ['dark', 'light'] as const
test.use({ viewport: { width: 1600, height: 900 } })

async function expectNoViolations(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page)
  expect(violations, `${screen}: ${violations.map((v) => `${v.rule} (${v.impact})`).join(', ')}`).toEqual([])
}

test.describe('the app', () => {
  // An incident on cue: the Alerts view, the charts and the wall have alerts to show.
  const browserHost = browserHostForFile(['--interval', '2', '--demo-incident', '3'])

  for (const theme of THEMES) {
    test(`no screen has an axe violation of any impact, ${theme} theme`, async ({ page }) => {
      test.setTimeout(150_000)
      await request(browserHost(), 'saveSettings', { display: { theme } })
      await page.goto(browserHost().url)
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
      await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
      await expectNoViolations(page, `Live (${theme})`)

      const views = page.getByRole('navigation', { name: 'Views' })
      await views.getByRole('button', { name: /^Alerts/ }).click()
      await expect(page.getByTestId('open-alerts').locator('[data-testid=alert]').first()).toBeVisible({ timeout: 60_000 })
      await page.getByTestId('audit-list').locator('summary').click()
      await expectNoViolations(page, `Alerts (${theme})`)

      for (const [name, ready] of [
        ['History', 'Past sessions'],
        ['Diagnostics', 'Diagnostics'],
        ['Settings', 'Settings']
      ] as const) {
        await views.getByRole('button', { name }).click()
        await expect(page.getByRole('heading', { name: ready, exact: false }).first()).toBeVisible()
        await page.waitForTimeout(300) // lists settle
        await expectNoViolations(page, `${name} (${theme})`)
      }
      // Settings' connection form, with a box's issue and its hints showing.
      await page.getByRole('button', { name: 'Add connection' }).click()
      const form = page.getByRole('form', { name: 'Add a connection' })
      await form.getByLabel('Auth URL', { exact: true }).fill('auth.example.com')
      await expect(form.locator('#conn-authUrl-issue')).toBeVisible()
      await expectNoViolations(page, `Settings, adding a connection (${theme})`)
      await page.screenshot({ path: `test-results/accessibility-settings-${theme}.png` })

      await views.getByRole('button', { name: 'Live' }).click()
      await openFirstLiveSession(page)
      await expect(page.getByTestId('viewer-row').first().locator('.id')).toBeVisible({ timeout: 40_000 })
      await expectNoViolations(page, `drill-down (${theme})`)
      await page.screenshot({ path: `test-results/accessibility-drilldown-${theme}.png` })
      await page.getByTestId('viewer-row').first().click()
      await expect(page.getByRole('dialog')).toBeVisible()
      await expectNoViolations(page, `viewer detail (${theme})`)
      await page.keyboard.press('Escape')

      await page.goto(`${browserHost().url}#wall`)
      await expect(page.getByTestId('wall-tile').first()).toBeVisible({ timeout: 30_000 })
      await expectNoViolations(page, `wall (${theme})`)
      await page.screenshot({ path: `test-results/accessibility-wall-${theme}.png` })
    })
  }
})

test.describe('the team server sign-in page', () => {
  let team: TeamServe
  test.beforeAll(async () => {
    team = await startTeamServe([['val', 'viewer']])
  })
  test.afterAll(async () => {
    await team?.stop()
  })

  // No setting is known before signing in: the page follows the browser's light or dark preference.
  for (const theme of THEMES) {
    test(`has no axe violation of any impact, empty or refusing a token, ${theme} theme`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme })
      await page.goto(`${team.origin}/signin`)
      await expect(page.getByRole('heading', { name: 'Eventwatch team server' })).toBeVisible()
      await expectNoViolations(page, `sign-in page (${theme})`)
      await page.getByLabel('Access token').fill('ewu_not-a-token')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect(page.getByRole('alert')).toHaveText(/That token is not valid/)
      await expectNoViolations(page, `sign-in page refusing a token (${theme})`)
      await page.screenshot({ path: `test-results/sign-in-${theme}.png` })
      // Signed in as a viewer: the screens without their actions (the server's theme applies).
      await page.getByLabel('Access token').fill(team.tokens['val']!)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect(page.getByTestId('signed-in-as')).toHaveText(/val · viewer/)
      const views = page.getByRole('navigation', { name: 'Views' })
      for (const name of ['Live', 'Alerts', 'Settings'] as const) {
        await views.getByRole('button', { name: new RegExp(`^${name}`) }).click()
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
        await page.waitForTimeout(300) // lists settle
        await expectNoViolations(page, `${name}, signed in as a viewer`)
      }
    })
  }
})

test.describe('during an incident at several tenants', () => {
  test.use({ viewport: { width: 1366, height: 768 } })
  let desk: IncidentDesk
  test.beforeAll(async () => {
    test.setTimeout(180_000)
    desk = await startIncidentDesk({ liveSessions: 8 })
    // The falling session and the office's site have fired: their alerts are on every screen.
    await expect
      .poll(async () => (await request(desk.host, 'listAlerts', {})).alerts.filter((a) => a.state === 'firing').length, { timeout: 90_000 })
      .toBeGreaterThanOrEqual(2)
  })
  test.afterAll(async () => {
    await desk?.stop()
  })

  for (const theme of THEMES) {
    test(`no screen has an axe violation of any impact, ${theme} theme`, async ({ page }) => {
      test.setTimeout(120_000)
      await request(desk.host, 'saveSettings', { display: { theme } })
      await page.goto(desk.host.url)
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
      await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
      await expectNoViolations(page, `Live, incident (${theme})`)
      const views = page.getByRole('navigation', { name: 'Views' })
      for (const name of ['Alerts', 'History', 'Settings', 'Diagnostics'] as const) {
        await views.getByRole('button', { name: new RegExp(`^${name}`) }).click()
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
        await page.waitForTimeout(300) // lists settle
        await expectNoViolations(page, `${name}, incident (${theme})`)
      }
      // The office's session, its site alert on the charts and in the breakdown.
      const office = (await request(desk.host, 'listLiveSessions', {})).sessions.find((s) => s.eventSessionId === desk.office.eventSessionId)
      expect(office).toBeDefined()
      await page.goto(`${desk.host.url}#session/${encodeURIComponent(office!.connectionId)}/${encodeURIComponent(office!.eventSessionId)}`)
      await expect(page.getByTestId('viewer-row').first().locator('.id')).toBeVisible({ timeout: 30_000 })
      await expectNoViolations(page, `drill-down, incident (${theme})`)
      await page.goto(`${desk.host.url}#wall`)
      await expect(page.getByTestId('wall-tile').first()).toBeVisible({ timeout: 30_000 })
      await expectNoViolations(page, `wall, incident (${theme})`)
      await page.screenshot({ path: `test-results/accessibility-incident-wall-${theme}.png` })
    })
  }
})

