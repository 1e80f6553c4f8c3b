// Navigation security in Chromium against the browser host: injected links, target=_blank,
// window.open, server redirects and javascript: URLs cannot replace the app, run script or open
// anything but an https page in a new tab without a handle back to the app (link-guard.ts, the
// CSP and the host's access rules). No real network: every foreign host is intercepted.
import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { startBrowserHost, type BrowserHost } from './browser-host'

let host: BrowserHost

test.beforeAll(async () => {
  host = await startBrowserHost(['--interval', '2'])
})

test.afterAll(async () => {
  await host?.stop()
})

interface Watch {
  /** Every request that left the host's origin (intercepted, never sent). */
  foreign: string[]
  popups: Page[]
  dialogs: string[]
}

/** Intercepts every foreign request in the context, answering with a harmless page. */
async function watch(context: BrowserContext, page: Page): Promise<Watch> {
  const seen: Watch = { foreign: [], popups: [], dialogs: [] }
  await context.route(
    (url) => url.origin !== host.origin,
    async (route) => {
      seen.foreign.push(route.request().url())
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Outside</title><p>outside</p>' })
    }
  )
  context.on('page', (popup) => seen.popups.push(popup))
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  return seen
}

/** Opens the printed address and waits for the app. */
async function openApp(page: Page): Promise<void> {
  await page.goto(host.url)
  // No token left in the address: the app's own page, with the hash of the view shown.
  await expect(page).toHaveURL(`${host.origin}/#live`)
  await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible()
}

/** Adds a link the way injected content would, and returns its locator. */
async function injectLink(page: Page, href: string, target = ''): Promise<ReturnType<Page['locator']>> {
  await page.evaluate(
    ({ href, target }) => {
      const link = document.createElement('a')
      link.id = 'injected-link'
      link.href = href
      if (target) link.target = target
      link.textContent = 'Injected link'
      link.style.cssText = 'position:fixed;top:0;left:0;z-index:99999;background:#fff;padding:8px'
      document.getElementById('injected-link')?.remove()
      document.body.append(link)
    },
    { href, target }
  )
  return page.locator('#injected-link')
}

/**
 * Proves the app is still this page and alive: the same address, and its router still follows
 * an in-app hash link (the app reads the hash and opens the view).
 */
async function expectAppIntact(page: Page): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${host.origin.replace(/[.]/g, '\\.')}/(#.*)?$`))
  const views = page.getByRole('navigation', { name: 'Views' })
  await (await injectLink(page, '#alerts')).click()
  await expect(views.getByRole('button', { name: /Alerts/ })).toHaveAttribute('aria-current', 'page')
  await views.getByRole('button', { name: 'Live' }).click()
  await expect(views.getByRole('button', { name: 'Live' })).toHaveAttribute('aria-current', 'page')
}

const FOREIGN = ['http://evil.example/', '//evil.example/steal', 'http://localhost:1/', 'file:///etc/passwd', 'data:text/html,<p>x</p>']

for (const target of ['', '_blank']) {
  test(`a ${target || 'plain'} link to a foreign page is cancelled and nothing is requested`, async ({ page, context }) => {
    const seen = await watch(context, page)
    await openApp(page)
    for (const href of FOREIGN) {
      const link = await injectLink(page, href, target)
      await link.click()
      // The app's own next navigation proves the click was handled before we look.
      await expectAppIntact(page)
      expect(seen.foreign, href).toEqual([])
      expect(seen.popups, href).toEqual([])
    }
  })
}

for (const target of ['', '_blank']) {
  test(`a ${target || 'plain'} https link opens in a new tab with no opener, and the app stays`, async ({ page, context }) => {
    const seen = await watch(context, page)
    await openApp(page)
    const link = await injectLink(page, 'https://docs.example/help?from=app', target)
    const popupOpened = context.waitForEvent('page')
    await link.click()
    const popup = await popupOpened
    await popup.waitForLoadState()
    expect(popup.url()).toBe('https://docs.example/help?from=app')
    expect(await popup.evaluate(() => window.opener)).toBeNull()
    expect(seen.foreign).toEqual(['https://docs.example/help?from=app'])
    await expectAppIntact(page)
  })
}

test('a middle click on a foreign link is cancelled too', async ({ page, context }) => {
  const seen = await watch(context, page)
  await openApp(page)
  const link = await injectLink(page, 'http://evil.example/')
  await link.click({ button: 'middle' })
  await expectAppIntact(page)
  expect(seen.foreign).toEqual([])
  expect(seen.popups).toEqual([])
})

test('window.open opens https alone, in a new tab with no opener', async ({ page, context }) => {
  const seen = await watch(context, page)
  await openApp(page)
  const refused = await page.evaluate(() =>
    ['http://evil.example/', '//evil.example/', 'javascript:window.__pwned = 1', 'data:text/html,x', 'file:///etc/passwd', ''].map(
      (url) => window.open(url, '_self')
    )
  )
  expect(refused).toEqual([null, null, null, null, null, null])
  await expectAppIntact(page)
  expect(seen.popups).toEqual([])
  expect(seen.foreign).toEqual([])
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()

  const popupOpened = context.waitForEvent('page')
  // Even asked for this very tab and with an opener, it gets a new tab without one.
  const handle = await page.evaluate(() => window.open('https://docs.example/', '_self', 'opener'))
  const popup = await popupOpened
  await popup.waitForLoadState()
  expect(handle).toBeNull()
  expect(popup.url()).toBe('https://docs.example/')
  expect(await popup.evaluate(() => window.opener)).toBeNull()
  await expectAppIntact(page)
})

