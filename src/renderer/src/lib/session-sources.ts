// Where a past session's figures come from, in words (the core decides the source: PastSession's
// peakSource and endedAtSource). One wording for History and the drill-down.
import type { PastSession } from '../../../shared/screens'

export const END_SOURCE_WORDS: Record<NonNullable<PastSession['endedAtSource']>, string> = {
  viewers: 'when the last viewer left',
  service: "the service's last update",
  observed: 'when Eventwatch first saw it ended'
}

export const PEAK_SOURCE_WORDS: Record<NonNullable<PastSession['peakSource']>, string> = {
  viewers: 'reconstructed from the viewer list',
  polls: "the service's count at a poll"
}
