// The UI's queries over the cache, in one place: named, tested, every one scoped by connection
// (pastSessions may span all connections; each row names its own).
// IPC handlers and the browser host call these; no SQL lives in them or in the renderer.
export { pastSessions, type Page, type PastSession, type PastSessionSort, type PastSessionsQuery } from './past-sessions'
export { snapshotsForChart, type ChartOptions, type SnapshotPoint, type ChartSeries } from './snapshots-chart'
export { viewerPage, type ViewerFilter, type ViewerPage, type ViewerPageQuery, type ViewerRow, type ViewerSort } from './viewer-page'
export { breakdown, BREAKDOWN_DIMENSIONS, type BreakdownDimension, type BreakdownRow } from './breakdown'
export { listSyncRuns, lastFinishedSyncRun, type SyncRun } from '../sync-runs'
export { listDiagnostics, type DiagnosticEntry } from '../diagnostics'