test('a javascript: URL runs nothing: not as a link, not as a navigation, not as an inline handler', async ({ page, context }) => {
  const seen = await watch(context, page)
  await openApp(page)
  const violations: string[] = []
  await page.exposeFunction('reportViolation', (directive: string) => violations.push(directive))
  await page.evaluate(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation(d: string): void }).reportViolation(event.effectiveDirective)
    )
  })

  // A link: the guard cancels it before the browser would even ask the CSP.
  const link = await injectLink(page, 'javascript:window.__pwned = 1; alert("pwned")')
  await link.click()
  await expectAppIntact(page)

  // Around the guard: a navigation to javascript: and an inline handler are CSP violations.
  await page.evaluate(() => {
    location.href = 'javascript:window.__pwned = 2; alert("pwned")'
  })
  await page.evaluate(() => {
    const holder = document.createElement('div')
    holder.innerHTML = '<img src="data:," onerror="window.__pwned = 3; alert(\'pwned\')">'
    document.body.append(holder)
  })
  await expect.poll(() => violations.filter((d) => d.startsWith('script-src')).length).toBeGreaterThanOrEqual(2)

  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
  expect(seen.dialogs).toEqual([])
  expect(seen.foreign).toEqual([])
  await expectAppIntact(page)
})

test('the host never redirects off its origin, whatever the address asks', async ({ page, context }) => {
  const seen = await watch(context, page)
  const token = host.token
  for (const path of [
    `//evil.example/?token=${token}`,
    `/?token=${token}&next=https://evil.example/`,
    `/?next=//evil.example/&token=${token}`,
    `/%2F%2Fevil.example/?token=${token}`,
    `/assets/?token=${token}#alerts`
  ]) {
    const response = await page.goto(`${host.origin}${path}`)
    expect(response?.status(), path).toBe(200)
    expect(new URL(page.url()).origin, path).toBe(host.origin)
    expect(new URL(page.url()).pathname, path).toBe('/')
    await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible()
  }
  // The fragment survives the redirect, so a deep link with the token lands on its view.
  await page.goto(`${host.url}#alerts`)
  await expect(page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /Alerts/ })).toHaveAttribute('aria-current', 'page')
  expect(page.url()).toBe(`${host.origin}/#alerts`) // the token gone, the view's hash kept
  expect(seen.foreign).toEqual([])
})

test('without the token the page says what to open, and a foreign page cannot use or frame the app', async ({ page, context }) => {
  const bare = await page.goto(`${host.origin}/`)
  expect(bare?.status()).toBe(401)
  await expect(page.locator('body')).toContainText('eventwatch serve')

  // Let in (the cookie is set), then visit a foreign page that calls the API and frames the app.
  await openApp(page)
  await context.route('http://evil.example/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><iframe src="${host.origin}/"></iframe><script>
        fetch('${host.origin}/api/request/listConnections', { method: 'POST', mode: 'no-cors', credentials: 'include', body: '{}' })
      </script>`
    })
  )
  const apiOutcome = outcomeOf(page, `${host.origin}/api/request/listConnections`)
  const frameOutcome = outcomeOf(page, `${host.origin}/`)
  await page.goto('http://evil.example/')
  // Chromium may block a public page's request to loopback itself; if it reaches the host, the
  // host refuses it: a foreign Origin (403), and no cookie on a cross-site request (401).
  expect(['failed', 403]).toContain(await apiOutcome)
  expect(['failed', 401]).toContain(await frameOutcome)
})

/** The status a request to `url` got, or "failed" if the browser never got an answer. */
function outcomeOf(page: Page, url: string): Promise<number | 'failed'> {
  return new Promise((resolve) => {
    page.on('response', (response) => {
      if (response.url() === url) resolve(response.status())
    })
    page.on('requestfailed', (request) => {
      if (request.url() === url) resolve('failed')
    })
  })
}

test('an event name with HTML and a javascript: URL from the API renders as inert text', async ({ page, context }) => {
  const seen = await watch(context, page)
  const hostile = '<img src="/x-injected" onerror="window.__pwned = 1"><a href="javascript:window.__pwned = 2">Town hall</a>'
  // Pushes carry live rows (with the service's real names) and would replace these at the next
  // poll: the push stream is held back, so the page shows the board as read.
  await page.route('**/api/events', (route) => route.abort())
  await page.route('**/api/request/listLiveSessions', async (route) => {
    const response = await route.fetch()
    const body = (await response.json()) as { ok: boolean; value: { sessions: { eventName: string | null }[] } }
    for (const session of body.value.sessions) session.eventName = hostile
    await route.fulfill({ response, json: body })
  })
  const injectedRequests: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('x-injected')) injectedRequests.push(request.url())
  })
  await openApp(page)
  const name = page.getByTestId('live-row').first().getByText(hostile, { exact: true })
  await expect(name).toBeVisible({ timeout: 30_000 })
  expect(await page.getByTestId('live-row').first().locator('img, a[href^="javascript:"]').count()).toBe(0)
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
  expect(injectedRequests).toEqual([])
  expect(seen.foreign).toEqual([])
})

test('a page whose access is gone (the host restarted) says what to open instead of failing silently', async ({ page, context }) => {
  await openApp(page)
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click()
  const section = page.locator('#settings-alerts')
  await expect(section.getByRole('heading', { name: 'Alert rules' })).toBeVisible()
  // A new launch has a new token: to this page, that is its cookie no longer being accepted.
  await context.clearCookies()
  await section.getByTestId('alert-rule-reliabilityFalling').getByLabel('Drop of at least').fill('9')
  await section.getByRole('button', { name: 'Save alert rules' }).click()
  await expect(section).toContainText('Not saved: The Eventwatch host no longer accepts this page')
  await expect(section).toContainText('Open the address `eventwatch serve` printed')
})
