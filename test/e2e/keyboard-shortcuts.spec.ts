/// <reference lib="dom" />
// Keyboard shortcuts (issue 27, item 3) on a team server, as two people meet them: olga, an
// operator, acknowledges one alert with `a` (the note field opens, as the button's does) and
// snoozes another with `s` (the choices open, as the button's do); the audit names her for both.
// Letters typed in a field are text, not commands; `?` lists every shortcut in a modal dialog that
// Esc closes, giving focus back. val, a viewer, presses the same keys and nothing is offered.
import { expect, test, type Browser, type Page } from '@playwright/test'
import { request } from './support/api'
import { alertsOnCue } from './support/alerts-on-cue'
import { axeViolations } from './support/axe'
import { watchProblems } from './support/problems'
import { startTeamServe, type TeamServe } from './support/team-serve'
import { views } from './support/views'

test.use({ viewport: { width: 1400, height: 900 } })
test.describe.configure({ mode: 'serial' })

let team: TeamServe
const olga = () => ({ origin: team.origin, token: team.tokens.olga! })

test.beforeAll(async () => {
  team = await startTeamServe(
    [
      ['olga', 'operator'],
      ['val', 'viewer']
    ],
    ['--interval', '2', '--demo-live', '2']
  )
  await alertsOnCue(olga(), 'critical')
})
test.afterAll(async () => {
  await team?.stop()
})

