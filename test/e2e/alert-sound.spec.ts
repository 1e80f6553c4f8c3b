/// <reference lib="dom" />
// Sound per severity (issue 27, item 3): a critical firing plays three short high beeps, a warning
// one soft lower tone, each on or off in Settings → Display (critical on, warning off by default).
// Heard through the page's own Web Audio: an init script wraps the browser's real AudioContext and
// records every tone the app starts (wave and pitch), so a play the app skips, or plays twice, shows.
import { expect, test, type Page } from '@playwright/test'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { alertsOnCue, noOpenAlert } from './support/alerts-on-cue'
import { watchProblems } from './support/problems'
import { openLive, views } from './support/views'

test.use({ viewport: { width: 1400, height: 900 } })

let host: BrowserHost
test.beforeAll(async () => {
  host = await startBrowserHost(['--interval', '2', '--demo-live', '1'])
  await alertsOnCue(host, 'none')
})
test.afterAll(async () => {
  await host?.stop()
})

interface Tone {
  /** Which play it belongs to: the app reads the context's clock once per sound, to schedule its
   *  tones from (the clock itself may move between two tones, or stand still while suspended). */
  play: number
  wave: string
  frequency: number
}

declare global {
  interface Window {
    __tones: Tone[]
    __plays: number
  }
}

/** Records every oscillator the app starts, on the real AudioContext (nothing stubbed away). */
async function listenToTones(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__tones = []
    window.__plays = 0
    const Real = window.AudioContext
    class Listening extends Real {
      override get currentTime(): number {
        window.__plays++
        return super.currentTime
      }
      override createOscillator(): OscillatorNode {
        const oscillator = super.createOscillator()
        const play = window.__plays
        const start = oscillator.start.bind(oscillator)
        oscillator.start = (when?: number) => {
          window.__tones.push({ play, wave: oscillator.type, frequency: oscillator.frequency.value })
          start(when)
        }
        return oscillator
      }
    }
    Object.defineProperty(window, 'AudioContext', { value: Listening, configurable: true })
  })
}

/** Each play the page made, as the tones it was made of: "square 880 ×3" or "sine 523 ×1". */
async function plays(page: Page): Promise<string[]> {
  const tones = await page.evaluate(() => window.__tones)
  const byPlay = new Map<number, Tone[]>()
  for (const tone of tones) byPlay.set(tone.play, [...(byPlay.get(tone.play) ?? []), tone])
  return [...byPlay.values()].map((t) => `${[...new Set(t.map((x) => `${x.wave} ${x.frequency}`))].join(', ')} ×${t.length}`)
}

const CRITICAL = 'square 880 ×3'
const WARNING = 'sine 523 ×1'

/** Moves the levels and waits until the page's header shows the alert firing at that severity:
 *  the push that brought it has been handled, sound and all. */
async function fire(page: Page, severity: 'warning' | 'critical'): Promise<void> {
  await alertsOnCue(host, 'none')
  await noOpenAlert(host)
  const header = page.getByTestId('header-alerts')
  await expect(header).toHaveAttribute('data-firing', '0', { timeout: 15_000 })
  await alertsOnCue(host, severity)
  await expect(header).toHaveAttribute('data-tone', severity, { timeout: 30_000 })
  await expect.poll(async () => Number(await header.getAttribute('data-firing'))).toBeGreaterThan(0)
}

test('a critical and a warning sound apart, each on or off in Settings, once per firing', async ({ page }) => {
  test.setTimeout(120_000)
  const problems = watchProblems(page)
  await listenToTones(page)
  await openLive(page, host)

  // By default a warning is quiet and a critical is heard: once, not again at the next pushes.
  await fire(page, 'warning')
  expect(await plays(page)).toEqual([])
  await fire(page, 'critical')
  expect(await plays(page)).toEqual([CRITICAL])
  await page.waitForTimeout(5_000) // two or three more polls, each pushing the alert's new value
  expect(await plays(page)).toEqual([CRITICAL])

  // Warning on, critical off, in Settings → Display.
  await views(page).getByRole('button', { name: 'Settings' }).click()
  const display = page.locator('#settings-display')
  await expect(display.getByLabel('Sound for critical alerts')).toHaveValue('on')
  await expect(display.getByLabel('Sound for warnings')).toHaveValue('off')
  await display.getByLabel('Sound for warnings').selectOption('on')
  await expect(display.getByRole('status')).toContainText('Saved.')
  await display.getByLabel('Sound for critical alerts').selectOption('off')
  await expect(display.getByLabel('Sound for critical alerts')).toHaveValue('off')
  await expect(display.getByRole('status')).toContainText('Saved.')
  await page.mouse.move(0, 0)
  await display.screenshot({ path: 'test-results/settings-display-sound.png' })

  await fire(page, 'warning')
  expect(await plays(page)).toEqual([CRITICAL, WARNING])
  await fire(page, 'critical')
  expect(await plays(page)).toEqual([CRITICAL, WARNING])
  expect(problems).toEqual([])
})
