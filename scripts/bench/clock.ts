// Part 7: what one tick of the 10 s clock costs between polls (issue 25), with nothing due.
// A cache of 4 connections of 25 live sessions each (a snapshot every 15 s for the last 30
// minutes, a viewer list of 200), judged once as after a poll; then, on a frozen clock, the two
// tick bodies measured in the same run, alternately:
//   - before: a full evaluation and a board publish per connection (Monitor.afterWork for each),
//     as the tick did until issue 25;
//   - after: only what time alone changes (Monitor.dueByClock for each, situationByClock).
// Both repeat the criticals as the tick does (repeatTick). The connections' staleness, read the
// same way by both, is left out. Medians per tick, and their ratio.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EventHub } from '../../src/main/core/app/event-hub'
import { Monitor } from '../../src/main/core/app/monitor'
import type { EventSessionRecord, ViewerRecord } from '../../src/main/core/api/schemas'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openSqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { int, log, median, ms, type Figure } from './stats'

export interface ClockBenchOptions {
  connections: number
  sessionsPerConnection: number
  /** Snapshots per session, 15 s apart, the newest now. */
  snapshots: number
  viewersPerList: number
  /** Timed ticks of each kind (after a few warm-up ones). */
  runs: number
}

export const CLOCK_DEFAULTS: ClockBenchOptions = { connections: 4, sessionsPerConnection: 25, snapshots: 120, viewersPerList: 200, runs: 200 }

/** A quiet tick should cost at most this share of the full one it replaces. */
const GOAL_RATIO = 0.25

/** Session `s` of connection `id` as the service reports it at `at` (a quiet, healthy one). */
export function quietRecord(id: string, s: number, at: number, startedAt: number, k = 0): EventSessionRecord {
  return {
    eventSessionId: `${id}-session-${s}`,
    platformId: 'p',
    tenantId: id,
    contentId: `content-${s}`,
    eventName: `Town hall ${s}`,
    startedAt: new Date(startedAt).toISOString(),
    updatedAt: new Date(at).toISOString(),
    hasEnded: false,
    viewersCount: 200,
    reliabilityScore: 97 + (k % 3),
    cdnTraffic: 1_000 * k,
    ecdnTraffic: 500 * k
  }
}

/** A cache of the connections' live sessions, each with its snapshots up to `now` and a viewer list. */
export function fillLiveSessions(db: Db, o: Omit<ClockBenchOptions, 'runs'>, now: number): string[] {
  const ids = Array.from({ length: o.connections }, (_, c) => `bench-${c}`)
  for (const id of ids) {
    upsertConnection(db, { id, name: `Tenant ${id}`, baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: id, clientId: 'c', isDemo: false })
    for (let s = 0; s < o.sessionsPerConnection; s++) {
      const eventSessionId = `${id}-session-${s}`
      for (let k = o.snapshots - 1; k >= 0; k--) {
        const at = now - k * 15_000
        storeSessionSnapshot(db, id, quietRecord(id, s, at, now - 3_600_000, k), at)
      }
      const viewers: ViewerRecord[] = Array.from({ length: o.viewersPerList }, (_, v) => ({
        viewerId: `${eventSessionId}-v${v}`,
        reliabilityScore: 98,
        networkConnections: [{ siteCode: v % 7 }]
      }))
      storeViewerList(db, id, eventSessionId, viewers, now, 1)
    }
  }
  return ids
}

export async function benchClock(options: ClockBenchOptions = CLOCK_DEFAULTS): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-bench-clock-'))
  const db = openDatabase(join(dir, 'clock.db'))
  // The alerts' Store on the core's connection, as the core opens it (app/start.ts).
  const store = openSqliteStore(db.name, { writer: db })
  try {
    const now = Date.now()
    const ids = fillLiveSessions(db, options, now)
    let pushes = 0
    const hub = new EventHub()
    hub.subscribe(() => pushes++)
    const monitor = await Monitor.begin(store, hub, { clock: () => now, polled: () => ids, unconfirmed: () => [], pollingPaused: () => false })
    // Judged once, as after each connection's poll: every snapshot and list is no longer new.
    for (const id of ids) await monitor.afterWork(id, now)
    await monitor.situationByClock()

    const full = async (): Promise<void> => {
      for (const id of ids) await monitor.afterWork(id, now)
      await monitor.repeatTick()
    }
    const timeOnly = async (): Promise<void> => {
      for (const id of ids) if (await monitor.dueByClock(id, now)) await monitor.afterWork(id, now)
      await monitor.situationByClock()
      await monitor.repeatTick()
    }
    const timed = async (tick: () => Promise<void>): Promise<number> => {
      const started = performance.now()
      await tick()
      return performance.now() - started
    }
    const before: number[] = []
    const after: number[] = []
    pushes = 0
    for (let i = -5; i < options.runs; i++) {
      const b = await timed(full)
      const a = await timed(timeOnly)
      if (i >= 0) before.push(b)
      if (i >= 0) after.push(a)
    }
    // Nothing was due: neither kind of tick may have pushed anything, or the figures compare nothing.
    if (pushes !== 0) throw new Error(`${pushes} pushes on a quiet clock`)
    const sessions = options.connections * options.sessionsPerConnection
    const [b, a] = [median(before), median(after)]
    log(`${int(options.connections)} connections, ${int(sessions)} live sessions: a quiet tick ${ms(b)} before (full evaluation), ${ms(a)} after (time alone) — medians of ${options.runs}`)
    const ratio = a / b
    return [
      { part: 'clock', name: `a quiet tick, before: full evaluation and board per connection (${int(sessions)} sessions)`, value: ms(b), goal: '(reference)', met: true },
      { part: 'clock', name: 'a quiet tick, after: what time alone changes', value: `${ratio.toFixed(3)}× (${ms(a)} vs ${ms(b)})`, goal: `≤ ${GOAL_RATIO}×`, met: ratio <= GOAL_RATIO }
    ]
  } finally {
    await store.close()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
