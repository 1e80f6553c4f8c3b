// How any face patches its copy of the live board from a sessionsChanged push: rows replaced in
// place or added by key, rows that left dropped. Pure; the renderer's Live store and the
// desktop's tray menu both use it (test/unit/live-patch.test.ts).
import type { LiveSession, SessionsChanged } from './domain'
import { sessionKey } from './schema-parts'

/** The rows after a push: changed rows replace theirs in place, new ones join at the end. */
export function patchSessions(sessions: readonly LiveSession[], change: Pick<SessionsChanged, 'rows' | 'removed'>): LiveSession[] {
  const gone = new Set(change.removed.map(sessionKey))
  const incoming = new Map(change.rows.map((row) => [sessionKey(row), row]))
  const next: LiveSession[] = []
  for (const s of sessions) {
    const key = sessionKey(s)
    if (gone.has(key) && !incoming.has(key)) continue
    next.push(incoming.get(key) ?? s)
    incoming.delete(key)
  }
  return [...next, ...incoming.values()]
}
