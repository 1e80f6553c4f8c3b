// The viewer table's rows, fetched a page at a time as the operator scrolls (see PageCache in
// viewer-pages.ts): only the pages the visible range needs are asked for, and answers to a sort
// or filter that has since changed are dropped.
import type { AppClient } from '../../../../shared/client'
import type { SessionKey, ViewerRow, ViewerSort } from '../../../../shared/screens'
import { PAGE_SIZE, PageCache } from './viewer-pages'
import { viewerFilter, type BreakdownPick } from './viewer-filter'

export class ViewerLoader {
  sort = $state<ViewerSort>('reliabilityScore')
  descending = $state(false)
  text = $state('')
  pick = $state<BreakdownPick | null>(null)
  /** Only the viewers still watching when the list was fetched. */
  watching = $state(false)
  /** Viewers matching the filter; null until the first page answers. */
  total = $state<number | null>(null)
  fetchedAt = $state<string | null>(null)
  error = $state<string | null>(null)
  /** Bumped whenever a page arrives or the cache is emptied: rows read it to re-render. */
  version = $state(0)
  /** Bumped when sort or filter change, so the table scrolls back to the top. */
  resets = $state(0)

  // Not reactive on purpose: `version` tells the rows when to look again.
  private readonly cache = new PageCache<ViewerRow>()
  private range: [number, number] = [0, 0]

  constructor(
    private readonly client: AppClient,
    private readonly key: SessionKey
  ) {}

  /** The row at `index`, or undefined while its page is loading. */
  row(index: number): ViewerRow | undefined {
    void this.version
    return this.cache.row(index)
  }

  setSort(sort: ViewerSort, descending: boolean): void {
    this.sort = sort
    this.descending = descending
    this.reset()
  }

  setText(text: string): void {
    if (text === this.text) return
    this.text = text
    this.reset()
  }

  setPick(pick: BreakdownPick | null): void {
    this.pick = pick
    this.reset()
  }

  setWatching(watching: boolean): void {
    if (watching === this.watching) return
    this.watching = watching
    this.reset()
  }

  /** Forgets every page (sort, filter or list changed) and loads the top again (the table scrolls there). */
  reset(): void {
    this.cache.clear()
    this.version++
    this.resets++
    // The total under the new sort or filter is not known yet: the top page is asked for even
    // when the old one matched nothing (a total of 0 would ask for no page at all).
    this.range = [0, this.range[1] - this.range[0]]
    for (const offset of this.cache.claim(0, this.range[1], null)) void this.fetchPage(offset)
  }

  /** Fetches the pages rows first..last need that are neither cached nor on their way. */
  ensure(first: number, last: number): void {
    this.range = [first, last]
    for (const offset of this.cache.claim(first, last, this.total)) void this.fetchPage(offset)
  }

  /**
   * After a poll: asks whether a newer viewer list was stored (or the first one), and if so
   * reloads what is on screen. True when it changed.
   */
  async refreshIfChanged(): Promise<boolean> {
    const generation = this.cache.generation
    const result = await this.request(1, 0)
    if (!result.ok || generation !== this.cache.generation || result.value.fetchedAt === this.fetchedAt) return false
    this.cache.clear()
    this.fetchedAt = result.value.fetchedAt
    this.total = result.value.total
    this.version++
    this.ensure(...this.range)
    return true
  }

  private async fetchPage(offset: number): Promise<void> {
    const generation = this.cache.generation
    const result = await this.request(PAGE_SIZE, offset)
    const page = result.ok ? result.value : null
    if (page && this.fetchedAt !== null && page.fetchedAt !== this.fetchedAt && generation === this.cache.generation) {
      // A newer viewer list was stored meanwhile: the pages cached so far belong to the old one.
      this.cache.clear()
      this.fetchedAt = page.fetchedAt
      this.total = page.total
      this.version++
      this.ensure(...this.range)
      return
    }
    if (!this.cache.settle(offset, generation, page?.rows ?? null)) return // stale: sort or filter changed
    if (!result.ok) {
      this.error = result.error.message
      return
    }
    this.error = null
    const totalChanged = this.total !== result.value.total
    this.fetchedAt = result.value.fetchedAt
    this.total = result.value.total
    this.version++
    // The rows on screen beyond the first page are known to exist only now.
    if (totalChanged) this.ensure(...this.range)
  }

  /** A window of the list under the current sort and filter. */
  private request(limit: number, offset: number) {
    return this.client.request('viewerPage', {
      ...this.key,
      sort: this.sort,
      descending: this.descending,
      filter: viewerFilter(this.text, this.pick, this.watching),
      limit,
      offset
    })
  }
}
