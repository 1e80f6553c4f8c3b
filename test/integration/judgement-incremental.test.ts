// Incremental judgement (issue 25, item 4): each unit of work yields the sessions it touched, and
// the judgement after it reads and judges those alone — their alert rules, their rows on Live —
// while a change that concerns every session (a pass that polled them all, the alert rules or the
// levels saved) still judges every one. A hundred live sessions on the simulator over loopback,
// the app's pollers on a real SQLite file whose statements are logged with their arguments, on a
// clock the test moves by hand; polls are 10 minutes apart, so a session's refresh is the only
// unit of work between them.
import { afterEach, describe, expect, it } from 'vitest'
import type { AlertsChanged } from '../../src/shared/alerts'
import type { SessionsChanged } from '../../src/shared/domain'
import { rarelyPolled } from '../support/rarely-polled'
import type { StatementCall } from '../support/statement-log'

const POLL_MS = 10 * 60_000
const LIVE = 100

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function hundredLive() {
  const boards: SessionsChanged[] = []
  const alerts: AlertsChanged[] = []
  const { timers, sim, db, statements, group, advance } = await rarelyPolled({ liveSessions: LIVE, viewersPerSession: 5, pollMs: POLL_MS }, cleanups, (hub) =>
    hub.subscribe((name, payload) => {
      if (name === 'sessionsChanged') boards.push(payload as SessionsChanged)
      if (name === 'alertsChanged') alerts.push(payload as AlertsChanged)
    })
  )
  const live = sim.world.sessions.filter((s) => !s.hasEnded).map((s) => s.eventSessionId)
  expect(live).toHaveLength(LIVE)
  /** What the statements run from now on read of the sessions' snapshots, by session. */
  const reads = () => {
    const from = statements.calls.length
    return () => snapshotReads(statements.calls.slice(from))
  }
  return { timers, db, sim, group, boards, alerts, live, reads, advance }
}

/**
 * The sessions whose snapshots were read, by what for: the alert rules read each session's window
 * (`taken_at >= ?`), a row on Live its newest snapshot (`LIMIT 1`). The session is the second argument.
 */
function snapshotReads(calls: readonly StatementCall[]): { rules: string[]; rows: string[] } {
  const reading = calls.filter((c) => /^SELECT .* FROM snapshots WHERE connection_id = \? AND event_session_id = \?/.test(c.sql))
  const sessionOf = (c: StatementCall): string => String(c.args[1])
  return {
    rules: reading.filter((c) => c.sql.includes('taken_at >= ?')).map(sessionOf),
    rows: reading.filter((c) => c.sql.includes('LIMIT 1')).map(sessionOf)
  }
}

describe('the judgement after a unit of work', () => {
  it('reads, judges and pushes only the session a refresh touched, of a hundred live ones', async () => {
    const { group, boards, live, reads, advance } = await hundredLive()
    const one = live[37]!
    await advance(15_000) // its new snapshot is newer than the pass's; the 10 s clock finds nothing due
    const pushed = boards.length
    const since = reads()

    await group.refreshSession('c1', one)

    const read = since()
    console.log(`a refresh of 1 session of ${LIVE}: snapshots read for the rules of ${read.rules.length} session(s), for ${read.rows.length} row(s)`)
    expect(read).toEqual({ rules: [one], rows: [one] })
    // Its row, pushed alone; the board still counts every live session.
    const after = boards.slice(pushed)
    expect(after).toHaveLength(1)
    expect(after[0]!.rows.map((r) => r.eventSessionId)).toEqual([one])
    expect(after[0]).toMatchObject({ removed: [], liveCount: LIVE })
    expect((await group.monitor.board.current()).sessions).toHaveLength(LIVE)
  }, 60_000)

  it('still judges every session when every one changed or may have: a pass, the rules saved, the levels saved', async () => {
    const { group, live, reads, advance } = await hundredLive()
    const everyOne = [...live].sort()

    // A pass (its listing, a snapshot and a viewer list of each) touches every live session.
    let since = reads()
    await advance(POLL_MS)
    let read = since()
    expect([...new Set(read.rules)].sort()).toEqual(everyOne)
    expect([...new Set(read.rows)].sort()).toEqual(everyOne)

    // Saving the alert rules judges each polled connection again (start.ts: alertRulesSaved).
    since = reads()
    await group.reevaluate('c1')
    read = since()
    expect([...read.rules].sort()).toEqual(everyOne)
    expect([...read.rows].sort()).toEqual(everyOne)

    // Saving the levels: every row's health may change (start.ts: levelsSaved).
    since = reads()
    await group.monitor.publishBoard()
    read = since()
    expect(read.rules).toEqual([])
    expect([...read.rows].sort()).toEqual(everyOne)
  }, 90_000)

  it('fires the alert of the session that fell when a refresh touches it, on its row too', async () => {
    const { sim, group, boards, alerts, live, advance } = await hundredLive()
    const victim = live[5]!
    sim.faults.incident(victim, { drop: 25, minutes: 10 })
    await advance(15_000) // the 10 s clock ticks once meanwhile: nothing is due
    const [pushedBoards, pushedAlerts] = [boards.length, alerts.length]

    await group.refreshSession('c1', victim)

    const fired = alerts.slice(pushedAlerts).flatMap((p) => p.fired)
    expect(fired.map((a) => [a.rule, a.eventSessionId])).toEqual([['reliability-falling', victim]])
    const rows = boards.slice(pushedBoards).flatMap((p) => p.rows)
    expect(rows.map((r) => [r.eventSessionId, r.alert?.rule, r.alert?.state])).toEqual([[victim, 'reliability-falling', 'firing']])
  }, 60_000)

  it('judges again, with the next unit, a session whose judgement rolled back', async () => {
    const { db, sim, group, alerts, live, advance } = await hundredLive()
    const [victim, other] = [live[5]!, live[6]!]
    sim.faults.incident(victim, { drop: 25, minutes: 10 })
    await advance(15_000)
    // The alert cannot be stored (as on a full disk): the refresh's judgement rolls back.
    db.exec(`CREATE TRIGGER refuse_alerts BEFORE INSERT ON alerts BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`)
    await group.refreshSession('c1', victim)
    expect(alerts.flatMap((p) => p.fired)).toEqual([])
    db.exec('DROP TRIGGER refuse_alerts')

    // A unit that touched another session only: the victim's poll is judged with it, and fires.
    await group.refreshSession('c1', other)
    expect(alerts.flatMap((p) => p.fired).map((a) => [a.rule, a.eventSessionId])).toEqual([['reliability-falling', victim]])
  }, 60_000)
})
