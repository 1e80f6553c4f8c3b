/// <reference lib="dom" />
// The theme (issue 27, item 3): by default the screens follow the system's light or dark
// preference, live, charts and all; a Light or Dark chosen in Settings → Display wins over it;
// with forced colours (Windows High Contrast) edges, focus and the status words stay. Screenshots
// of each go to test-results/theme-*.png for a person to look at.
import { expect, test, type Page } from '@playwright/test'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { alertsOnCue } from './support/alerts-on-cue'
import { watchProblems } from './support/problems'
import { openFirstLiveSession } from './support/session'
import { openLive, views } from './support/views'

test.use({ viewport: { width: 1400, height: 900 } })
test.describe.configure({ mode: 'serial' })

let host: BrowserHost
test.beforeAll(async () => {
  host = await startBrowserHost(['--interval', '2', '--demo-live', '3'])
  await alertsOnCue(host, 'critical')
})
test.afterAll(async () => {
  await host?.stop()
})

const DARK_BG = 'rgb(15, 17, 21)'
const LIGHT_BG = 'rgb(245, 246, 248)'
const background = (page: Page): Promise<string> => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)

async function expectTheme(page: Page, theme: 'dark' | 'light'): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
  await expect.poll(() => background(page)).toBe(theme === 'dark' ? DARK_BG : LIGHT_BG)
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0)
  await page.screenshot({ path: `test-results/theme-${name}.png` })
}

async function chooseTheme(page: Page, choice: 'system' | 'light' | 'dark'): Promise<void> {
  await views(page).getByRole('button', { name: 'Settings' }).click()
  const display = page.locator('#settings-display')
  await display.getByLabel('Theme').selectOption(choice)
  await expect(display.getByLabel('Theme')).toHaveValue(choice)
  await expect(page.locator('html')).toHaveAttribute('data-theme-choice', choice)
}

test('System (the default) follows the system, live, and the charts with it', async ({ page }) => {
  const problems = watchProblems(page)
  await page.emulateMedia({ colorScheme: 'dark' })
  await openLive(page, host)
  await expect(page.locator('html')).toHaveAttribute('data-theme-choice', 'system')
  await expectTheme(page, 'dark')
  await shoot(page, 'system-dark-live')

  // The system turns light: the page follows without a reload.
  await page.emulateMedia({ colorScheme: 'light' })
  await expectTheme(page, 'light')
  await shoot(page, 'system-light-live')
  await views(page).getByRole('button', { name: /^Alerts/ }).click()
  await expect(page.getByTestId('open-alerts').getByTestId('alert').first()).toBeVisible({ timeout: 30_000 })
  await shoot(page, 'system-light-alerts')

  // A session's charts are drawn in the theme in use, and redrawn when the system turns dark.
  await views(page).getByRole('button', { name: 'Live' }).click()
  await openFirstLiveSession(page)
  const chart = page.getByTestId('chart-reliability')
  await expect(chart.locator('canvas')).toBeVisible({ timeout: 30_000 })
  await expect(chart).toHaveAttribute('data-drawn-in', 'light')
  await shoot(page, 'system-light-session')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectTheme(page, 'dark')
  await expect(chart).toHaveAttribute('data-drawn-in', 'dark')
  await shoot(page, 'system-dark-session')
  expect(problems).toEqual([])
})

test('Light or Dark chosen in Settings wins over the system, and System gives it back', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await openLive(page, host)
  await chooseTheme(page, 'light')
  await expectTheme(page, 'light')
  await shoot(page, 'chosen-light-system-dark')
  // Kept with the other display settings: a reload, or the system changing, does not undo it.
  await page.reload()
  await page.emulateMedia({ colorScheme: 'light' })
  await chooseTheme(page, 'dark')
  await expectTheme(page, 'dark')
  await page.reload()
  await expectTheme(page, 'dark')
  await shoot(page, 'chosen-dark-system-light')
  await chooseTheme(page, 'system')
  await expectTheme(page, 'light')
})

test('forced colours (Windows High Contrast): edges, focus and the status words stay', async ({ page }) => {
  const problems = watchProblems(page)
  await page.emulateMedia({ colorScheme: 'dark', forcedColors: 'active' })
  await openLive(page, host)
  await expect(page.locator('html')).toHaveAttribute('data-forced-colors', 'true')
  // What was a filled badge keeps its text: never drawn in the colour of what is behind it.
  const inked = (testid: string) =>
    page.getByTestId(testid).first().evaluate((el) => {
      let behind = 'rgba(0, 0, 0, 0)'
      for (let e: Element | null = el; e && behind === 'rgba(0, 0, 0, 0)'; e = e.parentElement) behind = getComputedStyle(e).backgroundColor
      return { text: el.textContent?.trim(), ink: getComputedStyle(el).color, behind }
    })
  for (const testid of ['header-alerts', 'nav-alerts-count', 'health']) {
    const { text, ink, behind } = await inked(testid)
    expect(text, testid).toBeTruthy()
    expect(ink, `${testid} ("${text}") is drawn in the colour behind it`).not.toBe(behind)
  }
  await shoot(page, 'forced-colors-live')

  await views(page).getByRole('button', { name: /^Alerts/ }).click()
  const card = page.getByTestId('open-alerts').getByTestId('alert').first()
  await expect(card).toBeVisible({ timeout: 30_000 })
  // The severity is a word and an icon, not a colour; the card and its tags keep their edges.
  await expect(card.getByTestId('alert-severity')).toHaveText(/^\s*[✖▲]\s*(Critical|Warning)\s*$/)
  const edges = await card.evaluate((el) => {
    const style = (e: Element) => getComputedStyle(e)
    const tag = el.querySelector('[data-testid=alert-severity]')!
    return { card: style(el).borderTopStyle, tag: style(tag).borderTopStyle }
  })
  expect(edges).toEqual({ card: 'solid', tag: 'solid' })
  // The focus ring is the system's highlight, wide enough to see.
  const button = card.getByRole('button', { name: 'Acknowledge…' })
  await button.focus()
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Tab')
  await expect(button).toBeFocused()
  const ring = await button.evaluate((el) => {
    const style = getComputedStyle(el)
    const probe = document.createElement('span')
    probe.style.color = 'Highlight'
    document.body.append(probe)
    const highlight = getComputedStyle(probe).color
    probe.remove()
    return { style: style.outlineStyle, width: style.outlineWidth, colour: style.outlineColor, highlight }
  })
  expect(ring).toMatchObject({ style: 'solid', width: '3px', colour: ring.highlight })
  await shoot(page, 'forced-colors-alerts')

  await views(page).getByRole('button', { name: 'Live' }).click()
  await openFirstLiveSession(page)
  const chart = page.getByTestId('chart-reliability')
  await expect(chart.locator('canvas')).toBeVisible({ timeout: 30_000 })
  await expect(chart).toHaveAttribute('data-drawn-in', 'dark forced-colors')
  await shoot(page, 'forced-colors-session')

  await views(page).getByRole('button', { name: 'Settings' }).click()
  await page.locator('#settings-display').scrollIntoViewIfNeeded()
  await shoot(page, 'forced-colors-settings')

  await views(page).getByRole('button', { name: 'Wall mode' }).click()
  await expect(page.getByTestId('wall-tile').first()).toBeVisible()
  await shoot(page, 'forced-colors-wall')
  expect(problems).toEqual([])
})
