// The Connections view: testing a saved connection in plain words, and fetching a date range
// of past sessions from the service into the cache.
import { expect, test } from '@playwright/test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { addConnection, cli } from './support/cli'


test.describe('demo mode', () => {
  let host: BrowserHost
  test.beforeAll(async () => {
    host = await startBrowserHost(['--interval', '2'])
  })
  test.afterAll(async () => {
    await host?.stop()
  })

  test('explains how to add a connection and fetches a date range of past sessions', async ({ page }) => {
    await page.goto(host.url)
    await page.getByRole('button', { name: 'Settings' }).click()
    await expect(page.getByText('No connection is saved')).toBeVisible()
    await expect(page.getByRole('combobox', { name: 'Connection' })).toHaveValue('demo')
    const from = new Date(Date.now() - 30 * 86_400_000)
    await page.getByLabel('From', { exact: true }).fill(from.toISOString().slice(0, 10))
    await page.getByRole('button', { name: 'Fetch', exact: true }).click()
    await expect(page.getByTestId('fetch-result')).toHaveText(/Fetched [1-9]\d* sessions into the cache\./)
  })
})

test.describe('a saved connection', () => {
  let sim: RunningSimulator
  let host: BrowserHost
  let dir: string
  const name = `E2E tenant ${Date.now()}`

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eventwatch-e2e-conn-'))
    sim = await startSimulator({ liveSessions: 3, endedSessions: 2, viewersPerSession: 40 })
    const db = join(dir, 'cache.db')
    addConnection(name, sim, db)
    host = await startBrowserHost(['--interval', '2', '--db', db])
  })

  test.afterAll(async () => {
    await host?.stop()
    try {
      cli(['connections', 'remove', name, '--db', join(dir, 'cache.db')])
    } finally {
      await sim?.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('polls it instead of the demo and tests it in plain words', async ({ page }) => {
    await page.goto(host.url)
    await expect(page.getByTestId('poll-state')).toHaveText(/Connected/, { timeout: 30_000 })
    await expect(page.getByText('Demo data', { exact: true })).toHaveCount(0)

    await page.getByRole('button', { name: 'Settings' }).click()
    const row = page.getByTestId('connection-row').filter({ hasText: name })
    await expect(row).toContainText('stored in keychain')
    // Its own reliability scale, and why: the simulator reports on 0–100.
    const scale = row.getByTestId('connection-scale')
    await expect(scale).toHaveAttribute('data-scale', '0-100')
    await expect(scale).toContainText(/0–100, (detected|assumed)\s*\S/)
    await row.getByRole('button', { name: 'Test connection' }).click()
    const report = row.getByTestId('test-report')
    await expect(report.locator('li.ok')).toHaveCount(3)
    await expect(report).toContainText('session')
    await expect(report).not.toContainText(sim.credentials.clientSecret)
    await page.screenshot({ path: 'test-results/connections.png', fullPage: true })
  })
})

test.describe('managing connections in Settings', () => {
  let sim: RunningSimulator
  let host: BrowserHost
  const name = `E2E added ${Date.now()}`

  test.beforeAll(async () => {
    sim = await startSimulator({ liveSessions: 1, endedSessions: 1, viewersPerSession: 10 })
    host = await startBrowserHost(['--interval', '2'])
  })

  test.afterAll(async () => {
    await host?.stop()
    await sim?.close()
  })

  test('adds one with its secret in the keychain, edits it, and deletes it', async ({ page }) => {
    const c = sim.credentials
    await page.goto(host.url)
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click()
    await page.getByRole('button', { name: 'Add connection' }).click()
    const form = page.getByRole('form', { name: 'Add a connection' })
    const add = form.getByRole('button', { name: 'Add connection' })
    await expect(add).toBeDisabled()

    await form.getByLabel('Name').fill(name)
    await form.getByLabel('API base URL').fill('http://example.com')
    await expect(form.locator('#conn-baseUrl-issue')).toContainText('must use https:')
    await form.getByLabel('API base URL').fill(sim.baseUrl)
    await form.getByLabel('Auth URL').fill(sim.authUrl)
    await form.getByLabel('Platform id').fill(c.platformId)
    await form.getByLabel('Tenant id').fill(c.tenantId)
    await form.getByLabel('Client ID').fill(c.clientId)
    await expect(add).toBeDisabled()
    await form.getByLabel('Client secret').fill(c.clientSecret)
    await add.click()

    const row = page.getByTestId('connection-row').filter({ hasText: name })
    await expect(row).toContainText('stored in keychain')
    await expect(page.getByText(c.clientSecret)).toHaveCount(0)

    // Editing never shows the secret back; leaving it empty keeps the stored one.
    await row.getByRole('button', { name: `Edit ${name}` }).click()
    const edit = page.getByRole('form', { name: `Edit connection ${name}` })
    await expect(edit.getByLabel('Client secret')).toHaveValue('')
    await edit.getByLabel('Look back').fill('400')
    await expect(edit.locator('#conn-lookbackDays-issue')).toContainText('must be at most 365 days')
    await edit.getByLabel('Look back').fill('14')
    await expect(edit.getByLabel('Reliability scale')).toHaveValue('auto')
    await edit.getByLabel('Reliability scale').selectOption('0-1')
    await edit.getByRole('button', { name: 'Save connection' }).click()
    await expect(edit).toHaveCount(0)
    await expect(row.getByTestId('connection-scale')).toContainText('0–1, set')
    await row.getByRole('button', { name: 'Test connection' }).click()
    await expect(row.getByTestId('test-report').locator('li.ok')).toHaveCount(3)

    await row.getByRole('button', { name: `Delete ${name}` }).click()
    await row.getByRole('button', { name: 'Delete', exact: true }).click()
    await expect(page.getByTestId('connection-row').filter({ hasText: name })).toHaveCount(0)
  })
})

test.describe('without a keychain (a headless wall box)', () => {
  let host: BrowserHost
  test.beforeAll(async () => {
    // No D-Bus session: keytar cannot reach any Secret Service.
    host = await startBrowserHost(['--interval', '2'], { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' })
  })
  test.afterAll(async () => {
    await host?.stop()
  })

  test('adding a connection says in one line what is missing and keeps everything typed, the secret too', async ({ page }) => {
    await page.goto(host.url)
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click()
    await page.getByRole('button', { name: 'Add connection' }).click()
    const form = page.getByRole('form', { name: 'Add a connection' })
    await form.getByLabel('Name').fill('Tenant without keychain')
    await form.getByLabel('API base URL').fill('https://api.example.com')
    await form.getByLabel('Auth URL').fill('https://auth.example.com')
    await form.getByLabel('Platform id').fill('platform')
    await form.getByLabel('Tenant id').fill('tenant')
    await form.getByLabel('Client ID').fill('client')
    await form.getByLabel('Client secret').fill('typed-secret-1')
    await form.getByRole('button', { name: 'Add connection' }).click()
    const refusal = form.getByRole('alert')
    await expect(refusal).toContainText('the OS keychain is not available to keep the secret: run a Secret Service such as gnome-keyring')
    await expect(form.getByLabel('Name')).toHaveValue('Tenant without keychain')
    await expect(form.getByLabel('Client secret')).toHaveValue('typed-secret-1')
    await page.screenshot({ path: 'test-results/connections-no-keychain.png' })
    await expect(page.getByTestId('connection-row').filter({ hasText: 'Tenant without keychain' })).toHaveCount(0)
  })
})
