// A session's story from its cached viewer list (issue 14): the audience over time, its peak and
// quality, reconstructed by the core from each viewer's startedAt and endedAt; and its report. Point times are
// ms since epoch (charts compute with them); the rest are ISO-8601 UTC strings.
import { z } from 'zod'
import { HealthSchema } from './reliability'
import { Instant, SessionKeySchema } from './schema-parts'

export const SessionStoryArgsSchema = SessionKeySchema.extend({
  maxPoints: z.number().int().min(2).max(2000).optional()
}).strict()

export const StoryPointSchema = z.object({
  /** The end of the time bucket the point sums up (ms since epoch). */
  at: z.number(),
  /** Watching as the bucket ended, and the most at once within it. */
  watching: z.number(),
  peak: z.number(),
  joins: z.number(),
  leaves: z.number(),
  /** Mean reliability of everyone who watched in the bucket, on 0–100, and its health. */
  reliability: z.number().nullable(),
  health: HealthSchema,
  rebufferingRatio: z.number().nullable(),
  cdnErrorRate: z.number().nullable()
})
export type StoryPoint = z.infer<typeof StoryPointSchema>

export const SessionStorySchema = z
  .object({
    /** When the viewer list was fetched: viewers without an end were watching then. */
    fetchedAt: Instant,
    viewers: z.number(),
    /** The viewers with a start time: the ones the timeline counts. */
    timedViewers: z.number(),
    stillWatching: z.number(),
    peak: z.object({ viewers: z.number(), at: Instant }).nullable(),
    from: Instant.nullable(),
    to: Instant.nullable(),
    /** The latest endedAt the service gave. */
    lastEndedAt: Instant.nullable(),
    /** Σ viewingTime, in the unit the service uses for it. */
    viewingTime: z.number().nullable(),
    points: z.array(StoryPointSchema)
  })
  .nullable()
export type SessionStory = z.infer<typeof SessionStorySchema>

/** A session's post-event report (eventwatch report): one self-contained HTML file, or JSON. */
export const SESSION_REPORT_FORMATS = ['html', 'json'] as const
export const SessionReportArgsSchema = SessionKeySchema.extend({ format: z.enum(SESSION_REPORT_FORMATS) }).strict()
/** The file's text; null when the cache has no such session. */
export const SessionReportFileSchema = z.object({ text: z.string() }).nullable()
