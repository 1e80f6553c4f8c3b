// The live-detail cadence between discovery passes: a fresh record and snapshot of each session
// the cache holds as live for this connection, each one its own unit of work.
import { describeApiError, type ReportingClient } from '../api/client'
import type { Db } from '../store/db'
import { recordDiagnostic } from '../store/diagnostics'
import { storeSessionSnapshot } from '../store/sessions'
import { forEachLimited } from './limit'
import type { SyncProblem } from './sync-pass'

export interface DetailsReport {
  snapshots: number
  problems: SyncProblem[]
}

export async function refreshDetails(
  db: Db,
  connectionId: string,
  client: ReportingClient,
  sessionIds: readonly string[],
  clock: () => number = Date.now,
  concurrency = 4
): Promise<DetailsReport> {
  const report: DetailsReport = { snapshots: 0, problems: [] }
  await forEachLimited(sessionIds, concurrency, async (id) => {
    try {
      storeSessionSnapshot(db, connectionId, await client.getSession(id), clock())
      report.snapshots++
    } catch (error) {
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
