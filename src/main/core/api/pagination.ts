// Following `pagination.nextCursor`. The spec does not say how the last page is marked, so an
// absent, null or empty cursor all end the listing. A cursor seen before ends it too, with a
// diagnostic, keeping the pages already read (each page is its own unit). There is no bound on
// the number of pages by default (a session of millions of viewers has thousands): a listing
// is bounded in time instead, by its caller's deadline, and a run of empty pages stops it.
import { throwIfAborted } from '../net/abort'
import { ApiError } from './errors'

/** Empty pages in a row that mean a runaway cursor rather than a slow list. */
export const MAX_EMPTY_PAGES = 100

export interface CursorWalk {
  endpoint: string
  /** An explicit bound on pages; default none. */
  maxPages?: number
  firstCursor?: string
  /** Fetches and consumes one page; returns its nextCursor (as text) and how many records it held. */
  fetchPage: (cursor: string | undefined) => Promise<{ next: string | null | undefined; records: number }>
  signal?: AbortSignal
}

export interface CursorWalkResult {
  pages: number
  /** Why the listing ended: the last page, or a cursor that came back (a diagnostic for the caller). */
  ended: 'last-page' | 'repeated-cursor'
}

/** Walks every page, one after the other. */
export async function followCursor(walk: CursorWalk): Promise<CursorWalkResult> {
  const seen = new Set<string>()
  let cursor = walk.firstCursor || undefined
  if (cursor) seen.add(cursor)
  let pages = 0
  let emptyInARow = 0
  for (;;) {
    throwIfAborted(walk.signal)
    const { next, records } = await walk.fetchPage(cursor)
    pages++
    emptyInARow = records === 0 ? emptyInARow + 1 : 0
    if (!next) return { pages, ended: 'last-page' }
    if (seen.has(next)) return { pages, ended: 'repeated-cursor' }
    if (walk.maxPages !== undefined && pages >= walk.maxPages) {
      throw new ApiError('response-format', walk.endpoint, `more than ${walk.maxPages} pages; listing stopped`)
    }
    if (emptyInARow >= MAX_EMPTY_PAGES) {
      throw new ApiError('response-format', walk.endpoint, `${MAX_EMPTY_PAGES} empty pages in a row, each with a new cursor; listing stopped`)
    }
    seen.add(next)
    cursor = next
  }
}
