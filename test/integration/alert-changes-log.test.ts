// What each alerts push announced, as rows (alert_changes, issue 25, docs/scaling-plan.md
// section 3): a core polling the simulator fires a critical, repeats it and resolves it; a second
// store opened on the same cache file (another core, a server woken by a NOTIFY) reads back from
// `alertChangesSince`, a page at a time, exactly the revisions, epochs and alert ids those
// `alertsChanged` pushes carried, without having heard any of them.
import { afterEach, describe, expect, it } from 'vitest'
import { ALERT_CHANGE_KINDS, type AlertChangeRow } from '../../src/main/core/store/alert-change-log'
import { openSqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { setAlertRules } from '../../src/main/core/store/settings'
import { startSimulator } from '../../src/main/core/simulator/server'
import type { AlertsChanged } from '../../src/shared/alerts'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { pollSimulator } from '../support/polled-simulator'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The rows a push leaves: one per alert id it names, by kind, at the time it was pushed. */
function rowsOf(push: AlertsChanged): AlertChangeRow[] {
  const { epoch, revision } = push.situation
  const at = Date.parse(push.situation.at)
  const ids = { ...push, fired: push.fired.map((a) => a.id), resolved: push.resolved.map((a) => a.id), changed: push.changed.map((a) => a.id), repeated: push.repeated.map((a) => a.id) }
  return ALERT_CHANGE_KINDS.flatMap((kind) => [...new Set(ids[kind])].map((alertId) => ({ epoch, revision, alertId, kind, at })))
}

const inLogOrder = (a: AlertChangeRow, b: AlertChangeRow): number => a.revision - b.revision || a.kind.localeCompare(b.kind) || a.alertId - b.alertId

describe('alert changes as rows', () => {
  it("are what the core's pushes announced, read back by another store on the same file", async () => {
    const timers = new ManualTimers(T0)
    const sim = await startSimulator({ clock: timers.clock, liveSessions: 2, endedSessions: 0, viewersPerSession: 50, churnSessions: false, randomIncidents: false })
    cleanups.push(() => sim.close())
    const { db, pushes, advance, group } = await pollSimulator(sim, timers, cleanups)
    setAlertRules(db, { repeatCritical: { enabled: true, everyMinutes: 1 } })
    await advance(60_000)

    const victim = sim.world.sessions.filter((s) => !s.hasEnded)[0]!.eventSessionId
    sim.faults.incident(victim, { drop: 30, minutes: 30 })
    await advance(3 * 60_000) // fires, then repeats
    sim.faults.recover(victim)
    await advance(3 * 60_000) // resolves
    await group.idle()

    // The pushes say every kind a reader must follow here.
    expect(pushes.some((p) => p.fired.length > 0) && pushes.some((p) => p.repeated.length > 0) && pushes.some((p) => p.resolved.length > 0)).toBe(true)
    const announced = pushes.flatMap(rowsOf).sort(inLogOrder)

    // Another store on the file, that heard none of it, reads on page by page from revision 0.
    const other = openSqliteStore(db.name)
    cleanups.push(() => other.close())
    const read: AlertChangeRow[] = []
    for (let page = await other.read.coreState.alertChangesSince(0, 3); page.length > 0; page = await other.read.coreState.alertChangesSince(page.at(-1)!.revision, 3)) {
      // At most a page, save one push larger than a page, whole.
      expect(page.length <= 3 || new Set(page.map((row) => row.revision)).size === 1).toBe(true)
      read.push(...page)
    }
    expect(read).toEqual(announced)
    // Each push's revision holds its rows, and a push with none (the situation alone) has none.
    const revisionsWithRows = new Set(read.map((row) => row.revision))
    for (const push of pushes) expect(revisionsWithRows.has(push.situation.revision)).toBe(rowsOf(push).length > 0)
  }, 60_000)
})
