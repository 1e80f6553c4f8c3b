// The session's story from its cached viewers (issue 14, viewer-story.ts), against lists whose
// overlaps are known by construction, in a real cache file.
import { afterEach, describe, expect, it } from 'vitest'
import type { ViewerRecord } from '../../src/main/core/api/schemas'
import { viewerStory } from '../../src/main/core/store/queries/viewer-story'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { storeSessionList } from '../../src/main/core/store/sessions'
import { liveSession, seededCache } from '../support/seeded-cache'

const T0 = Date.parse('2026-03-02T09:00:00Z')
const MIN = 60_000
const iso = (ms: number): string => new Date(ms).toISOString()
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A viewer who watched from minute `start` to minute `end` (undefined: still watching). */
const watched = (id: string, start: number | undefined, end: number | undefined, o: Partial<ViewerRecord> = {}): ViewerRecord => ({
  viewerId: id,
  ...(start === undefined ? {} : { startedAt: iso(T0 + start * MIN) }),
  ...(end === undefined ? {} : { endedAt: iso(T0 + end * MIN) }),
  ...o
})

function storyOf(viewers: ViewerRecord[], fetchedAtMinute: number, maxPoints?: number) {
  const { db } = seededCache(cleanups, ['s'], T0)
  storeViewerList(db, 'A', 's', viewers, T0 + fetchedAtMinute * MIN, 1)
  return viewerStory(db, 'A', 's', { maxPoints })
}

describe('viewerStory', () => {
  it('finds the exact peak and when it was first reached, from overlapping viewers', () => {
    // Minutes 0–60, 10–30, 20–40, 25–26, 50–70: four at once at minute 25, three from 20 to 30.
    const story = storyOf([watched('a', 0, 60), watched('b', 10, 30), watched('c', 20, 40), watched('d', 25, 26), watched('e', 50, 70)], 120)!
    expect(story.peak).toEqual({ viewers: 4, at: T0 + 25 * MIN })
    expect(story).toMatchObject({ viewers: 5, timedViewers: 5, stillWatching: 0, from: T0, to: T0 + 70 * MIN, lastEndedAt: T0 + 70 * MIN })
  })

  it('does not count a viewer who left and one who joined at the same instant as together', () => {
    const story = storyOf([watched('a', 0, 10), watched('b', 10, 20), watched('c', 20, 30)], 60)!
    expect(story.peak).toEqual({ viewers: 1, at: T0 })
  })

  it('buckets the audience: watching at each end, the peak within, joins and leaves', () => {
    // 7 buckets of 10 minutes over minutes 0–70.
    const story = storyOf([watched('a', 0, 60), watched('b', 10, 30), watched('c', 20, 40), watched('d', 25, 26), watched('e', 50, 70)], 120, 7)!
    expect(story.points.map((p) => p.at)).toEqual([10, 20, 30, 40, 50, 60, 70].map((m) => T0 + m * MIN))
    // A bucket holds its start, not its end: b's leave at minute 30 is the fourth bucket's.
    expect(story.points.map((p) => p.watching)).toEqual([1, 2, 3, 2, 1, 2, 0])
    expect(story.points.map((p) => p.peak)).toEqual([1, 2, 4, 2, 1, 2, 1])
    expect(story.points.map((p) => p.joins)).toEqual([1, 1, 2, 0, 0, 1, 0])
    expect(story.points.map((p) => p.leaves)).toEqual([0, 0, 1, 1, 1, 0, 2])
    const joins = story.points.reduce((n, p) => n + p.joins, 0)
    const leaves = story.points.reduce((n, p) => n + p.leaves, 0)
    expect([joins, leaves]).toEqual([5, 5])
  })

  it('counts viewers without an end as still watching when the list was fetched, never as leaving', () => {
    const story = storyOf([watched('a', 0, 30), watched('b', 10, undefined), watched('c', 20, undefined)], 60, 6)!
    expect(story).toMatchObject({ stillWatching: 2, to: T0 + 60 * MIN, lastEndedAt: T0 + 30 * MIN })
    expect(story.peak).toEqual({ viewers: 3, at: T0 + 20 * MIN })
    expect(story.points.at(-1)).toMatchObject({ watching: 2, leaves: 0 })
    expect(story.points.reduce((n, p) => n + p.leaves, 0)).toBe(1)
  })

  it('judges each bucket by everyone who watched in it, with the breakdowns\' math', () => {
    const story = storyOf(
      [
        watched('good', 0, 20, { reliabilityScore: 90, rebufferingTime: 0, viewingTime: 1200, cdnErrors: 0, cdnResponses: 100 }),
        // Joins and leaves inside the second bucket: it still counts there.
        watched('poor', 12, 15, { reliabilityScore: 50, rebufferingTime: 60, viewingTime: 120, cdnErrors: 10, cdnResponses: 40 })
      ],
      60,
      2
    )!
    expect(story.points[0]).toMatchObject({ reliabilityScore: 90, rebufferingRatio: 0, cdnErrorRate: 0 })
    expect(story.points[1]!.reliabilityScore).toBeCloseTo(70)
    expect(story.points[1]!.rebufferingRatio).toBeCloseTo(60 / (1200 + 60 + 120))
    expect(story.points[1]!.cdnErrorRate).toBeCloseTo(10 / 140)
  })

  it('leaves viewers without a start out of the timeline, and says how many it counted', () => {
    const story = storyOf([watched('a', 0, 10), watched('nostart', undefined, 5), watched('b', 5, 10)], 60)!
    expect(story).toMatchObject({ viewers: 3, timedViewers: 2 })
    expect(story.peak?.viewers).toBe(2)
  })

  it('an end before the start (hostile data) is read as no time watched, not as a negative audience', () => {
    const story = storyOf([watched('a', 0, 30), watched('backwards', 20, 10)], 60, 3)!
    expect(story.points.every((p) => p.watching >= 0 && p.peak >= 0)).toBe(true)
    expect(story.points.at(-1)!.watching).toBe(0)
  })

  it('has no timeline for a list without times, and is null when no list is cached', () => {
    expect(storyOf([watched('a', undefined, undefined)], 60)).toMatchObject({ viewers: 1, timedViewers: 0, peak: null, points: [] })
    const { db } = seededCache(cleanups, ['s'], T0)
    expect(viewerStory(db, 'A', 's')).toBeNull()
  })
})

