// Following `pagination.nextCursor`. The spec does not say how the last page is marked, so an
// absent, null or empty cursor all end the listing; a cursor seen before, or more pages than a
// generous bound, stops it with an error instead of looping.
import { ApiError } from './errors'

export const DEFAULT_MAX_PAGES = 1000

export interface CursorWalk {
  endpoint: string
  maxPages: number
  firstCursor?: string
  /** Fetches and consumes one page; returns its nextCursor as received. */
  fetchPage: (cursor: string | undefined) => Promise<string | null | undefined>
}

/** Walks every page; returns how many were read. */
export async function followCursor(walk: CursorWalk): Promise<number> {
  const seen = new Set<string>()
  let cursor = walk.firstCursor || undefined
  if (cursor) seen.add(cursor)
  let pages = 0
  for (;;) {
    const next = (await walk.fetchPage(cursor)) || undefined
    pages++
    if (!next) return pages
    if (seen.has(next)) {
      throw new ApiError('response-format', walk.endpoint, `the service repeated a page cursor after ${pages} pages; listing stopped`)
    }
    if (pages >= walk.maxPages) {
      throw new ApiError('response-format', walk.endpoint, `more than ${walk.maxPages} pages; listing stopped`)
    }
    seen.add(next)
    cursor = next
  }
}
