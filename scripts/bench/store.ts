// Part 2: the raw store ceiling. Viewers stored per second by storeViewerList (the app's own
// code, one transaction per list) against a bare prepared-statement insert of exactly the rows
// it stored (same columns, read back from its tables) into fresh key-less tables, in one
// transaction. Both on a fresh file database opened as the app opens it (WAL, synchronous=NORMAL).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ViewerSchema, type ViewerRecord } from '../../src/main/core/api/schemas'
import { viewerRecord } from '../../src/main/core/simulator/viewers'
import { World } from '../../src/main/core/simulator/world'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { storeSessionList } from '../../src/main/core/store/sessions'
import { upsertConnection } from '../../src/main/core/store/connections'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { int, log, median, type Figure } from './stats'

export interface StoreOptions {
  sessions: number
  viewersPerSession: number
  rounds: number
  seed: number
}

export const STORE_DEFAULTS: StoreOptions = { sessions: 20, viewersPerSession: 5000, rounds: 3, seed: 20240611 }

const CONNECTION = 'bench'

/** The simulator's viewer records for every session, parsed as the client parses them. */
export function parsedLists(options: StoreOptions, now: number): { id: string; record: Record<string, unknown>; viewers: ViewerRecord[] }[] {
  const world = new World(
    {
      seed: options.seed,
      platformId: 'bench-platform',
      tenantId: 'bench-tenant',
      liveSessions: options.sessions,
      endedSessions: 0,
      viewersPerSession: options.viewersPerSession,
      churnSessions: false
    },
    now
  )
  return world.sessions.map((s) => ({
    id: s.eventSessionId,
    record: {
      eventSessionId: s.eventSessionId,
      platformId: 'bench-platform',
      tenantId: 'bench-tenant',
      contentId: s.contentId,
      eventName: s.eventName,
      startedAt: new Date(s.startedAt).toISOString(),
      updatedAt: new Date(s.updatedAt).toISOString(),
      hasEnded: false,
      viewersCount: s.active.length,
      reliabilityScore: s.reliability,
      cdnTraffic: s.cdnTraffic,
      ecdnTraffic: s.ecdnTraffic
    },
    viewers: s.viewers.map((v) => ViewerSchema.parse(viewerRecord(v, now, s.reliability)))
  }))
}

function freshDb(dir: string, name: string): Db {
  return openDatabase(join(dir, name))
}

export function benchStore(options: StoreOptions = STORE_DEFAULTS): Figure[] {
  const now = Date.now()
  const lists = parsedLists(options, now)
  const total = lists.reduce((sum, l) => sum + l.viewers.length, 0)
  log(`store: ${lists.length} viewer lists, ${int(total)} viewers (seed ${options.seed}), ${options.rounds} rounds`)
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-bench-store-'))
  const appRates: number[] = []
  const bareRates: number[] = []
  try {
    for (let round = 0; round < options.rounds; round++) {
      // The app's path: storeViewerList per session, each its own transaction.
      const db = freshDb(dir, `app-${round}.db`)
      upsertConnection(db, { id: CONNECTION, name: 'bench', baseUrl: 'http://x', authUrl: 'http://x', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
      // The sessions must exist first (foreign keys); not timed.
      storeSessionList(db, CONNECTION, lists.map((l) => l.record) as never, now)
      const started = performance.now()
      for (const l of lists) storeViewerList(db, CONNECTION, l.id, l.viewers, now, Math.ceil(l.viewers.length / 500))
      const appMs = performance.now() - started
      appRates.push((total / appMs) * 1000)

      // The same rows, read back, inserted bare.
      const viewerRows = db.prepare('SELECT * FROM viewers').raw().all() as unknown[][]
      const connectionRows = db.prepare('SELECT * FROM viewer_connections').raw().all() as unknown[][]
      const viewerColumns = db.prepare('SELECT * FROM viewers').columns()
      const connectionColumns = db.prepare('SELECT * FROM viewer_connections').columns()
      db.close()

      const bare = freshDb(dir, `bare-${round}.db`)
      const columns = (cols: { name: string; type: string | null }[]): string => cols.map((c) => `${c.name} ${c.type ?? ''}`).join(', ')
      bare.exec(`CREATE TABLE bare_viewers (${columns(viewerColumns)}); CREATE TABLE bare_connections (${columns(connectionColumns)})`)
      const insertViewer = bare.prepare(`INSERT INTO bare_viewers VALUES (${viewerColumns.map(() => '?').join(', ')})`)
      const insertConnection = bare.prepare(`INSERT INTO bare_connections VALUES (${connectionColumns.map(() => '?').join(', ')})`)
      const bareStarted = performance.now()
      bare.transaction(() => {
        for (const row of viewerRows) insertViewer.run(row)
        for (const row of connectionRows) insertConnection.run(row)
      })()
      const bareMs = performance.now() - bareStarted
      bareRates.push((viewerRows.length / bareMs) * 1000)
      bare.close()
      log(
        `store: round ${round + 1}/${options.rounds}: storeViewerList ${int(appRates[round] as number)} viewers/s (${appMs.toFixed(0)} ms), ` +
          `bare insert ${int(bareRates[round] as number)} viewers/s (${bareMs.toFixed(0)} ms; ${int(viewerRows.length)} viewer rows + ${int(connectionRows.length)} connection rows)`
      )
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const app = median(appRates)
  const bare = median(bareRates)
  const share = app / bare
  return [
    { part: '2 store', name: 'storeViewerList (median)', value: `${int(app)} viewers/s`, goal: '(reference)', met: true },
    { part: '2 store', name: 'bare insert, same rows (median)', value: `${int(bare)} viewers/s`, goal: '(reference)', met: true },
    { part: '2 store', name: 'storeViewerList / bare', value: `${(share * 100).toFixed(0)}%`, goal: '≥ 50%', met: share >= 0.5 }
  ]
}