describe('the peak kept with a stored list', () => {
  it('is the story\'s peak, and raises the session\'s peak viewers (never lowers it), once the session has ended', () => {
    const { db } = seededCache(cleanups, ['s'], T0) // the session was polled live with 2 viewers
    const kept = () => db.prepare("SELECT peak_viewers AS viewers, peak_at AS at FROM viewer_lists WHERE event_session_id = 's'").get()
    // While it is live, its lists (replaced every minute) are not summed: the polls say its audience.
    storeViewerList(db, 'A', 's', [watched('a', 0, 60), watched('b', 10, 30)], T0 + 30 * MIN, 1)
    expect(kept()).toEqual({ viewers: null, at: null })
    storeSessionList(db, 'A', [{ ...liveSession('s', T0), hasEnded: true }], T0 + 100 * MIN)
    const viewers = [watched('a', 0, 60), watched('b', 10, 30), watched('c', 20, 40), watched('d', 25, 26), watched('e', 50, undefined)]
    storeViewerList(db, 'A', 's', viewers, T0 + 120 * MIN, 1)
    expect(kept()).toEqual({ viewers: 4, at: T0 + 25 * MIN })
    expect(db.prepare("SELECT last_ended_at AS at FROM viewer_lists WHERE event_session_id = 's'").get()).toEqual({ at: T0 + 60 * MIN })
    expect(viewerStory(db, 'A', 's')!.peak).toEqual(kept())
    const peakOfSession = () => (db.prepare("SELECT peak_viewers AS n FROM sessions WHERE event_session_id = 's'").get() as { n: number }).n
    expect(peakOfSession()).toBe(4)
    // A later, smaller list (one viewer) keeps its own peak; the session keeps the highest known.
    storeViewerList(db, 'A', 's', [watched('z', 0, 10)], T0 + 180 * MIN, 1)
    expect(db.prepare("SELECT peak_viewers AS viewers FROM viewer_lists WHERE event_session_id = 's'").get()).toEqual({ viewers: 1 })
    expect(peakOfSession()).toBe(4)
  })
})
