// A session's story (store/queries/viewer-story.ts) as the screens and the report receive it:
// times as ISO instants, every bucket's reliability on 0–100 with its health, judged here once.
import type { SessionStory } from '../../../shared/session-story'
import type { ViewerReads } from '../store/interface/viewers'
import { isoOrNull } from '../store/queries/sql'
import type { Verdicts } from './verdicts'

export async function judgedStory(
  read: { viewers: Pick<ViewerReads, 'story'> },
  verdicts: Verdicts,
  connectionId: string,
  eventSessionId: string,
  maxPoints?: number
): Promise<SessionStory> {
  const story = await read.viewers.story(connectionId, eventSessionId, { maxPoints })
  if (!story) return null
  const { peak, points, ...figures } = story
  return {
    ...figures,
    fetchedAt: new Date(story.fetchedAt).toISOString(),
    from: isoOrNull(story.from),
    to: isoOrNull(story.to),
    lastEndedAt: isoOrNull(story.lastEndedAt),
    peak: peak && { viewers: peak.viewers, at: new Date(peak.at).toISOString() },
    points: points.map(({ reliabilityScore, ...point }) => ({ ...point, ...verdicts.judge(connectionId, eventSessionId, reliabilityScore) }))
  }
}
