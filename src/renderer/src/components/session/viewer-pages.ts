// The window math of the virtual viewer table: rows are fetched in fixed-size pages keyed by
// their offset, and only the pages the visible range (plus overscan) touches are asked for.

/** Rows per viewerPage request (the contract allows up to 1000). */
export const PAGE_SIZE = 250

/** Offsets of the pages that hold rows first..last (inclusive), clipped to the total. */
export function pagesFor(first: number, last: number, total: number, pageSize = PAGE_SIZE): number[] {
  if (total <= 0 || last < first) return []
  const from = Math.max(0, first)
  const to = Math.min(total - 1, last)
  if (to < from) return []
  const offsets: number[] = []
  for (let page = Math.floor(from / pageSize); page <= Math.floor(to / pageSize); page++) offsets.push(page * pageSize)
  return offsets
}

/** The page offset and the index within it of row `index`. */
export function locate(index: number, pageSize = PAGE_SIZE): { offset: number; at: number } {
  const offset = Math.floor(index / pageSize) * pageSize
  return { offset, at: index - offset }
}

/** Pages far from what is on screen, to drop so scrolling 100,000 rows does not keep them all. */
export function pagesToEvict(cached: Iterable<number>, wanted: readonly number[], keep: number, pageSize = PAGE_SIZE): number[] {
  const list = [...cached]
  if (list.length <= keep || wanted.length === 0) return []
  const centre = (wanted[0]! + wanted[wanted.length - 1]!) / 2
  const distance = (offset: number): number => Math.abs(offset - centre) / pageSize
  return list
    .filter((offset) => !wanted.includes(offset))
    .sort((a, b) => distance(b) - distance(a))
    .slice(0, list.length - keep)
}

/**
 * The pages fetched so far, the ones on their way, and a generation number: emptying the cache
 * (a new sort or filter) starts a new generation, and an answer of an older one is dropped.
 */
export class PageCache<T> {
  private readonly pages = new Map<number, T[]>()
  private readonly inFlight = new Set<number>()
  private current = 0

  constructor(
    private readonly pageSize = PAGE_SIZE,
    private readonly keep = 40
  ) {}

  get generation(): number {
    return this.current
  }

  get cachedPages(): number {
    return this.pages.size
  }

  clear(): void {
    this.current++
    this.pages.clear()
    this.inFlight.clear()
  }

  row(index: number): T | undefined {
    const { offset, at } = locate(index, this.pageSize)
    return this.pages.get(offset)?.[at]
  }

  /**
   * The page offsets to fetch for rows first..last (only the first page while the total is
   * unknown), now marked as on their way; pages far from them are dropped.
   */
  claim(first: number, last: number, total: number | null): number[] {
    const wanted = total === null ? [locate(Math.max(0, first), this.pageSize).offset] : pagesFor(first, last, total, this.pageSize)
    const missing = wanted.filter((offset) => !this.pages.has(offset) && !this.inFlight.has(offset))
    for (const offset of missing) this.inFlight.add(offset)
    for (const offset of pagesToEvict(this.pages.keys(), wanted, this.keep, this.pageSize)) this.pages.delete(offset)
    return missing
  }

  /** Stores a page that answered; false (and nothing stored) when it belongs to an older generation. */
  settle(offset: number, generation: number, rows: T[] | null): boolean {
    if (generation !== this.current) return false
    this.inFlight.delete(offset)
    if (rows !== null) this.pages.set(offset, rows)
    return true
  }
}
