// The connections, sessions, snapshots, viewers, settings and runs of a Tx, on one SQLite
// connection: today's synchronous store functions, each answered as a promise.
import {
  connectionScaleFacts,
  deleteConnection,
  findConnectionByName,
  getConnection,
  insertConnection,
  listConnections,
  setConnectionEnabled,
  updateConnection,
  upsertConnection
} from '../connections'
import type { Db } from '../db'
import { listDiagnostics, recordDiagnostic } from '../diagnostics'
import { exportChunk, viewerDetail } from '../export-chunks'
import type { ConnectionStore } from '../interface/connections'
import type { RunStore } from '../interface/runs'
import type { SessionStore, SnapshotReads } from '../interface/sessions'
import type { SettingsBook, SettingsKey, SettingsStore } from '../interface/settings'
import type { ViewerReads } from '../interface/viewers'
import { breakdown } from '../queries/breakdown'
import { pastSessions } from '../queries/past-sessions'
import { snapshotsForChart } from '../queries/snapshots-chart'
import { pageBounds } from '../queries/sql'
import { viewerPage } from '../queries/viewer-page'
import { viewerStory } from '../queries/viewer-story'
import {
  countSessions,
  exportSessions,
  latestSnapshot,
  liveSessionIds,
  liveSessionRows,
  newestPollAt,
  sessionRow,
  snapshotsSince,
  storeSessionList,
  storeSessionSnapshot
} from '../sessions'
import * as settings from '../settings'
import { finishSyncRun, lastFinishedSyncRun, listSyncRuns, startSyncRun, stopUnfinishedSyncRuns } from '../sync-runs'
import { sessionsWithViewerLists, viewerListFetchedAt, viewerUnitSample } from '../viewers'
import type { Runners } from './runners'

export function connectionTable(db: Db, { read, write }: Runners): ConnectionStore {
  return {
    list: (options) => read(() => listConnections(db, options)),
    get: (id) => read(() => getConnection(db, id)),
    findByName: (name) => read(() => findConnectionByName(db, name)),
    scaleFacts: () => read(() => connectionScaleFacts(db)),
    insert: (s, id, now) => write(() => insertConnection(db, s, id, now)),
    update: (id, s, now) => write(() => updateConnection(db, id, s, now)),
    setEnabled: (id, enabled, now) => write(() => setConnectionEnabled(db, id, enabled, now)),
    remove: (id) => write(() => deleteConnection(db, id)),
    upsert: (row, now) => write(() => upsertConnection(db, row, now))
  }
}

export function sessionTable(db: Db, { read, write }: Runners): SessionStore {
  return {
    live: (c) => read(() => liveSessionRows(db, c)),
    row: (c, s) => read(() => sessionRow(db, c, s)),
    liveIds: (c) => read(() => liveSessionIds(db, c)),
    newestPollAt: (c) => read(() => newestPollAt(db, c)),
    past: (q) => read(() => pastSessions(db, q)),
    counts: () => read(() => countSessions(db)),
    exported: (c, s) => read(() => exportSessions(db, { connectionId: c, eventSessionId: s })[0] ?? null),
    exportedPage: (q) => read(() => exportSessions(db, undefined, pageBounds(q.limit, q.offset))),
    storeList: (c, records, at) => write(() => storeSessionList(db, c, records, at)),
    storeSnapshot: (c, record, at) => write(() => storeSessionSnapshot(db, c, record, at))
  }
}

export function snapshotTable(db: Db, { read }: Runners): SnapshotReads {
  return {
    since: (c, s, since) => read(() => snapshotsSince(db, c, s, since)),
    latest: (c, s) => read(() => latestSnapshot(db, c, s)),
    chart: (c, s, options) => read(() => snapshotsForChart(db, c, s, options)),
    exportWindow: (q) => read(() => exportChunk(db, { ...q, ...pageBounds(q.limit, q.offset), kind: 'snapshots' }))
  }
}

export function viewerTable(db: Db, { read }: Runners): ViewerReads {
  return {
    sessionsWithLists: (c) => read(() => sessionsWithViewerLists(db, c)),
    listFetchedAt: (c, s) => read(() => viewerListFetchedAt(db, c, s)),
    page: (c, s, q) => read(() => viewerPage(db, c, s, q)),
    // Bounded as a page is: an export window never holds more than MAX_PAGE viewers.
    window: (q) => read(() => exportChunk(db, { ...q, ...pageBounds(q.limit, q.offset), kind: 'viewers' })),
    viewer: (c, s, viewerId) => read(() => viewerDetail(db, c, s, viewerId)),
    breakdown: (c, s, dimension) => read(() => breakdown(db, c, s, dimension)),
    story: (c, s, options) => read(() => viewerStory(db, c, s, options)),
    unitSample: () => read(() => viewerUnitSample(db))
  }
}

type Book = { [K in SettingsKey]: { get(db: Db): SettingsBook[K]; set(db: Db, change: Partial<SettingsBook[K]>): SettingsBook[K] } }

const SETTINGS: Book = {
  retention: { get: settings.getRetentionSettings, set: settings.setRetentionSettings },
  cadences: { get: settings.getCadenceSettings, set: settings.setCadenceSettings },
  // setThresholds merges like the others; it is typed whole because the app's form sends both levels.
  thresholds: { get: settings.getThresholds, set: (db, change) => settings.setThresholds(db, change as SettingsBook['thresholds']) },
  display: { get: settings.getDisplaySettings, set: settings.setDisplaySettings },
  alertRules: { get: settings.getAlertRules, set: settings.setAlertRules },
  desktop: { get: settings.getDesktopSettings, set: settings.setDesktopSettings }
}

export function settingsTable(db: Db, { read, write }: Runners): SettingsStore {
  return {
    get: (key) => read(() => SETTINGS[key].get(db)),
    update: (key, change) => write(() => SETTINGS[key].set(db, change))
  }
}

export function runTable(db: Db, { read, write }: Runners): RunStore {
  return {
    list: (c, limit) => read(() => listSyncRuns(db, c, limit)),
    lastFinished: (c) => read(() => lastFinishedSyncRun(db, c)),
    diagnostics: (limit, c) => read(() => listDiagnostics(db, limit, c)),
    start: (c, kind, at) => write(() => startSyncRun(db, c, kind, at)),
    finish: (id, result, at) => write(() => finishSyncRun(db, id, result, at)),
    stopUnfinished: (c, why, at) => write(() => stopUnfinishedSyncRuns(db, c, why, at)),
    recordDiagnostic: (entry) => write(() => recordDiagnostic(db, entry))
  }
}
