// Part 9: what judging one poll costs (issue 25, item 4). One connection of 100 live sessions (a
// snapshot every 15 s for the last 30 minutes, a viewer list of 200), judged once in full; then
// each round stores a fresh snapshot of one session, outside the timing, and judges that unit of
// work, the two kinds alternately in the same run:
//   - before: every session of the connection, its alert rules and its row on Live
//     (Monitor.afterWork with TouchedSessions.everySession()), as every poll was judged until issue 25;
//   - after: only the session the unit touched (the TouchedSessions a unit of work yields).
// Both must push the same thing, the one row that changed, or the figures compare nothing.
// Medians per judgement, and their ratio.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EventHub } from '../../src/main/core/app/event-hub'
import { Monitor } from '../../src/main/core/app/monitor'
import { openSqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { openDatabase } from '../../src/main/core/store/db'
import { storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { TouchedSessions } from '../../src/main/core/sync/touched'
import type { SessionsChanged } from '../../src/shared/domain'
import { fillLiveSessions, quietRecord } from './clock'
import { int, log, median, ms, type Figure } from './stats'

export interface JudgementBenchOptions {
  sessions: number
  /** Snapshots per session, 15 s apart, the newest now. */
  snapshots: number
  viewersPerList: number
  /** Timed judgements of each kind (after a few warm-up ones). */
  runs: number
}

export const JUDGEMENT_DEFAULTS: JudgementBenchOptions = { sessions: 100, snapshots: 120, viewersPerList: 200, runs: 200 }

/** Judging the one session touched should cost at most this share of judging all of them. */
const GOAL_RATIO = 0.25

export async function benchJudgement(options: JudgementBenchOptions = JUDGEMENT_DEFAULTS): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-bench-judgement-'))
  const db = openDatabase(join(dir, 'judgement.db'))
  // The alerts' Store on the core's connection, as the core opens it (app/start.ts).
  const store = openSqliteStore(db.name, { writer: db })
  try {
    const started = Date.now()
    let now = started
    const [connectionId] = fillLiveSessions(db, { connections: 1, sessionsPerConnection: options.sessions, snapshots: options.snapshots, viewersPerList: options.viewersPerList }, now)
    const id = connectionId as string
    const rowsPushed: number[] = []
    const hub = new EventHub()
    hub.subscribe((name, payload) => {
      if (name === 'sessionsChanged') rowsPushed.push((payload as SessionsChanged).rows.length)
    })
    const monitor = await Monitor.begin(store, hub, { clock: () => now, polled: () => [id], unconfirmed: () => [], pollingPaused: () => false })
    await monitor.afterWork(id, now) // the connection's first judgement, in full

    let round = 0
    /** A unit of work that stored one session's fresh snapshot, then its judgement, timed. */
    const judged = async (touched: (session: string) => TouchedSessions): Promise<number> => {
      now += 15_000
      const s = round++ % options.sessions
      const record = quietRecord(id, s, now, started - 3_600_000, round)
      storeSessionSnapshot(db, id, record, now)
      const scope = touched(record.eventSessionId)
      const pushed = rowsPushed.length
      const t0 = performance.now()
      await monitor.afterWork(id, now, scope)
      const elapsed = performance.now() - t0
      if (rowsPushed.length !== pushed + 1 || rowsPushed.at(-1) !== 1) throw new Error(`a judgement pushed ${rowsPushed.slice(pushed).join(', ') || 'no'} rows, not the 1 that changed`)
      return elapsed
    }
    const before: number[] = []
    const after: number[] = []
    for (let i = -5; i < options.runs; i++) {
      const b = await judged(() => TouchedSessions.everySession())
      const a = await judged((session) => new TouchedSessions().add(session))
      if (i >= 0) before.push(b)
      if (i >= 0) after.push(a)
    }
    const [b, a] = [median(before), median(after)]
    log(`${int(options.sessions)} live sessions, 1 touched: a poll's judgement ${ms(b)} before (every session), ${ms(a)} after (the one touched) — medians of ${options.runs}`)
    const ratio = a / b
    return [
      { part: 'judgement', name: `a poll's judgement, before: every session's rules and row (${int(options.sessions)} live, 1 touched)`, value: ms(b), goal: '(reference)', met: true },
      { part: 'judgement', name: "a poll's judgement, after: the session it touched", value: `${ratio.toFixed(3)}× (${ms(a)} vs ${ms(b)})`, goal: `≤ ${GOAL_RATIO}×`, met: ratio <= GOAL_RATIO }
    ]
  } finally {
    await store.close()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
