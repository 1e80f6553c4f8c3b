// The alert situation as an operator meets it: one incident on cue, and the three faces that must
// tell the same story about it (the header, the Alerts view, the wall), with their colours read
// from the page as drawn.
import { expect, type Locator, type Page } from '@playwright/test'
import { DEFAULT_ALERT_RULES, type Alert, type AlertRules, type AlertState, type SituationTone } from '../../../src/shared/alerts'
import { plainText } from '../../../src/shared/plain-text'
import { startBrowserHost, type BrowserHost } from '../browser-host'
import { request } from './api'
import { views } from './views'

/** Seconds after start-up when the demo's first live session loses 25 points (`--demo-incident`). */
const INCIDENT_AFTER = 10

/**
 * Levels that only the incident crosses. The forced incident holds the first live session at its
 * baseline (96–99.6) minus 25, so at most 74.9: critical. The demo's own random incidents aim 18
 * points down (78 and above) and stay above the warning level, so they cannot add an alert.
 */
export const INCIDENT_LEVELS = { warning: 76, critical: 75.5 }

/** Only "reliability below" is on, needing `pendingPolls` polls in a row before it fires. */
export const incidentRules = (pendingPolls: number): AlertRules => ({
  ...DEFAULT_ALERT_RULES,
  reliabilityBelow: { ...DEFAULT_ALERT_RULES.reliabilityBelow, pendingPolls },
  reliabilityFalling: { ...DEFAULT_ALERT_RULES.reliabilityFalling, enabled: false },
  viewersDropping: { ...DEFAULT_ALERT_RULES.viewersDropping, enabled: false }
})

/**
 * A browser host whose demo has one incident INCIDENT_AFTER seconds in, polled every 2 s, and
 * whose rules and levels let exactly one alert come of it: a critical "reliability below".
 */
export async function startIncidentHost(pendingPolls: number): Promise<BrowserHost> {
  const host = await startBrowserHost(['--interval', '2', '--demo-live', '2', '--demo-incident', String(INCIDENT_AFTER)])
  try {
    await request(host, 'saveSettings', { thresholds: INCIDENT_LEVELS, alertRules: incidentRules(pendingPolls) })
    const { situation } = await request(host, 'listAlerts', {})
    // Saved before the incident: nothing the default rules made of it is around (the demo may
    // not have been polled yet: "No alerts · waiting for the first poll of Demo data").
    expect(plainText(situation.headline), 'the rules were saved after the incident had begun').toMatch(/^No alerts( · waiting for the first poll of Demo data)?$/)
  } catch (error) {
    await host.stop()
    throw error
  }
  return host
}

/** Waits until the incident's alert is in `state` (critical, as the levels make it) and returns it. */
export async function incidentAlert(host: BrowserHost, state: AlertState): Promise<Alert> {
  let found: Alert | undefined
  await expect
    .poll(
      async () => {
        const { alerts } = await request(host, 'listAlerts', {})
        found = alerts.find((a) => a.rule === 'reliability-below' && a.state !== 'resolved')
        return found?.state
      },
      { message: `the incident's alert to be ${state}`, timeout: 60_000, intervals: [500] }
    )
    .toBe(state)
  expect(found?.severity).toBe('critical')
  return found as Alert
}

/** How an element is painted, and the theme's colours where it stands (the wall has its own). */
export interface Paint {
  color: string
  background: string
  border: string
  good: string
  warning: string
  critical: string
}

export function paintOf(locator: Locator): Promise<Paint> {
  return locator.evaluate((el) => {
    const resolve = (name: string): string => {
      const probe = document.createElement('span')
      probe.style.color = `var(${name})`
      el.parentElement?.appendChild(probe)
      const value = getComputedStyle(probe).color
      probe.remove()
      return value
    }
    const style = getComputedStyle(el)
    const bordered = style.borderTopStyle !== 'none' && parseFloat(style.borderTopWidth) > 0
    return {
      color: style.color,
      background: style.backgroundColor,
      border: bordered ? style.borderTopColor : 'none',
      good: resolve('--good'),
      warning: resolve('--warning'),
      critical: resolve('--critical')
    }
  })
}

const painted = (p: Paint): string[] => [p.color, p.background, p.border]

