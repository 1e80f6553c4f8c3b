// What time alone changes of one connection's alerts between its polls (the 10 s clock,
// app/blind-clock.ts): no successful poll for the monitor-blind rule's minutes, or a snooze run
// out. Everything else the rules judge changes only with a poll or an operator's action, and
// those judge it themselves; so a tick with nothing due here reads no session and pushes nothing,
// and a tick with something due judges the connection in full, by the same engine.
import type { AlertRules } from '../../../shared/alerts'
import { blindCondition } from './conditions'
import type { OpenAlert } from './engine'

export interface ClockFacts {
  now: number
  rules: AlertRules
  /** As the evaluation takes it: the last successful poll, or when watching began. */
  lastSuccessAt: number
  /** The connection's open alerts. */
  open: readonly Pick<OpenAlert, 'rule' | 'state' | 'snoozedUntil'>[]
}

export function dueByClock(facts: ClockFacts): boolean {
  // The blind alert fires when the rule's minutes have passed (or ends when its rule is off).
  const blind = facts.rules.monitorBlind.enabled && blindCondition(facts).holds
  if (blind !== facts.open.some((a) => a.rule === 'monitor-blind')) return true
  // While blind, the sessions' alerts are held as they are (engine.ts): only the blind one's own snooze ends.
  return facts.open.some(
    (a) => a.state === 'snoozed' && a.snoozedUntil !== null && a.snoozedUntil <= facts.now && (!blind || a.rule === 'monitor-blind')
  )
}
