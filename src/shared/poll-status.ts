// The polling status per connection, as the core decides it (core/sync/connection-status.ts), and
// the app's summary of them: what the header, the wall and the tray show. A tenant's trouble
// belongs to that tenant: one connection offline never makes the app "offline" while another polls.
import { z } from 'zod'

/**
 * connected: its last poll succeeded and is recent · stale: no failure said, but no success for
 * several poll intervals · offline: its service is unreachable (since when, why) · failing: its
 * polls fail for another reason (refused credentials, a response of the wrong shape) · paused: by
 * the operator · waiting: no poll has succeeded yet in this run, or (servers sharing connections by
 * lease) no server holds it now, its reason saying so · disabled: saved, not polled.
 */
export const CONNECTION_POLL_STATES = ['connected', 'stale', 'offline', 'failing', 'paused', 'waiting', 'disabled'] as const
export type ConnectionPollState = (typeof CONNECTION_POLL_STATES)[number]

/** How a state looks: ok (green), bad (red, hollow dot), muted (neither). */
export const PollToneSchema = z.enum(['ok', 'bad', 'muted'])
export type PollTone = z.infer<typeof PollToneSchema>

export const ConnectionPollStatusSchema = z.object({
  connectionId: z.string(),
  connectionName: z.string(),
  state: z.enum(CONNECTION_POLL_STATES),
  tone: PollToneSchema,
  /** The embedded simulator ("Demo data"), not a real service. */
  demo: z.boolean(),
  /** Offline: since when its service has been unreachable. */
  since: z.string().nullable(),
  /** Offline or failing: the cause in a few words ("connection refused"); waiting: what for, when
   *  it is not its first poll ("waiting for a server to take it over"). */
  reason: z.string().nullable(),
  /** Its last failure in full, the request named; cleared by the next success. */
  lastError: z.string().nullable(),
  /** Its last successful poll in this run. */
  lastUpdateAt: z.string().nullable(),
  /** Whether what the screens show of it is current (connected, or paused while still fresh). */
  current: z.boolean()
})
export type ConnectionPollStatus = z.infer<typeof ConnectionPollStatusSchema>

/**
 * connected: every connection polled is connected (paused or waiting ones aside, as long as one
 * is) · partial: one polls while another is offline, failing or stale · stale: none fresh, none
 * failing · offline: none polls, one offline or failing · paused: every one paused · waiting: none
 * has polled yet · none: no connection is polled.
 */
export const POLL_SUMMARY_STATES = ['connected', 'partial', 'stale', 'offline', 'paused', 'waiting', 'none'] as const
export type PollSummaryState = (typeof POLL_SUMMARY_STATES)[number]

export const PollSummarySchema = z.object({
  state: z.enum(POLL_SUMMARY_STATES),
  tone: PollToneSchema,
  /** The freshest successful poll of the connections that poll (of any, when none does). */
  lastUpdateAt: z.string().nullable(),
  /** No connection's data on screen is current: a screen says so loudly. */
  outdated: z.boolean()
})
export type PollSummary = z.infer<typeof PollSummarySchema>
