// The viewers concern of the Store: stored viewer lists, read a page at a time. Nothing here
// returns a whole list: a list of a million viewers costs a page of memory, never more. (Lists
// are written by the ViewerListStore of viewer-store.ts, a worker thread's connection.)
import type { ExportChunk } from '../../../../shared/screens'
import type { BreakdownDimension, BreakdownRow } from '../queries/breakdown'
import type { ViewerPage, ViewerPageQuery } from '../queries/viewer-page'
import type { StoryOptions, ViewerStory } from '../queries/viewer-story'
import type { ViewerSample } from '../viewers'

/** The most rows one page (or one export window) holds, whatever the query asks. */
export { MAX_LIMIT as MAX_PAGE } from '../queries/sql'

export interface ViewerWindowQuery {
  connectionId: string
  eventSessionId: string
  offset: number
  limit: number
}

export interface ViewerReads {
  /** Sessions of the connection whose viewer list is stored. */
  sessionsWithLists(connectionId: string): Promise<Set<string>>
  /** When the session's complete list was fetched, or null when none is held. */
  listFetchedAt(connectionId: string, eventSessionId: string): Promise<number | null>
  /** One page of a list, sorted and filtered; `total` counts every matching viewer. */
  page(connectionId: string, eventSessionId: string, query: ViewerPageQuery): Promise<ViewerPage>
  /** A list's viewers as `eventwatch export` writes them, a window at a time (ordered by start, then id). */
  window(query: ViewerWindowQuery): Promise<ExportChunk>
  /** One viewer of the list, every field as `window` gives it; null when the list holds none by that id. */
  viewer(connectionId: string, eventSessionId: string, viewerId: string): Promise<Record<string, unknown> | null>
  breakdown(connectionId: string, eventSessionId: string, dimension: BreakdownDimension): Promise<BreakdownRow[]>
  story(connectionId: string, eventSessionId: string, options?: StoryOptions): Promise<ViewerStory | null>
  /** A few viewers of each list, to guess the service's units. */
  unitSample(): Promise<ViewerSample[]>
}
