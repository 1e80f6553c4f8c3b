// A sync pass with its bookkeeping: a sync_runs row when it starts (so a pass killed midway
// leaves an unfinished run behind, as evidence) and its outcome when it ends, each a unit of its own.
import type { SyncRunKind, SyncRunResult } from '../store/interface/runs'
import { syncPass, type SyncPassOptions, type SyncReport } from './sync-pass'

export async function recordedSyncPass(options: SyncPassOptions, kind: SyncRunKind): Promise<SyncReport> {
  const { store, connectionId } = options
  const clock = options.clock ?? Date.now
  const runId = await store.withTransaction((tx) => tx.runs.start(connectionId, kind, clock()))
  const report = await syncPass(options)
  await store.withTransaction((tx) =>
    tx.runs.finish(
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
  )
  return report
}

function outcomeOf(report: SyncReport): SyncRunResult['outcome'] {
  if (report.stopped) return 'stopped'
  if (report.problems.length === 0) return 'ok'
  return report.listed === 0 ? 'failed' : 'partial'
}
