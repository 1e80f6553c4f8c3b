// The Live view's cost per poll does not grow with the number of live sessions: pushes carry the
// changed rows and their newest snapshots, and trends come in one batched request. Counted with
// 4 and with 40 live demo sessions over the same time.
import { expect, test, type Page } from '@playwright/test'
import { startBrowserHost, type BrowserHost } from './browser-host'

/** How long the Live view is watched, polling every 2 s: a minute, so the counts are per minute. */
const WATCH_MS = 60_000

async function requestsOnLive(page: Page, liveSessions: number): Promise<Record<string, number>> {
  const host: BrowserHost = await startBrowserHost(['--interval', '2', '--demo-live', String(liveSessions)])
  try {
    const names: string[] = []
    page.on('request', (request) => {
      const match = /\/api\/request\/([A-Za-z]+)/.exec(request.url())
      if (match?.[1]) names.push(match[1])
    })
    await page.goto(host.url)
    await expect(page.getByTestId('live-row')).toHaveCount(liveSessions, { timeout: 60_000 })
    await page.waitForTimeout(WATCH_MS)
    await expect(page.getByTestId('live-row').first()).toBeVisible()
    const counts: Record<string, number> = {}
    for (const name of names) counts[name] = (counts[name] ?? 0) + 1
    return counts
  } finally {
    await host.stop()
  }
}

const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0)

test('the Live view asks for as much with 40 live sessions as with 4', async ({ browser }) => {
  test.setTimeout(360_000)
  const few = await requestsOnLive(await browser.newPage(), 4)
  const many = await requestsOnLive(await browser.newPage(), 40)
  console.log(`perf: Live view requests per minute: 4 sessions ${total(few)} ${JSON.stringify(few)}; 40 sessions ${total(many)} ${JSON.stringify(many)}`)
  // Never one request per session: no per-session charts, and trends for every session at once.
  expect(many.sessionChart ?? 0).toBe(0)
  expect(many.liveTrends ?? 0).toBeLessThanOrEqual(3)
  // Apart from the board, settings, status and alerts read once, a poll costs nothing.
  expect(total(many)).toBeLessThanOrEqual(total(few) + 3)
  expect(total(many)).toBeLessThanOrEqual(10)
})
