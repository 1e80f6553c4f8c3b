// The small schemas every part of the contract shares: one opaque id and one instant.
import { z } from 'zod'

/** An id from the service or the cache: opaque text, never parsed, bounded in length. */
export const Id = z.string().min(1).max(200)

/** An ISO-8601 date-time (UTC at this boundary). */
export const Instant = z.string().max(40).refine((s) => !Number.isNaN(Date.parse(s)), 'not a date-time')

/** One session, named the same way everywhere: its connection and its id there. */
export const SessionKeySchema = z.object({ connectionId: Id, eventSessionId: Id }).strict()
export type SessionKey = z.infer<typeof SessionKeySchema>

/** "connectionId/eventSessionId": a session's key in maps and stores. */
export const sessionKey = (s: SessionKey): string => `${s.connectionId}/${s.eventSessionId}`
