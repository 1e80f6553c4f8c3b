// Where a past session's figures come from, in words (the core decides the source: PastSession's
// peakSource and endedAtSource). One wording for History and the drill-down.
import type { PastSession } from '../../../shared/screens'

export const END_SOURCE_WORDS: Record<NonNullable<PastSession['endedAtSource']>, string> = {
  viewers: 'when the last viewer left',
  service: "the service's last update",
  observed: 'when Eventwatch first saw it ended'
}

export const PEAK_SOURCE_WORDS: Record<NonNullable<PastSession['peakSource']>, string> = {
  viewers: "from the viewers' start and end times",
  polls: 'the most counted at a poll while live'
}

/** With a peak from the viewers' times, who was left out of it: "3 viewers without usable times not counted". */
export function untimedWords(s: Pick<PastSession, 'peakSource' | 'peakUntimed'>): string | null {
  const n = s.peakSource === 'viewers' ? (s.peakUntimed ?? 0) : 0
  return n > 0 ? `${n.toLocaleString('en-US')} viewer${n === 1 ? '' : 's'} without usable times not counted` : null
}
