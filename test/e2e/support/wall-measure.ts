// The wall as drawn, measured in the page (issue 24, item 3): how much of the screen its chrome
// takes and on how many rows, which elements leave their tile or the alert strip, which texts are
// cut, how big the figures and labels are, and how many tiles and pages it shows.
import type { Page } from '@playwright/test'

export interface WallMeasure {
  viewportHeight: number
  /** Where the tiles begin: everything above is the wall's chrome (status line, alert strip). */
  chromeBottom: number
  /** The rows the status line's items sit on. */
  statusRows: number
  tiles: number
  /** "page 1 of 2" says 2; 1 without pages. */
  pages: number
  /** Elements reaching outside their tile (or the strip, or the status line), described. */
  outside: string[]
  /** Texts cut (scrollWidth > clientWidth, or scrollHeight > clientHeight where overflow is hidden)
   *  without their whole text in a title, described. */
  cut: string[]
  /** Font sizes in px, of the first tile. */
  figurePx: number
  reliabilityPx: number
  labelPx: number
  /** Alerts the strip shows, and the N of its "+N more". */
  stripShown: number
  stripMore: number
}

/** Measures the wall on `page` as it is now; `stretch` first makes it as long as it gets (below). */
export function measureWall(page: Page, stretch = false): Promise<WallMeasure> {
  return page.evaluate((stretch) => {
    // A status as long as a tenant's trouble makes it, one more short line in every tile (a firing
    // site alert's) and the widest figures. Measured at once, before the next second redraws.
    if (stretch) {
      const status = document.querySelector<HTMLElement>('[data-testid="wall-status-text"]')!
      const long = 'Contoso offline since 06:10 (GET /v1/events/sessions: connection refused) · Fabrikam live, updated 06:13:02 · Northwind live, updated 06:13:01'
      status.textContent = long
      status.title = long
      for (const tile of document.querySelectorAll('[data-testid="wall-tile"]')) {
        const connection = tile.querySelector('[data-testid="wall-connection"]')!
        const line = connection.cloneNode(false) as HTMLElement
        line.removeAttribute('title')
        line.textContent = 'Leeds office 31.1 ✖'
        connection.after(line)
        const viewers = tile.querySelector('[data-testid="wall-viewers"]')!
        if (viewers.firstChild?.nodeType === Node.TEXT_NODE) viewers.firstChild.textContent = '88,888'
        const score = tile.querySelector('[data-testid="wall-reliability"]')!
        if (score.firstChild?.nodeType === Node.TEXT_NODE) score.firstChild.textContent = '100.0'
        for (const arrow of tile.querySelectorAll('.trend [aria-hidden]')) arrow.textContent = '↘'
      }
    }
    const words = (text: string | null): string => (text ?? '').replace(/\s+/g, ' ').trim()
    const describe = (el: Element): string => {
      const classes = typeof el.className === 'string' ? el.className.split(/\s+/).filter((c) => c && !c.startsWith('svelte-')) : []
      const testid = el.getAttribute('data-testid')
      return `${el.tagName.toLowerCase()}${classes.map((c) => `.${c}`).join('')}${testid ? `[${testid}]` : ''} "${words(el.textContent).slice(0, 50)}"`
    }
    const shown = (el: Element): boolean => {
      if (el.closest('.visually-hidden')) return false
      const box = el.getBoundingClientRect()
      return box.width > 0 && box.height > 0
    }
    // The box inside an element's border: a badge over a tile's coloured border is outside it too.
    const inside = (el: Element, container: HTMLElement): boolean => {
      const box = el.getBoundingClientRect()
      const outer = container.getBoundingClientRect()
      const left = outer.left + container.clientLeft
      const top = outer.top + container.clientTop
      const slack = 0.5
      return (
        box.left >= left - slack &&
        box.top >= top - slack &&
        box.right <= left + container.clientWidth + slack &&
        box.bottom <= top + container.clientHeight + slack
      )
    }
    // Only HTML elements and an SVG's own box: a path's stroke may reach past its svg on purpose.
    const parts = (container: HTMLElement): Element[] =>
      [...container.querySelectorAll('*')].filter((el) => (el instanceof HTMLElement || el instanceof SVGSVGElement) && shown(el))

    const outside: string[] = []
    const cut: string[] = []
    const checkCut = (el: Element): void => {
      if (!(el instanceof HTMLElement) || el.clientWidth === 0) return
      const style = getComputedStyle(el)
      const hides = style.overflowX !== 'visible' || style.overflowY !== 'visible'
      const wide = el.scrollWidth > el.clientWidth + 1
      const tall = hides && el.scrollHeight > el.clientHeight + 1
      if (!wide && !tall) return
      // An intended ellipsis carries the whole text in its title.
      const title = words(el.getAttribute('title'))
      if (title && title.includes(words(el.textContent))) return
      cut.push(`${describe(el)} (scroll ${el.scrollWidth}×${el.scrollHeight}, client ${el.clientWidth}×${el.clientHeight})`)
    }
    const checkWithin = (container: HTMLElement, name: string): void => {
      checkCut(container)
      for (const el of parts(container)) {
        if (!inside(el, container)) outside.push(`${name}: ${describe(el)}`)
        checkCut(el)
      }
    }

    const wall = document.querySelector<HTMLElement>('[data-testid="wall"]')!
    const grid = document.querySelector<HTMLElement>('[data-testid="wall-grid"]')!
    const status = document.querySelector<HTMLElement>('[data-testid="wall-status"]')!
    const strip = document.querySelector<HTMLElement>('[data-testid="wall-firing"]')
    const tiles = [...document.querySelectorAll<HTMLElement>('[data-testid="wall-tile"]')]

    checkWithin(status, 'status line')
    if (strip) checkWithin(strip, 'alert strip')
    tiles.forEach((tile, i) => checkWithin(tile, `tile ${i + 1} (${words(tile.getAttribute('aria-label'))})`))
    for (const tile of tiles) if (!inside(tile, grid)) outside.push(`grid: ${describe(tile)}`)
    if (!inside(grid, wall)) outside.push('the grid leaves the screen')

    // The status line's items, grouped into the rows they sit on.
    let statusRows = 0
    let rowBottom = -Infinity
    const items = [...status.children].filter(shown).map((el) => el.getBoundingClientRect())
    for (const box of items.sort((a, b) => a.top - b.top)) {
      if (box.top >= rowBottom - 1) {
        statusRows++
        rowBottom = box.bottom
      } else rowBottom = Math.max(rowBottom, box.bottom)
    }

    const px = (selector: string): number => {
      const el = tiles[0]?.querySelector(selector)
      return el ? parseFloat(getComputedStyle(el).fontSize) : 0
    }
    const pageWords = document.querySelector('[data-testid="wall-page"]')?.textContent ?? ''
    const more = strip?.querySelector('[data-testid="wall-firing-more"]')
    return {
      viewportHeight: window.innerHeight,
      chromeBottom: grid.getBoundingClientRect().top,
      statusRows,
      tiles: tiles.length,
      pages: Number(/of (\d+)/.exec(pageWords)?.[1] ?? 1),
      outside,
      cut,
      figurePx: px('[data-testid="wall-viewers"]'),
      reliabilityPx: px('[data-testid="wall-reliability"]'),
      labelPx: px('.label'),
      stripShown: strip ? strip.querySelectorAll('li:not([data-testid="wall-firing-more"])').length : 0,
      stripMore: Number(/\d+/.exec(more?.textContent ?? '')?.[0] ?? 0)
    }
  }, stretch)
}
