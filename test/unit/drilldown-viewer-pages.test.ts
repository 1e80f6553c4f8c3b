import { describe, expect, it } from 'vitest'
import { locate, PageCache, pagesFor, pagesToEvict } from '../../src/renderer/src/components/session/viewer-pages'
import { viewerFilter } from '../../src/renderer/src/components/session/viewer-filter'

describe('pagesFor', () => {
  it('lists the offsets of the pages a visible range touches', () => {
    expect(pagesFor(0, 30, 100_000, 250)).toEqual([0])
    expect(pagesFor(240, 260, 100_000, 250)).toEqual([0, 250])
    expect(pagesFor(99_990, 100_020, 100_000, 250)).toEqual([99_750])
  })

  it('clips to the total and returns nothing for an empty list', () => {
    expect(pagesFor(0, 40, 10, 250)).toEqual([0])
    expect(pagesFor(0, 40, 0, 250)).toEqual([])
    expect(pagesFor(500, 540, 300, 250)).toEqual([])
  })
})

describe('locate', () => {
  it('finds the page and the index within it', () => {
    expect(locate(0, 250)).toEqual({ offset: 0, at: 0 })
    expect(locate(251, 250)).toEqual({ offset: 250, at: 1 })
  })
})

describe('pagesToEvict', () => {
  it('drops the pages farthest from the wanted ones beyond the number kept', () => {
    expect(pagesToEvict([0, 250, 500, 750, 5000], [500], 3, 250)).toEqual([5000, 0])
    expect(pagesToEvict([0, 250], [0], 3, 250)).toEqual([])
  })
})

describe('PageCache', () => {
  it('claims only pages neither cached nor on their way', () => {
    const cache = new PageCache<number>(10)
    expect(cache.claim(0, 25, 100)).toEqual([0, 10, 20])
    expect(cache.claim(5, 35, 100)).toEqual([30])
    cache.settle(0, cache.generation, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(cache.row(3)).toBe(3)
    expect(cache.row(13)).toBeUndefined()
  })

  it('claims the first page alone while the total is unknown', () => {
    expect(new PageCache<number>(10).claim(0, 30, null)).toEqual([0])
  })

  it('drops an answer of an older generation (the sort or filter changed meanwhile)', () => {
    const cache = new PageCache<string>(10)
    cache.claim(0, 5, 100)
    const before = cache.generation
    cache.clear()
    expect(cache.settle(0, before, ['stale'])).toBe(false)
    expect(cache.row(0)).toBeUndefined()
    // After a clear the same page can be claimed again.
    expect(cache.claim(0, 5, 100)).toEqual([0])
    expect(cache.settle(0, cache.generation, ['fresh'])).toBe(true)
    expect(cache.row(0)).toBe('fresh')
  })

  it('keeps a bounded number of pages while scrolling far', () => {
    const cache = new PageCache<number>(10, 3)
    for (let first = 0; first < 200; first += 10) {
      for (const offset of cache.claim(first, first + 5, 1000)) cache.settle(offset, cache.generation, [offset])
    }
    // Eviction runs as pages are claimed: at most the kept ones plus the one just fetched.
    expect(cache.cachedPages).toBeLessThanOrEqual(4)
    expect(cache.row(190)).toBe(190)
  })
})

describe('viewerFilter', () => {
  it('combines text and a breakdown pick; a site is a number, unknown is null', () => {
    expect(viewerFilter('', null)).toBeUndefined()
    expect(viewerFilter('  ipad ', null)).toEqual({ text: 'ipad' })
    expect(viewerFilter('', { dimension: 'site', key: '310' })).toEqual({ siteCode: 310 })
    expect(viewerFilter('', { dimension: 'site', key: null })).toEqual({ siteCode: null })
    expect(viewerFilter('x', { dimension: 'os', key: null })).toEqual({ text: 'x', os: null })
    expect(viewerFilter('', { dimension: 'connectionType', key: 'wired' })).toEqual({ connectionType: 'wired' })
  })
})
