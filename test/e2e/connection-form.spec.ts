// Adding a connection as a new user does (issue 24, item 9): a hint under every box saying what
// it is and where to find it, plain words for what is missing ("Platform ID is required"), and
// "Test connection" on what is typed, before anything is saved: a wrong secret is said in a plain
// sentence and nothing is kept; the right one says "Connected".
import { expect, test, type Locator, type Page } from '@playwright/test'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import type { ConnectionView } from '../../src/shared/connections'
import { browserHostForFile } from './browser-host'
import { request } from './support/api'
import { watchProblems } from './support/problems'
import { views } from './support/views'

const browserHost = browserHostForFile(['--interval', '2'])
test.use({ viewport: { width: 1366, height: 900 } })

let sim: RunningSimulator
test.beforeAll(async () => {
  sim = await startSimulator({ liveSessions: 2, endedSessions: 1, viewersPerSession: 20 })
})
test.afterAll(async () => {
  await sim?.close()
})

async function openForm(page: Page): Promise<Locator> {
  await page.goto(browserHost().url)
  await views(page).getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Add connection' }).click()
  return page.getByRole('form', { name: 'Add a connection' })
}

/** The hint a box is described by (aria-describedby), as a screen reader reads it. */
async function hintOf(form: Locator, label: string): Promise<string> {
  const box = form.getByLabel(label, { exact: true })
  const ids = ((await box.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-hint'))
  expect(ids, label).toHaveLength(1)
  return (await form.locator(`[id="${ids[0]}"]`).textContent()) ?? ''
}

test('every box has a hint, and what is missing or malformed is said in plain words', async ({ page }) => {
  const problems = watchProblems(page)
  const form = await openForm(page)
  for (const label of ['Name', 'API base URL', 'Auth URL', 'Platform ID', 'Tenant ID', 'Client ID', 'Client secret', 'Look back']) {
    expect((await hintOf(form, label)).trim().length, label).toBeGreaterThan(20)
  }
  expect(await hintOf(form, 'Platform ID')).toMatch(/platform-id header.*Given with your API access/)
  expect(await hintOf(form, 'Tenant ID')).toMatch(/tenant-id header/)
  expect(await hintOf(form, 'Client ID')).toMatch(/management portal/)
  expect(await hintOf(form, 'Client secret')).toMatch(/only until that page reloads/)

  // A box left empty is "required"; an address without its scheme says what one looks like.
  await form.getByLabel('Platform ID', { exact: true }).focus()
  await form.getByLabel('Platform ID', { exact: true }).blur()
  await expect(form.locator('#conn-platformId-issue')).toHaveText('✖ Platform ID is required.')
  await form.getByLabel('Name', { exact: true }).fill('x')
  await form.getByLabel('Name', { exact: true }).fill('')
  await expect(form.locator('#conn-name-issue')).toHaveText('✖ Name is required.')
  await form.getByLabel('Auth URL', { exact: true }).fill('auth.example.com')
  await expect(form.locator('#conn-authUrl-issue')).toHaveText('✖ Auth URL must be a full address such as https://auth.example.com.')
  await expect(form).not.toContainText(/at least 1|not a valid URL/)
  await form.screenshot({ path: 'test-results/connection-form-words.png' })
  expect(problems).toEqual([])
})

test('tests what is typed before saving: a wrong secret in a plain sentence and nothing kept, the right one "Connected"', async ({ page }) => {
  const problems = watchProblems(page)
  const c = sim.credentials
  const form = await openForm(page)
  const testButton = form.getByRole('button', { name: 'Test connection' })
  const add = form.getByRole('button', { name: 'Add connection' })
  // Test is offered first, beside Add.
  await expect(form.locator('.actions button').first()).toHaveText('Test connection')
  await expect(testButton).toBeDisabled()

  await form.getByLabel('Name', { exact: true }).fill('Tested first')
  await form.getByLabel('API base URL', { exact: true }).fill(sim.baseUrl)
  await form.getByLabel('Auth URL', { exact: true }).fill(sim.authUrl)
  await form.getByLabel('Platform ID', { exact: true }).fill(c.platformId)
  await form.getByLabel('Tenant ID', { exact: true }).fill(c.tenantId)
  await form.getByLabel('Client ID', { exact: true }).fill(c.clientId)
  await form.getByLabel('Client secret', { exact: true }).fill('a-wrong-secret')
  await testButton.click()

  const report = form.getByTestId('draft-test-report')
  await expect(report).toHaveAttribute('data-ok', 'false')
  await expect(report).toContainText('Not connected: nothing was saved.')
  await expect(report.locator('li.bad')).toHaveText(/^✗\s*failed:\s*Wrong client ID or client secret: the service refused them \(HTTP 401\)\. Check both\.$/)
  await expect(page.getByText('a-wrong-secret')).toHaveCount(0)
  await form.screenshot({ path: 'test-results/connection-form-wrong-secret.png' })
  // Nothing was kept: no connection in the list, none in the core.
  await expect(page.getByTestId('connection-row')).toHaveCount(0)
  expect(await request(browserHost(), 'listConnections', {})).toEqual([])

  // Typing again clears the old verdict; the right secret connects.
  await form.getByLabel('Client secret', { exact: true }).fill(c.clientSecret)
  await expect(report).toHaveCount(0)
  await testButton.click()
  await expect(report).toHaveAttribute('data-ok', 'true')
  await expect(report).toContainText('Connected: these settings reach the service. Nothing is kept until you press Add connection.')
  await expect(report.locator('li.ok')).toHaveCount(3)
  await expect(report).toContainText(/Read the first page of sessions: \d+ sessions?/)
  expect(await request(browserHost(), 'listConnections', {})).toEqual([])
  await page.mouse.move(0, 0)
  await form.screenshot({ path: 'test-results/connection-form-connected.png' })

  // Then it is added, its secret to the keychain.
  await add.click()
  await expect(page.getByTestId('connection-row').filter({ hasText: 'Tested first' })).toContainText('stored in keychain')
  const saved = await request(browserHost(), 'listConnections', {})
  expect(saved.map((v: ConnectionView) => v.name)).toEqual(['Tested first'])
  expect(problems).toEqual([])
})
