/// <reference lib="dom" />
// One situation on every face: while an acknowledged alert still fires, while a critical is
// pending, while an alert is snoozed, and right after a reload mid-incident, the header, the
// Alerts view and the wall say the same words with the same severity, and nothing is green while
// anything is open. Each scenario has a host of its own, whose demo incident makes exactly one
// critical "reliability below" alert (support/situation.ts).
import { expect, test as base } from '@playwright/test'
import type { BrowserHost } from './browser-host'
import { request } from './support/api'
import { watchProblems } from './support/problems'
import { expectHeader, expectSituationEverywhere, incidentAlert, startIncidentHost, type ExpectedSituation } from './support/situation'
import { openLive, pausePolling } from './support/views'

const test = base.extend<{ pendingPolls: number; host: BrowserHost }>({
  /** Polls in a row before "reliability below" fires (the default is 2). */
  pendingPolls: [2, { option: true }],
  host: async ({ pendingPolls }, use) => {
    const host = await startIncidentHost(pendingPolls)
    await use(host)
    await host.stop()
  }
})

test.use({ viewport: { width: 1600, height: 900 } })
test.describe.configure({ timeout: 120_000 })

const firingCritical: ExpectedSituation = {
  tone: 'critical',
  icon: '✖',
  headline: '1 alert firing',
  navCount: { n: 1, label: '1 firing' },
  cardState: 'firing'
}

test('while an acknowledged alert still fires, every face says so in red', async ({ page, host }) => {
  const problems = watchProblems(page)
  await openLive(page, host)
  const alert = await incidentAlert(host, 'firing')
  await request(host, 'acknowledgeAlert', { id: alert.id, note: 'on it' })
  await expectSituationEverywhere(
    page,
    { ...firingCritical, headline: '1 alert firing (1 acknowledged)', cardState: 'acknowledged' },
    'acknowledged'
  )
  expect(problems).toEqual([])
})

test.describe('a pending critical', () => {
  // Sixty polls of 2 s: it stays pending for two minutes, longer than this test looks.
  test.use({ pendingPolls: 60 })

  test('shows as pending, with its severity, not as a warning and not green', async ({ page, host }) => {
    const problems = watchProblems(page)
    await openLive(page, host)
    await incidentAlert(host, 'pending')
    await expect(page.getByTestId('header-alerts')).toHaveClass(/critical-pending/)
    await expectSituationEverywhere(
      page,
      { tone: 'pending', icon: '◷', headline: '1 pending critical', navCount: { n: 1, label: '1 pending' }, cardState: 'pending' },
      'pending'
    )
    // Still pending at the end: nothing above was seen after it fired.
    expect((await request(host, 'listAlerts', {})).situation.pending).toBe(1)
    expect(problems).toEqual([])
  })
})

test('while the only alert is snoozed, every face says snoozed, neutral and not green', async ({ page, host }) => {
  const problems = watchProblems(page)
  await openLive(page, host)
  const alert = await incidentAlert(host, 'firing')
  await request(host, 'snoozeAlert', { id: alert.id, until: '15m' })
  await expectSituationEverywhere(page, { tone: 'held', icon: '‖', headline: '1 snoozed', navCount: null, cardState: 'snoozed' }, 'snoozed')
  expect(problems).toEqual([])
})

declare global {
  interface Window {
    /** Every state the header showed, "tone|text", from the first paint on. */
    __headerStates: string[]
  }
}

test('a reload mid-incident shows the critical situation at once, before any push', async ({ page, host }) => {
  await openLive(page, host)
  await incidentAlert(host, 'firing')
  await expect(page.getByTestId('header-alerts')).toHaveAttribute('data-tone', 'critical')

  // From here nothing can be pushed: polling is paused, and the reloaded page gets no event stream.
  await pausePolling(page, host)
  await page.route('**/api/events', (route) => route.abort())
  await page.addInitScript(() => {
    window.__headerStates = []
    const record = (): void => {
      const header = document.querySelector('[data-testid=header-alerts]')
      if (!header) return
      const state = `${header.getAttribute('data-tone')}|${(header.textContent ?? '').replace(/\s+/g, ' ').trim()}`
      if (window.__headerStates.at(-1) !== state) window.__headerStates.push(state)
    }
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
  })
  await page.reload()

  await expectHeader(page, firingCritical)
  await page.mouse.move(0, 0)
  await page.screenshot({ path: 'test-results/situation-reload.png' })
  // Before it said so, it said nothing of the alerts: never green, never another severity.
  const seen = await page.evaluate(() => window.__headerStates)
  expect(seen.at(-1)).toBe('critical|✖ 1 alert firing')
  for (const state of seen.slice(0, -1)) expect(state).toBe('unknown|Reading the alerts…')

  await expectSituationEverywhere(page, firingCritical, 'reload-alerts')
  expect((await request(host, 'listAlerts', {})).situation.pollingPaused).toBe(true)
})
