// How an alert ended, as the core decided it (core/alerts/end-reason.ts): the kind, for every
// face to show the same word, and the reason in words beside it (Alert.endReason). Only an alert
// whose session (or site, or service) is back above its levels is "Resolved"; any other end is
// "Ended", with its reason: a drop that left its window while the score is still 41 never reads
// "recovered".
import { z } from 'zod'

/**
 * - recovered: the rule's condition cleared and the figure is back (above the levels, the
 *   audience back, the service answering);
 * - no-longer-applies: the rule's condition no longer holds (a drop left its window, too few
 *   viewers left to judge) while the figure is not back: still below a level, or still down;
 * - session-ended, rule-off: nothing left to judge;
 * - unwatched: its connection is no longer polled (removed, disabled, not chosen by this run).
 */
export const ALERT_END_KINDS = ['recovered', 'no-longer-applies', 'session-ended', 'rule-off', 'unwatched'] as const
export const AlertEndKindSchema = z.enum(ALERT_END_KINDS)
export type AlertEndKind = z.infer<typeof AlertEndKindSchema>

/** The ends that start the rule's cooldown: the condition itself went away, and may come back. */
export const COOLDOWN_END_KINDS: readonly AlertEndKind[] = ['recovered', 'no-longer-applies']

/** The word and icon every face leads an ended alert with: "✓ Resolved" only when it recovered. */
export function endHeading(kind: AlertEndKind | null): { word: 'Resolved' | 'Ended'; icon: '✓' | '■' } {
  return kind === 'recovered' || kind === null ? { word: 'Resolved', icon: '✓' } : { word: 'Ended', icon: '■' }
}
