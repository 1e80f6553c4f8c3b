// The live-detail cadence between discovery passes: a fresh record of each session the cache
// holds as live for this connection, fetched side by side, then stored with their snapshots as
// one unit of work (with the problems met). A stop (the signal) ends the fetching at once; what
// came back whole is stored.
import { describeApiError, isAddressableId, type ReportingClient } from '../api/client'
import type { EventSessionRecord } from '../api/schemas'
import { isCancelled } from '../net/abort'
import type { Store } from '../store/interface/store'
import { storeDetails, type Arrived } from './fetched'
import { forEachLimited } from './limit'
import { PendingDiagnostics } from './pending-diagnostics'
import type { SyncProblem } from './sync-pass'
import { TouchedSessions } from './touched'

export interface DetailsReport {
  snapshots: number
  problems: SyncProblem[]
  /** A stop cut it short (not a failure). */
  stopped?: boolean
  /** The sessions whose record and snapshot were stored: what is judged after it. */
  touched: TouchedSessions
}

export async function refreshDetails(
  store: Store,
  connectionId: string,
  client: ReportingClient,
  sessionIds: readonly string[],
  clock: () => number = Date.now,
  concurrency = 4,
  signal?: AbortSignal
): Promise<DetailsReport> {
  const report: DetailsReport = { snapshots: 0, problems: [], touched: new TouchedSessions() }
  const diagnostics = new PendingDiagnostics(store)
  const problem = (error: unknown, fallbackEndpoint: string): void => {
    const described = describeApiError(error)
    report.problems.push(described)
    const endpoint = (error as { endpoint?: unknown }).endpoint
    diagnostics.add({
      connectionId,
      at: clock(),
      kind: described.kind,
      endpoint: typeof endpoint === 'string' ? endpoint : fallbackEndpoint,
      message: described.message
    })
  }
  const fetched: Arrived<EventSessionRecord>[] = []
  const fetchedIds: string[] = []
  // "." and "..": kept as listed, never asked about (the pass said so once, not every tick).
  const addressable = sessionIds.filter(isAddressableId)
  await forEachLimited(addressable, concurrency, async (id) => {
    if (report.stopped) return
    try {
      const record = await client.getSession(id, {}, { signal })
      fetched.push({ value: record, at: clock() })
      fetchedIds.push(id)
    } catch (error) {
      if (isCancelled(error)) {
        report.stopped = true
        return
      }
      problem(error, 'details')
    }
  })
  if (fetched.length === 0) {
    await diagnostics.flush()
    return report
  }
  try {
    await diagnostics.commit((tx) => storeDetails(tx, connectionId, fetched))
    report.touched.addAll(fetchedIds)
    report.snapshots = fetched.length
  } catch (error) {
    // Nothing of the round is stored: the cause (the cache's, in words) is its problem.
    problem(error, 'details')
    await diagnostics.flush()
  }
  return report
}
