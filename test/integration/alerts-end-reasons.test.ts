// A falling-reliability warning whose drop leaves its 5-minute window while the session stays at
// about 41 (issue 24, item 5): over loopback to the simulator, into a real SQLite file, on a clock
// moved by hand. It ends, and every face says it ended still below the critical level: never
// "Resolved — recovered" while the score is 41. Once the score really comes back, the
// reliability-below alert resolves as recovered.
import { afterEach, describe, expect, it } from 'vitest'
import { alertHistory, listAlerts } from '../../src/main/core/store/alerts'
import { headline, type AlertEvent } from '../../src/main/core/webhooks/bodies'
import { startSimulator } from '../../src/main/core/simulator/server'
import { resolvedText } from '../../src/main/desktop/alert-text'
import { endWords } from '../../src/renderer/src/lib/alert-situation'
import type { Alert, AlertsChanged } from '../../src/shared/alerts'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { pollSimulator } from '../support/polled-simulator'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setup() {
  const timers = new ManualTimers(T0)
  const sim = await startSimulator({ clock: timers.clock, liveSessions: 2, endedSessions: 0, viewersPerSession: 100, churnSessions: false, randomIncidents: false })
  cleanups.push(() => sim.close())
  return { sim, ...(await pollSimulator(sim, timers, cleanups)) }
}

const resolvedOf = (pushes: AlertsChanged[], rule: Alert['rule']): Alert | undefined => pushes.flatMap((p) => p.resolved).find((a) => a.rule === rule)

describe('an alert whose condition no longer applies while the session is still below a level', () => {
  it('ends "no longer falling … still 41, below the critical level 90", never "recovered", on every face', async () => {
    const { sim, db, pushes, advance } = await setup()
    await advance(2 * 60_000)
    const victim = sim.world.sessions.find((s) => !s.hasEnded)!
    // About 41, and held there for an hour.
    sim.faults.incident(victim.eventSessionId, { drop: victim.baselineReliability - 41, minutes: 60 })
    await advance(60_000)
    expect(pushes.flatMap((p) => p.fired).map((a) => a.rule).sort()).toEqual(['reliability-below', 'reliability-falling'])

    // The drop leaves the falling rule's 5-minute window; the score does not move.
    await advance(7 * 60_000)
    const falling = resolvedOf(pushes, 'reliability-falling')!
    expect(falling).toBeDefined()
    expect(falling.endReason).toMatch(/^no longer falling: the drop left its 5-minute window; reliability is still 4\d\.\d, below the critical level 90$/)
    expect(falling.endKind).toBe('no-longer-applies')
    // The session is still at about 41: its reliability-below alert still fires.
    expect(listAlerts(db, {}, sim.world.time).filter((a) => a.state !== 'resolved').map((a) => [a.rule, a.state, a.severity])).toEqual([
      ['reliability-below', 'firing', 'critical']
    ])

    // What each face says of it: the alerts view's card, the desktop notification, a webhook.
    expect(endWords(falling)?.text).toBe(`Ended — ${falling.endReason}`)
    const note = resolvedText([falling])
    expect(note.title).toMatch(/^Ended: Reliability falling: /)
    expect(note.body).toContain('still 4')
    const event: AlertEvent = { key: 'k', event: 'resolved', at: falling.resolvedAt!, alert: falling, value: null, level: null, note: null, by: null, site: null }
    expect(headline(event)).toMatch(/^Ended · warning · /)
    for (const words of [endWords(falling)!.text, note.title, note.body, headline(event)]) expect(words).not.toMatch(/recovered/i)
    // And the export of the history keeps both the words and the kind.
    expect(alertHistory(db).find((a) => a.id === falling.id)).toMatchObject({ endKind: 'no-longer-applies', endReason: falling.endReason })

    // The score really comes back: now the reliability-below alert recovers, and says so.
    sim.faults.recover(victim.eventSessionId)
    await advance(4 * 60_000)
    const below = resolvedOf(pushes, 'reliability-below')!
    expect(below.endKind).toBe('recovered')
    expect(below.endReason).toMatch(/^recovered: reliability 9\d\.\d, above the warning level 95$/)
    expect(endWords(below)?.text).toBe(`Resolved — ${below.endReason}`)
  }, 60_000)
})
