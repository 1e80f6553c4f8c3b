// What each poll request asks of a connection's holder (docs/scaling-plan.md section 2, "Requests
// that reach into a poller"): its arguments and its answer as they travel through the database
// (checked on arrival at both ends: a row is another process's word), how long its asker waits,
// and what it is called in a sentence.
import { z } from 'zod'
import { Id, Instant } from '../../../shared/schema-parts'
import type { PollRequestKind } from '../store/interface/poll-requests'

const NoArguments = z.null()
const Nothing = z.object({}).strict()

/** Per kind: its arguments, its answer, its deadline, and "to <what> of <connection>". */
export const POLL_REQUEST_KINDS = {
  /** A pass now: answered once it has begun (as refreshNow is, here), not when it ends. */
  refresh: { args: NoArguments, answer: z.object({ startedAt: Instant }).strict(), deadlineMs: 30_000, what: 'refresh' },
  /** One session's record, snapshot and viewer list: answered once judged. */
  refreshSession: { args: z.object({ eventSessionId: Id }).strict(), answer: z.object({ viewers: z.number() }).strict(), deadlineMs: 30_000, what: 'refresh a session' },
  /** A date range of sessions: a listing of many pages, so a longer wait. */
  fetchRange: { args: z.object({ from: Instant, to: Instant }).strict(), answer: z.object({ listed: z.number() }).strict(), deadlineMs: 5 * 60_000, what: 'fetch a range of sessions' },
  /** The connection's alerts judged again now (a session muted or unmuted): no request to the service. */
  reevaluate: { args: NoArguments, answer: Nothing, deadlineMs: 30_000, what: 'judge the alerts again' }
} as const satisfies Record<PollRequestKind, { args: z.ZodType; answer: z.ZodType; deadlineMs: number; what: string }>

type Kinds = typeof POLL_REQUEST_KINDS
export type PollArguments<K extends PollRequestKind> = z.infer<Kinds[K]['args']>
export type PollAnswer<K extends PollRequestKind> = z.infer<Kinds[K]['answer']>

/** Whole seconds, for a sentence. */
export const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`
