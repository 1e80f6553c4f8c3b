// A sync pass with its bookkeeping: a sync_runs row when it starts (so a pass killed midway
// leaves an unfinished run behind, as evidence) and its outcome when it ends.
import { finishSyncRun, startSyncRun, type SyncRunKind, type SyncRunOutcome } from '../store/sync-runs'
import { syncPass, type SyncPassOptions, type SyncReport } from './sync-pass'

export async function recordedSyncPass(options: SyncPassOptions, kind: SyncRunKind): Promise<SyncReport> {
  const clock = options.clock ?? Date.now
  const runId = startSyncRun(options.db, options.connectionId, kind, clock())
  const report = await syncPass(options)
  finishSyncRun(
    options.db,
    runId,
    {
      outcome: outcomeOf(report),
      listed: report.listed,
      snapshots: report.snapshots,
      viewerLists: report.viewerLists,
      viewers: report.viewers,
      problems: report.problems.length,
      error: report.problems[0]?.message ?? null
    },
    clock()
  )
  return report
}

function outcomeOf(report: SyncReport): SyncRunOutcome {
  if (report.stopped) return 'stopped'
  if (report.problems.length === 0) return 'ok'
  return report.listed === 0 ? 'failed' : 'partial'
}