async function signedInOnAlerts(browser: Browser, name: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await page.goto(`${team.origin}/signin`)
  await page.getByLabel('Access token').fill(team.tokens[name]!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByTestId('signed-in-as')).toHaveText(new RegExp(`${name} · `))
  await views(page).getByRole('button', { name: /^Alerts/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible()
  return page
}

const firingCards = (page: Page) => page.getByTestId('open-alerts').locator('[data-testid=alert][data-state=firing]')

test('a acknowledges and s snoozes the focused alert, as olga; typing a in a field does not; ? lists the shortcuts', async ({ browser }) => {
  test.setTimeout(120_000)
  const page = await signedInOnAlerts(browser, 'olga')
  const problems = watchProblems(page)
  await expect(firingCards(page)).toHaveCount(2, { timeout: 60_000 })
  const [first, second] = await firingCards(page).evaluateAll((cards) => cards.map((c) => c.getAttribute('data-alert-id')!))
  const card = (id: string) => page.locator(`[data-testid=alert][data-alert-id="${id}"]`)

  // Nothing has focus in an alert: `a` does nothing.
  await page.locator('body').focus()
  await page.keyboard.press('a')
  await expect(page.getByLabel(/^Note/)).toHaveCount(0)

  // Tab to the first alert's button, then `a`: its note field opens and takes focus.
  await card(first!).getByRole('button', { name: 'Acknowledge…' }).focus()
  await page.keyboard.press('Control+a') // with a modifier it is the browser's, not ours
  await expect(page.getByLabel(/^Note/)).toHaveCount(0)
  await page.keyboard.press('a')
  const note = card(first!).getByLabel(/^Note/)
  await expect(note).toBeFocused()
  // Letters typed in the note are the note: no second form, no snooze choices, nothing acted on.
  await page.keyboard.type('as agreed, Sam on it')
  await expect(note).toHaveValue('as agreed, Sam on it')
  await expect(card(first!).getByRole('group', { name: 'Snooze for' })).toHaveCount(0)
  await expect(card(first!)).toHaveAttribute('data-state', 'firing')
  await page.keyboard.press('Enter')
  await expect(card(first!)).toHaveAttribute('data-state', 'acknowledged')
  await expect(card(first!).getByTestId('alert-acknowledged')).toHaveText(/^by olga at /)
  await expect(card(first!).getByTestId('alert-note')).toHaveText('“as agreed, Sam on it”')
  await expect(card(first!)).toBeFocused()

  // The second alert, focused itself (a click on it): `s` opens the choices, as the button does.
  await card(second!).locator('.summary').click()
  await expect(card(second!)).toBeFocused()
  await page.keyboard.press('s')
  const choices = card(second!).getByRole('group', { name: 'Snooze for' })
  await expect(choices.getByRole('button', { name: '15 min' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(card(second!)).toHaveAttribute('data-state', 'snoozed')
  await expect(card(second!).getByTestId('alert-state')).toHaveText(/Snoozed\s*until \d\d:\d\d:\d\d/)

  // The audit names olga for both, on the page and through the app API.
  const changes = page.getByTestId('audit-list')
  await changes.locator('summary').click()
  await expect(changes).toContainText(new RegExp(`olga\\s+acknowledged\\s+alert ${first}`))
  await expect(changes).toContainText(new RegExp(`olga\\s+snoozed\\s+alert ${second}`))
  const audit = await request(olga(), 'listAudit', {})
  const entryFor = (action: string, id: string) => audit.find((e) => e.actor === 'olga' && e.action === action && e.subject === `alert ${id}`)
  expect(entryFor('acknowledgeAlert', first!), JSON.stringify(audit.slice(0, 4))).toBeTruthy()
  expect(entryFor('snoozeAlert', second!), JSON.stringify(audit.slice(0, 4))).toBeTruthy()

  // `?` typed in the search box is a question mark.
  await views(page).getByRole('button', { name: 'History' }).click()
  const search = page.locator('[data-search]')
  await search.fill('')
  await search.press('?')
  await expect(search).toHaveValue('?')
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0)
  await search.fill('')

  // Anywhere else it lists every shortcut, in a modal dialog named by its heading.
  const opener = views(page).getByRole('button', { name: 'History' })
  await opener.focus()
  await page.keyboard.press('?')
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(dialog).toBeVisible()
  for (const key of ['?', '/', 'Esc', 'a', 's', 'Enter', 'Space', '↑', '←', 'Home']) await expect(dialog.locator('kbd', { hasText: new RegExp(`^${key.replace(/[?/]/, '\\$&')}$`) })).toHaveCount(1)
  await expect(dialog).toContainText('Acknowledge the alert')
  await expect(dialog).toContainText('Snooze the alert')
  await expect(dialog.getByRole('button', { name: /Close/ })).toBeFocused()
  await page.screenshot({ path: 'test-results/keyboard-shortcuts.png' })
  const violations = await axeViolations(page)
  expect(violations, violations.map((v) => `${v.rule}: ${v.targets.join(', ')}`).join('; ')).toEqual([])
  // Esc closes it and only it: the view stays, focus goes back where it was.
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1, name: /^Past sessions/ })).toBeVisible()
  await expect(opener).toBeFocused()
  expect(problems).toEqual([])
})

test('val, a viewer, presses a and s on an alert: nothing is offered, nothing changes', async ({ browser }) => {
  const page = await signedInOnAlerts(browser, 'val')
  // The one olga left firing? Both are held now; a new alert is not needed: a viewer's card
  // offers nothing, whatever its state. Take any open card.
  const card = page.getByTestId('open-alerts').getByTestId('alert').first()
  await expect(card).toBeVisible({ timeout: 30_000 })
  const before = await card.getAttribute('data-state')
  await card.locator('.summary').click()
  await expect(card).toBeFocused()
  await page.keyboard.press('a')
  await page.keyboard.press('s')
  await expect(page.getByLabel(/^Note/)).toHaveCount(0)
  await expect(card.getByRole('group', { name: 'Snooze for' })).toHaveCount(0)
  await expect(card).toHaveAttribute('data-state', before!)
  await expect(card).toContainText('Read only: you are signed in as a viewer.')
  const audit = await request(olga(), 'listAudit', {})
  expect(audit.filter((e) => e.actor === 'val' && /Alert$/.test(e.action))).toEqual([])
})
