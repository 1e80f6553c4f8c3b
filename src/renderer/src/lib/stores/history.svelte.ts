// Past sessions from the cache (works offline): the operator's query — search, connection,
// days, sort, page — and the page it returned. Stale answers to an older query are dropped.
import type { AppClient } from '../../../../shared/client'
import type { PastSession, PastSessionSort } from '../../../../shared/screens'
import { historyDayRange, type ZoneChoice } from '../history-day-range'

export const HISTORY_PAGE_SIZE = 50

export class HistoryStore {
  search = $state('')
  connectionId = $state('')
  fromDay = $state('')
  toDay = $state('')
  sort = $state<PastSessionSort>('started')
  descending = $state(true)
  includeLive = $state(false)
  page = $state(0)

  rows = $state<PastSession[]>([])
  total = $state(0)
  cachedAsOf = $state<string | null>(null)
  loaded = $state(false)
  loading = $state(false)
  error = $state<string | null>(null)
  /** Why the date filter cannot be used, in words; the query runs without it meanwhile. */
  rangeProblem = $state<string | null>(null)
  connections = $state<{ id: string; name: string }[]>([])

  private generation = 0

  get pageCount(): number {
    return Math.max(1, Math.ceil(this.total / HISTORY_PAGE_SIZE))
  }

  get filtered(): boolean {
    return this.search.trim() !== '' || this.connectionId !== '' || this.fromDay !== '' || this.toDay !== ''
  }

  async loadConnections(client: AppClient): Promise<void> {
    const result = await client.request('listConnections', {})
    if (result.ok) this.connections = result.value.map((c) => ({ id: c.id, name: c.name }))
  }

  async load(client: AppClient, zone: ZoneChoice): Promise<void> {
    const generation = ++this.generation
    const range = historyDayRange(this.fromDay, this.toDay, zone)
    this.rangeProblem = range.ok ? null : range.problem
    this.loading = true
    const search = this.search.trim()
    const result = await client.request('pastSessions', {
      sort: this.sort,
      descending: this.descending,
      includeLive: this.includeLive,
      limit: HISTORY_PAGE_SIZE,
      offset: this.page * HISTORY_PAGE_SIZE,
      ...(search ? { search: search.slice(0, 200) } : {}),
      ...(this.connectionId ? { connectionId: this.connectionId } : {}),
      ...(range.ok && range.from ? { from: range.from } : {}),
      ...(range.ok && range.to ? { to: range.to } : {})
    })
    if (generation !== this.generation) return
    this.loading = false
    if (!result.ok) {
      this.error = result.error.message
      return
    }
    this.error = null
    this.loaded = true
    this.rows = result.value.rows
    this.total = result.value.total
    this.cachedAsOf = result.value.cachedAsOf
    // A page that no longer exists (the cache shrank, or a filter narrowed it): go to the last.
    if (this.page > 0 && this.page >= this.pageCount) {
      this.page = this.pageCount - 1
      await this.load(client, zone)
    }
  }

  /** Same column: flip the order. New column: newest and biggest first, names A to Z, worst reliability first. */
  sortBy(sort: PastSessionSort): void {
    if (this.sort === sort) this.descending = !this.descending
    else {
      this.sort = sort
      this.descending = sort !== 'name' && sort !== 'reliability'
    }
    this.page = 0
  }
}

export const history = new HistoryStore()
