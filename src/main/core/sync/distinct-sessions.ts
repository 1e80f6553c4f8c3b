// A session listing can name one session twice: pages that overlap (a service paging by
// position while sessions start), a listing that goes round. A pass asks about each session
// once, or two fetches of one viewer list would race each other into the cache; the repeat
// itself is the service's oddity, said in a diagnostic.
import type { EventSessionRecord } from '../api/schemas'

export interface DistinctSessions {
  /** Each session once, where it was first listed, with the record listed last (the latest word). */
  sessions: EventSessionRecord[]
  /** Ids listed more than once, each once, in the order first listed. */
  repeated: string[]
}

export function distinctSessions(listed: readonly EventSessionRecord[]): DistinctSessions {
  const byId = new Map<string, EventSessionRecord>()
  const repeated = new Set<string>()
  for (const session of listed) {
    if (byId.has(session.eventSessionId)) repeated.add(session.eventSessionId)
    byId.set(session.eventSessionId, session) // a Map keeps the first position of a key
  }
  return { sessions: [...byId.values()], repeated: [...repeated] }
}
