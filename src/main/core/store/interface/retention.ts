// The retention concern of the Store: forgetting what the settings no longer keep, one small
// batch per call, so that each unit of work stays short (store/retention.ts decides what goes and
// runs the batches; this is only what one batch deletes). Live sessions and open alerts are never
// touched. A viewer list goes whole or not at all, so a list row always means a complete list.

/** What one batch of whole viewer lists removed. */
export interface ListsPruned {
  lists: number
  /** The viewers they held (their network connections and breakdowns went with them). */
  viewers: number
}

export interface RetentionStore {
  /** Snapshots taken before `before`, at most `limit`; how many went. */
  pruneSnapshots(before: number, limit: number): Promise<number>
  /** Whole viewer lists fetched before `before`, oldest first, up to `viewerBudget` viewers (at
   *  least one list, however large). Staged lists are the writer's and stay. */
  pruneViewerLists(before: number, viewerBudget: number): Promise<ListsPruned>
  /** Of ended sessions that started before `startedBefore`: their snapshots, at most `limit`. */
  pruneSnapshotsOfEndedSessions(startedBefore: number, limit: number): Promise<number>
  /** Of the same sessions: their whole viewer lists, up to `viewerBudget` viewers (one at least). */
  pruneViewerListsOfEndedSessions(startedBefore: number, viewerBudget: number): Promise<ListsPruned>
  /** Ended sessions that started before `startedBefore`, at most `limit` (what they still held goes with them). */
  pruneEndedSessions(startedBefore: number, limit: number): Promise<number>
  /** Resolved alerts that resolved before `before`, at most `limit`, with their transitions. */
  pruneResolvedAlerts(before: number, limit: number): Promise<number>
  /** Audit entries made before `before`, at most `limit`. */
  pruneAudit(before: number, limit: number): Promise<number>
  /** Poll requests answered (or run out unanswered) before `before`, at most `limit`: none on
   *  SQLite, which has none (interface/poll-requests.ts). */
  prunePollRequests(before: number, limit: number): Promise<number>
}
