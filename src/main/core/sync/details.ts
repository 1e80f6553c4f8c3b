// The live-detail cadence between discovery passes: a fresh record and snapshot of each session
// the cache holds as live for this connection, each one its own unit of work. A stop (the
// signal) ends it at once.
import { describeApiError, isAddressableId, type ReportingClient } from '../api/client'
import { isCancelled } from '../net/abort'
import type { Db } from '../store/db'
import { recordDiagnostic } from '../store/diagnostics'
import { storeSessionSnapshot } from '../store/sessions'
import { forEachLimited } from './limit'
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
  db: Db,
  connectionId: string,
  client: ReportingClient,
  sessionIds: readonly string[],
  clock: () => number = Date.now,
  concurrency = 4,
  signal?: AbortSignal
): Promise<DetailsReport> {
  const report: DetailsReport = { snapshots: 0, problems: [], touched: new TouchedSessions() }
  // "." and "..": kept as listed, never asked about (the pass said so once, not every tick).
  const addressable = sessionIds.filter(isAddressableId)
  await forEachLimited(addressable, concurrency, async (id) => {
    if (report.stopped) return
    try {
      storeSessionSnapshot(db, connectionId, await client.getSession(id, {}, { signal }), clock())
      report.touched.add(id)
      report.snapshots++
    } catch (error) {
      if (isCancelled(error)) {
        report.stopped = true
        return
      }
      const problem = describeApiError(error)
      report.problems.push(problem)
      const endpoint = (error as { endpoint?: unknown }).endpoint
      recordDiagnostic(db, {
        connectionId,
        at: clock(),
        kind: problem.kind,
        endpoint: typeof endpoint === 'string' ? endpoint : 'details',
        message: problem.message
      })
    }
  })
  return report
}
