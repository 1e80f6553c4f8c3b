// The wall on the screens it meets (issue 14): every live session on screen at 1366×768,
// 1920×1080 and 3840×2160, nothing clipped, the type growing with the screen — and pages, turned
// by the wall, when the tiles would not read otherwise. Screenshots of each are kept.
import { expect, test, type Page } from '@playwright/test'
import { startBrowserHost, type BrowserHost } from './browser-host'

const SIZES = [
  [1366, 768],
  [1920, 1080],
  [3840, 2160]
] as const

/** Each tile inside the window, and no figure cut short inside its tile. */
async function expectTilesFit(page: Page, width: number, height: number): Promise<number> {
  const tiles = page.getByTestId('wall-tile')
  const count = await tiles.count()
  for (let i = 0; i < count; i++) {
    const box = (await tiles.nth(i).boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5)
    expect(box.y + box.height).toBeLessThanOrEqual(height + 0.5)
  }
  const clipped = await page.evaluate(() => {
    // The widest score there is, whatever the demo shows now: "100.0" with a trend arrow must fit
    // too (set and measured in one go, before the next push redraws it).
    for (const el of document.querySelectorAll('[data-testid="wall-reliability"]')) {
      if (el.firstChild?.nodeType === Node.TEXT_NODE) el.firstChild.textContent = '100.0'
      const arrow = el.querySelector('.trend [aria-hidden]')
      if (arrow) arrow.textContent = '↘'
    }
    return [...document.querySelectorAll<HTMLElement>('[data-testid="wall-tile"] .value, [data-testid="wall-tile"] footer')].filter(
      (el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().bottom > el.closest('article')!.getBoundingClientRect().bottom + 1
    ).length
  })
  expect(clipped).toBe(0)
  return count
}

for (const live of [8, 20]) {
  test.describe(`the wall with ${live} live sessions`, () => {
    let host: BrowserHost
    test.beforeAll(async () => {
      host = await startBrowserHost(['--interval', '5', '--demo-live', String(live)])
    })
    test.afterAll(async () => {
      await host?.stop()
    })

    test('fits every screen size, the type growing with it', async ({ page }) => {
      const fonts: number[] = []
      const shown: number[] = []
      for (const [width, height] of SIZES) {
        await page.setViewportSize({ width, height })
        await page.goto(`${host.url}#wall`)
        await expect(page.getByTestId('wall-tile').first()).toBeVisible({ timeout: 30_000 })
        await expect(page.getByTestId('wall-status')).toContainText(`${live} live sessions`)
        await expect(page.getByTestId('wall-status')).toContainText('Last update', { timeout: 30_000 })
        const paged = page.getByTestId('wall-page')
        // Let the layout settle on the measured stage.
        await page.waitForTimeout(300)
        // The screenshot first: the check below writes the widest score into every tile.
        await page.screenshot({ path: `test-results/wall-${live}-${width}x${height}.png` })
        const onScreen = await expectTilesFit(page, width, height)
        shown.push(onScreen)
        if ((await paged.count()) === 0) expect(onScreen).toBe(live)
        else {
          const [, pageCount] = /of (\d+)/.exec((await paged.textContent())!)!
          expect(onScreen * Number(pageCount)).toBeGreaterThanOrEqual(live)
        }
        fonts.push(parseFloat(await page.getByTestId('wall-grid').evaluate((el) => getComputedStyle(el).fontSize)))
      }
      // Bigger screens: bigger type, or more sessions at once where a smaller one turned pages.
      for (let i = 1; i < SIZES.length; i++) {
        expect(fonts[i]! > fonts[i - 1]! || shown[i]! > shown[i - 1]!, `${SIZES[i]!.join('×')} against ${SIZES[i - 1]!.join('×')}`).toBe(true)
        expect(shown[i]!).toBeGreaterThanOrEqual(shown[i - 1]!)
      }
      expect(fonts[2]!).toBeGreaterThan(fonts[0]! * 1.5)
      for (const font of fonts) expect(font).toBeGreaterThanOrEqual(11)
    })
  })
}