/**
 * What one tone may and must look like, judged by the colours drawn: never the all-clear green
 * while anything is open; critical in red; a pending critical outlined in red, never the warning
 * yellow; held (snoozed, muted, cooling down) neutral, in none of the alarm colours.
 */
export async function expectPaintOf(locator: Locator, tone: SituationTone, what: string): Promise<void> {
  const paint = await paintOf(locator)
  const used = painted(paint)
  if (tone !== 'ok') expect(used, `${what} is painted in the all-clear green`).not.toContain(paint.good)
  if (tone === 'critical') expect(used, `${what} is not painted red`).toContain(paint.critical)
  if (tone === 'pending') {
    expect(used, `${what} (a pending critical) is painted as a warning`).not.toContain(paint.warning)
    expect(used, `${what} (a pending critical) does not show its severity`).toContain(paint.critical)
  }
  if (tone === 'held') {
    expect(used, `${what} (held) is painted as an alarm`).not.toContain(paint.warning)
    expect(used, `${what} (held) is painted as an alarm`).not.toContain(paint.critical)
  }
}

export interface ExpectedSituation {
  tone: SituationTone
  /** The icon the tone shows (never colour alone). */
  icon: string
  headline: string
  /** The count beside "Alerts" in the views' bar, and its words; null when none is shown. */
  navCount: { n: number; label: string } | null
  /** The state of the incident's card in the Alerts view. */
  cardState: AlertState
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The face shows the icon and the headline, and nothing else of the alerts. */
async function expectFace(locator: Locator, expected: ExpectedSituation, what: string): Promise<void> {
  await expect(locator, what).toHaveAttribute('data-tone', expected.tone)
  await expect(locator, what).toHaveText(new RegExp(`^\\s*${escaped(expected.icon)}\\s*${escaped(expected.headline)}\\s*$`))
  await expect(locator, what).not.toContainText('No alerts')
  if (expected.tone !== 'ok') await expect(locator, what).not.toContainText('✓')
  if (expected.tone !== 'warning') await expect(locator, what).not.toContainText('▲')
  await expectPaintOf(locator, expected.tone, what)
}

/** The header says it (and the window title), as drawn now on whatever view is open. */
export async function expectHeader(page: Page, expected: ExpectedSituation): Promise<void> {
  await expectFace(page.getByTestId('header-alerts'), expected, 'the header')
  await expect(page).toHaveTitle(`${expected.icon} ${expected.headline} — Eventwatch`)
}

/**
 * The header, the Alerts view (its count in the views' bar, its title line, the incident's card)
 * and the wall all say `expected`. Screenshots of the Alerts view and of the wall go to
 * test-results/situation-<shot>.png and situation-<shot>-wall.png. Ends on the Live view.
 */
export async function expectSituationEverywhere(page: Page, expected: ExpectedSituation, shot: string): Promise<void> {
  await expectHeader(page, expected)

  await views(page).getByRole('button', { name: /^Alerts/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible()
  await expectFace(page.getByTestId('alerts-situation'), expected, 'the Alerts view')
  const count = views(page).getByTestId('nav-alerts-count')
  if (expected.navCount) {
    await expect(count).toHaveText(String(expected.navCount.n))
    await expect(count).toHaveAttribute('aria-label', expected.navCount.label)
  } else {
    await expect(count).toHaveCount(0)
  }
  const cards = page.getByTestId('open-alerts').getByTestId('alert')
  await expect(cards).toHaveCount(1)
  await expect(cards.first()).toHaveAttribute('data-state', expected.cardState)
  await expect(cards.first().getByTestId('alert-severity')).toHaveText(/Critical/)
  await expectHeader(page, expected)
  await page.mouse.move(0, 0)
  await page.screenshot({ path: `test-results/situation-${shot}.png` })

  await views(page).getByRole('button', { name: 'Wall mode' }).click()
  await expect(page.getByTestId('wall-tile').first()).toBeVisible()
  await expectFace(page.getByTestId('wall-situation'), expected, 'the wall')
  await page.screenshot({ path: `test-results/situation-${shot}-wall.png` })
  await page.getByRole('button', { name: 'Exit' }).click()
  await expect(page.getByTestId('live-table')).toBeVisible()
}
