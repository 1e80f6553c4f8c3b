/// <reference lib="dom" />
// The team server in a real browser (issue 17): `eventwatch users add` on the server's cache, then
// `eventwatch serve --listen` (loopback, so plain HTTP is allowed). Each person signs in with
// their token on the sign-in page; alice acknowledges the demo incident on her page and bob's
// open page shows it as hers at once, without a reload; val, a viewer, sees it all and no action.
import { expect, test, type Browser, type Page } from '@playwright/test'
import { watchProblems } from './support/problems'
import { startTeamServe, type TeamServe } from './support/team-serve'

test.use({ viewport: { width: 1400, height: 900 } })
test.describe.configure({ mode: 'serial' })

let team: TeamServe
let origin: string
let tokens: Record<string, string>

test.beforeAll(async () => {
  team = await startTeamServe(
    [
      ['alice', 'operator'],
      ['bob', 'operator'],
      ['val', 'viewer']
    ],
    ['--interval', '2', '--demo-incident', '3']
  )
  ;({ origin, tokens } = team)
})
test.afterAll(async () => {
  await team?.stop()
})

/** A browser of its own (its own cookies), signed in with `name`'s token, on the Alerts view. */
async function signedIn(browser: Browser, name: string, shot?: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await page.goto(`${origin}/#alerts`)
  await expect(page).toHaveURL(/\/signin(#alerts)?$/)
  await page.getByLabel('Access token').fill(tokens[name]!)
  if (shot) await page.screenshot({ path: shot })
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByTestId('signed-in-as')).toHaveText(new RegExp(`${name} · (operator|viewer)`))
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Alerts/ }).click()
  return page
}

test('alice acknowledges; bob sees it as hers at once; val reads and cannot act', async ({ browser }) => {
  test.setTimeout(120_000)
  // A wrong token is refused on the page, in words.
  const stranger = await (await browser.newContext()).newPage()
  await stranger.goto(`${origin}/signin`)
  await stranger.getByLabel('Access token').fill('ewu_guess')
  await stranger.getByRole('button', { name: 'Sign in' }).click()
  await expect(stranger.getByRole('alert')).toHaveText(/That token is not valid/)

  const alice = await signedIn(browser, 'alice', 'test-results/team-sign-in.png')
  const bob = await signedIn(browser, 'bob')
  const problems = [watchProblems(alice), watchProblems(bob)]

  const firing = (page: Page) => page.getByTestId('open-alerts').locator('[data-testid=alert][data-state=firing]').first()
  await expect(firing(alice)).toBeVisible({ timeout: 90_000 })
  const alertId = await firing(alice).getAttribute('data-alert-id')
  const card = (page: Page) => page.locator(`[data-testid=alert][data-alert-id="${alertId}"]`)
  await expect(card(bob)).toHaveAttribute('data-state', 'firing')

  await card(alice).getByRole('button', { name: 'Acknowledge…' }).click()
  await alice.getByLabel(/^Note/).fill('CDN ticket 4711')
  await alice.getByLabel(/^Note/).press('Enter')

  // Bob's page follows the push: no reload, no click.
  await expect(card(bob)).toHaveAttribute('data-state', 'acknowledged', { timeout: 10_000 })
  await expect(card(bob).getByTestId('alert-acknowledged')).toHaveText(/^by alice at \d{1,2}:\d{2}/)
  await expect(card(bob).getByTestId('alert-note')).toHaveText('“CDN ticket 4711”')
  const changes = bob.getByTestId('audit-list')
  await changes.locator('summary').click()
  await expect(changes).toContainText(/alice\s+acknowledged\s+alert \d+/)
  await bob.mouse.move(0, 0)
  await bob.screenshot({ path: 'test-results/team-acknowledged-by-alice.png', fullPage: true })

  // The viewer sees the same, and no button to act with.
  const val = await signedIn(browser, 'val')
  await expect(card(val)).toHaveAttribute('data-state', 'acknowledged')
  await expect(card(val).getByTestId('alert-acknowledged')).toHaveText(/^by alice at /)
  await expect(card(val)).toContainText('Read only: you are signed in as a viewer.')
  await expect(card(val).getByRole('button', { name: /Snooze/ })).toHaveCount(0)
  await val.screenshot({ path: 'test-results/team-viewer.png' })

  // Signing out ends that browser's session.
  await bob.getByRole('button', { name: 'Sign out' }).click()
  await expect(bob).toHaveURL(/\/signin$/)
  expect(problems.flat()).toEqual([])
})

