// Why an alert ends, decided once (issue 24): what cleared it, and whether the figure behind it
// is back. A rule's condition can stop holding while the session is still in trouble — the
// falling rule's drop leaves its 5-minute window while the score stays at 41 — and that end is
// not a recovery: it says so, with the figure and the level it is still below. Pure, so every
// case is a row of a table test (test/unit/alert-end-reason.test.ts).
import type { AlertEndKind } from '../../../shared/alert-end'

export interface AlertEnd {
  kind: AlertEndKind
  /** The reason in words, stored as the resolving transition's note and shown as Alert.endReason. */
  words: string
}

interface Levels {
  warning: number
  critical: number
}

/** What was seen when an alert ended. `rose`: within the rule's window the figure climbed back
 *  from a low at least half the rule's threshold below it (else the drop simply left the window). */
export type EndFacts =
  | { cause: 'cleared'; rule: 'reliability-below' | 'reliability-falling'; score: number; levels: Levels; rose: boolean; windowMinutes: number }
  | { cause: 'cleared'; rule: 'viewers-dropping'; viewers: number; rose: boolean; windowMinutes: number }
  /** `score` null: the site has left the viewer list (no viewer of it watches any more). */
  | { cause: 'cleared'; rule: 'site-reliability'; score: number | null; viewers: number; warningBelow: number; minimumViewers: number }
  | { cause: 'cleared'; rule: 'monitor-blind' }
  | { cause: 'session-ended' }
  | { cause: 'rule-off' }
  /** Its connection is no longer polled; `why` says which way (connection removed, disabled…). */
  | { cause: 'unwatched'; why: string }

const one = (n: number): string => (Math.round(n * 10) / 10).toFixed(1)
const minutes = (n: number): string => `${Math.round(n * 10) / 10}-minute`

/** The level a score is below, in words: "the critical level 90"; null at or above the warning level. */
function levelBelow(score: number, levels: Levels): string | null {
  if (score < levels.critical) return `the critical level ${levels.critical}`
  if (score < levels.warning) return `the warning level ${levels.warning}`
  return null
}

export function alertEnd(facts: EndFacts): AlertEnd {
  switch (facts.cause) {
    case 'session-ended':
      return { kind: 'session-ended', words: 'session ended' }
    case 'rule-off':
      return { kind: 'rule-off', words: 'rule turned off' }
    case 'unwatched':
      return { kind: 'unwatched', words: facts.why }
    case 'cleared':
      return clearedEnd(facts)
  }
}

function clearedEnd(facts: Extract<EndFacts, { cause: 'cleared' }>): AlertEnd {
  switch (facts.rule) {
    case 'monitor-blind':
      return { kind: 'recovered', words: 'recovered: the service answers again' }
    case 'reliability-below':
    case 'reliability-falling': {
      const below = levelBelow(facts.score, facts.levels)
      if (below === null) {
        return { kind: 'recovered', words: `recovered: reliability ${one(facts.score)}, above the warning level ${facts.levels.warning}` }
      }
      const what = facts.rule === 'reliability-falling' ? 'no longer falling' : 'no longer below its level'
      const how = facts.rose
        ? `reliability climbed back to ${one(facts.score)} but is still below ${below}`
        : `the drop left its ${minutes(facts.windowMinutes)} window; reliability is still ${one(facts.score)}, below ${below}`
      return { kind: 'no-longer-applies', words: `${what}: ${how}` }
    }
    case 'viewers-dropping':
      return facts.rose
        ? { kind: 'recovered', words: `recovered: viewers back up to ${facts.viewers}` }
        : {
            kind: 'no-longer-applies',
            words: `no longer dropping: the fall left its ${minutes(facts.windowMinutes)} window; still ${facts.viewers} viewer${facts.viewers === 1 ? '' : 's'}`
          }
    case 'site-reliability':
      if (facts.score === null) {
        const words = facts.viewers === 0 ? 'no viewer left at the site' : `too few viewers left at the site to judge (${facts.viewers}, fewer than ${facts.minimumViewers})`
        return { kind: 'no-longer-applies', words }
      }
      if (facts.score >= facts.warningBelow) {
        return { kind: 'recovered', words: `recovered: the site's viewers at ${one(facts.score)}, above the site warning level ${facts.warningBelow}` }
      }
      return {
        kind: 'no-longer-applies',
        words: `too few viewers left at the site to judge (${facts.viewers}, fewer than ${facts.minimumViewers}); its viewers still at ${one(facts.score)}, below the site warning level ${facts.warningBelow}`
      }
  }
}
