// The renderer never holds a secret. A tenant whose client secret is known, and whose access
// tokens the simulator lists, is shown on every screen; then neither the secret nor any token
// is in the page's DOM, its storage, the answers it received, or its JavaScript heap. And the
// page sent nothing anywhere but its own host, so the viewers' IP addresses it shows stay here.
import { expect, test, type Page } from '@playwright/test'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { addConnection, cli } from './support/cli'
import { openFirstLiveSession } from './support/session'

const secret = `E2E-hygiene-${randomUUID()}`
const name = `Hygiene ${randomUUID().slice(0, 8)}`

/** The page's whole JavaScript heap, after a garbage collection, as the snapshot's JSON text. */
async function heapSnapshot(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page)
  const chunks: string[] = []
  cdp.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => chunks.push(chunk))
  await cdp.send('HeapProfiler.enable')
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
  await cdp.detach()
  return chunks.join('')
}

/** The DOM as markup plus every form field's current value (not in the markup). */
const domAndStorage = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const fields = [...document.querySelectorAll('input, textarea, select')].map(
      (field) => (field as HTMLInputElement).value
    )
    const storage = (store: Storage): string[] =>
      Array.from({ length: store.length }, (_, i) => `${store.key(i)}=${store.getItem(store.key(i) ?? '')}`)
    return [document.documentElement.outerHTML, ...fields, ...storage(localStorage), ...storage(sessionStorage), document.cookie].join('\n')
  })

test.describe('secrets and the renderer', () => {
  let sim: RunningSimulator
  let host: BrowserHost
  let dir: string

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eventwatch-e2e-hygiene-'))
    sim = await startSimulator({
      credentials: { clientId: 'hygiene-client', clientSecret: secret, platformId: 'p-hygiene', tenantId: 't-hygiene' },
      liveSessions: 3,
      endedSessions: 2,
      viewersPerSession: 40
    })
    const db = join(dir, 'cache.db')
    addConnection(name, sim, db)
    host = await startBrowserHost(['--interval', '2', '--db', db])
  })

  test.afterAll(async () => {
    await host?.stop()
    try {
      cli(['connections', 'remove', name, '--db', join(dir, 'cache.db')])
    } catch {
      // the keychain entry may already be gone
    }
    await sim?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('no secret or token in the DOM, storage, answers or heap; nothing sent off the host', async ({ page }) => {
    test.setTimeout(90_000)
    const origin = new URL(host.url).origin
    const foreign: string[] = []
    const answers: Promise<string>[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== origin) foreign.push(request.url())
    })
    page.on('response', (response) => {
      // The event stream never ends, so its body cannot be read here; its payloads land in the heap.
      if (!response.url().includes('/api/events')) answers.push(response.text().catch(() => ''))
    })

    await page.goto(host.url)
    await openFirstLiveSession(page)
    await page.getByTestId('viewer-row').first().click()
    const views = page.getByRole('navigation', { name: 'Views' })
    for (const view of ['History', 'Alerts', 'Diagnostics', 'Settings']) {
      await views.getByRole('button', { name: view }).click()
    }
    await expect(page.getByText(name).first()).toBeVisible()

    const tokens = sim.issuedTokens()
    expect(tokens.length, 'the host fetched at least one access token').toBeGreaterThan(0)
    const places = {
      'DOM, form fields and storage': await domAndStorage(page),
      'answers from the host': (await Promise.all(answers)).join('\n'),
      'JavaScript heap': await heapSnapshot(page)
    }
    // The scans see real data: the connection's name is on screen and so in the DOM and heap.
    expect(places['DOM, form fields and storage']).toContain(name)
    expect(places['JavaScript heap']).toContain(name)
    for (const [where, text] of Object.entries(places)) {
      expect(text.includes(secret), `client secret in the ${where}`).toBe(false)
      for (const token of tokens) expect(text.includes(token), `access token in the ${where}`).toBe(false)
    }
    expect(foreign, 'requests to anywhere but the host').toEqual([])
  })
})