test('a viewer is offered no action their role cannot take, and a forced one is refused in words (issue 24, item 7)', async ({ browser }) => {
  test.setTimeout(120_000)
  const val = await signedIn(browser, 'val')
  const problems = watchProblems(val)
  const views = val.getByRole('navigation', { name: 'Views' })

  // Alerts: read, with no acknowledge, snooze, mute or pause.
  const open = val.getByTestId('open-alerts').locator('[data-testid=alert]').first()
  await expect(open).toBeVisible({ timeout: 90_000 })
  const alertId = Number(await open.getAttribute('data-alert-id'))
  for (const name of [/Acknowledge/, /Snooze/, /Mute/, /^15 min$/, /^1 h$/, /Resume notifications/]) {
    await expect(val.getByRole('button', { name }), String(name)).toHaveCount(0)
  }

  // The drill-down of a live session: no "Refresh now" (the header's nor the session's).
  await views.getByRole('button', { name: 'Live' }).click()
  await val.getByTestId('live-row').first().click()
  await expect(val.getByTestId('session-state')).toHaveText(/Live/, { timeout: 30_000 })
  await expect(val.getByRole('button', { name: /Report/ })).toBeVisible()
  await expect(val.getByRole('button', { name: /Refresh/ })).toHaveCount(0)
  await val.screenshot({ path: 'test-results/team-viewer-drilldown.png' })
  const key = await val.evaluate(() => {
    const [connectionId, eventSessionId] = location.hash.replace(/^#session\//, '').split('/').map(decodeURIComponent)
    return { connectionId: connectionId ?? '', eventSessionId: eventSessionId ?? '' }
  })

  // Settings: the note, and nothing to save, add, test or fetch.
  await views.getByRole('button', { name: 'Settings' }).click()
  await expect(val.getByTestId('team-settings-note')).toContainText('A viewer reads every screen and changes nothing')
  await expect(val.locator('main form, main [role=form]')).toHaveCount(0)
  await expect(val.getByRole('button', { name: /Save|Add|Test|Fetch|Name the site|Delete|Undo/ })).toHaveCount(0)
  await val.screenshot({ path: 'test-results/team-viewer-settings.png' })

  // Forced from the page anyway: refused, in words that name the action and never the request.
  const ask = (name: string, args: unknown) =>
    val.evaluate(
      async ([name, args]) => (await (await fetch(`/api/request/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(args) })).json()) as { ok: boolean; error?: { code: string; message: string } },
      [name, args] as const
    )
  const refused: [string, unknown, string][] = [
    ['refreshSession', key, 'Refreshing a session needs the operator role; you are signed in as a viewer.'],
    ['acknowledgeAlert', { id: alertId }, 'Acknowledging an alert needs the operator role; you are signed in as a viewer.'],
    ['saveSettings', { thresholds: { warning: 80, critical: 70 } }, 'Saving the reliability level settings needs the operator role; you are signed in as a viewer.'],
    ['fetchRange', { connectionId: key.connectionId, from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date().toISOString() }, 'Fetching a date range from the service needs the operator role; you are signed in as a viewer.']
  ]
  for (const [name, args, words] of refused) {
    const answer = await ask(name, args)
    expect(answer, name).toEqual({ ok: false, error: { code: 'forbidden', message: words } })
    expect(answer.error?.message, name).not.toContain(name)
  }
  expect(problems).toEqual([])
})
