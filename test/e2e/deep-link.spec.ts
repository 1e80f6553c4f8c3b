// Every view has a URL hash (src/shared/deep-link.ts): the page follows it on load and on change
// (the desktop's tray and notifications write it), and keeps it on the view shown, so a reload,
// Back and a bookmark land where the operator was. Same page in the browser host.
import { expect, test } from '@playwright/test'
import { appTargetHash } from '../../src/shared/deep-link'
import { startBrowserHost, type BrowserHost } from './browser-host'

let host: BrowserHost
test.beforeAll(async () => {
  host = await startBrowserHost(['--interval', '2'])
})
test.afterAll(async () => {
  await host?.stop()
})

test('#alerts opens the alerts view, and a session hash opens that session', async ({ page }) => {
  await page.goto(`${host.url}#${appTargetHash({ view: 'alerts' })}`)
  await expect(page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /Alerts/ })).toHaveAttribute('aria-current', 'page')
  expect(await page.evaluate(() => location.hash)).toBe('#alerts')

  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Live' }).click()
  const row = page.getByTestId('live-row').first()
  await expect(row).toBeVisible({ timeout: 30_000 })
  const key = await page.evaluate(async () => {
    const answer = await (await fetch('/api/request/listLiveSessions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json()
    const first = answer.value.sessions[0] as { connectionId: string; eventSessionId: string; eventName: string | null }
    return first
  })
  // As the desktop does for a notification click on a window already open: only the hash changes.
  await page.evaluate((hash) => {
    location.hash = hash
  }, appTargetHash({ view: 'session', connectionId: key.connectionId, eventSessionId: key.eventSessionId }))
  await expect(page.getByRole('button', { name: /Back/ })).toBeVisible()
  await expect(page.getByText(key.eventSessionId, { exact: false }).first()).toBeVisible()
  const sessionHash = `#${appTargetHash({ view: 'session', connectionId: key.connectionId, eventSessionId: key.eventSessionId })}`
  expect(await page.evaluate(() => location.hash)).toBe(sessionHash)

  // A hash that names nothing is ignored.
  await page.evaluate(() => {
    location.hash = 'session/only-one-part'
  })
  await expect(page.getByRole('button', { name: /Back/ })).toBeVisible()
})

test('#wall opens wall mode for a kiosk; every view survives a reload, and Back returns to the one before', async ({ page }) => {
  await page.goto(`${host.url}#wall`)
  await expect(page.getByTestId('wall')).toBeVisible()
  await page.reload()
  await expect(page.getByTestId('wall')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('live-row').first()).toBeVisible({ timeout: 30_000 })
  expect(await page.evaluate(() => location.hash)).toBe('#live')
  await page.goBack()
  await expect(page.getByTestId('wall')).toBeVisible()
  await page.goForward()
  const views = page.getByRole('navigation', { name: 'Views' })
  await views.getByRole('button', { name: 'History' }).click()
  await expect(views.getByRole('button', { name: 'History' })).toHaveAttribute('aria-current', 'page')
  await page.reload()
  await expect(views.getByRole('button', { name: 'History' })).toHaveAttribute('aria-current', 'page')
  // A session's drill-down, too.
  await views.getByRole('button', { name: 'Live' }).click()
  await page.getByTestId('live-row').first().click()
  await expect(page.getByRole('button', { name: /Back/ })).toBeVisible()
  const hash = await page.evaluate(() => location.hash)
  expect(hash).toMatch(/^#session\//)
  await page.reload()
  await expect(page.getByRole('button', { name: /Back/ })).toBeVisible()
  expect(await page.evaluate(() => location.hash)).toBe(hash)
  await page.goBack()
  await expect(views.getByRole('button', { name: 'Live' })).toHaveAttribute('aria-current', 'page')
})
