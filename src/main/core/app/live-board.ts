// The live board: every live session of the connections being polled, each with what the core
// decided of it (score on 0–100, health, its most pressing alert) and its newest snapshot. After
// every unit of work it pushes the rows that changed and those that left, with a revision, so
// the faces patch themselves instead of asking again. After a poll it builds only the rows of the
// sessions the poll touched; a change that concerns every row (levels, the connections polled)
// builds them all.
import type { SessionAlert } from '../../../shared/alerts'
import type { LiveBoard as LiveBoardPayload, LiveSession, SessionsChanged } from '../../../shared/domain'
import { sessionKey, type SessionKey } from '../../../shared/schema-parts'
import type { CoolingCondition } from '../alerts/evaluator'
import type { TouchedSessions } from '../sync/touched'
import { namedSiteSummary } from '../../../shared/site-label'
import { openSessionAlerts, type OpenSessionAlert } from '../store/alerts'
import type { Db } from '../store/db'
import { siteNameBook } from '../store/site-names'
import { beginEpoch, currentRevision, nextRevision } from '../store/revisions'
import { countSessions, latestSnapshot, liveSessionRows, sessionRow, type SessionRow } from '../store/sessions'
import { siteAlertsBySession } from './site-alerts'
import { Verdicts } from './verdicts'

export interface LiveBoardDeps {
  /** The count the revisions are of (shared/revisions.ts): new with every board, begun as a row. */
  epoch: string
  /** The connections being polled: only their sessions are live on the board. */
  polled(): readonly string[]
  cooling(): readonly CoolingCondition[]
  emit(payload: SessionsChanged): void
  clock?: () => number
}

/** Which open alert a session's row shows: what needs eyes soonest, the worse severity first. */
const STATE_RANK: Record<SessionAlert['state'], number> = { firing: 0, acknowledged: 1, pending: 2, snoozed: 3, muted: 4, cooldown: 5 }
const mostPressing = (a: SessionAlert, b: SessionAlert): SessionAlert =>
  STATE_RANK[b.state] < STATE_RANK[a.state] || (STATE_RANK[b.state] === STATE_RANK[a.state] && b.severity === 'critical' && a.severity === 'warning')
    ? b
    : a

function alertsBySession(
  open: readonly OpenSessionAlert[],
  cooling: readonly CoolingCondition[],
  siteNames: () => Map<number, string>
): Map<string, SessionAlert> {
  const by = new Map<string, SessionAlert>()
  const offer = (key: string, alert: SessionAlert): void => {
    const held = by.get(key)
    by.set(key, held ? mostPressing(held, alert) : alert)
  }
  for (const a of open) offer(sessionKey(a), { id: a.id, rule: a.rule, state: a.state, severity: a.severity, summary: a.summary })
  for (const c of cooling) {
    // Held back, it was never stored: its site is named here, as the store names a stored one's.
    const summary = c.site === null ? c.summary : namedSiteSummary(c.summary, c.site, siteNames().get(Number(c.site)))
    offer(sessionKey(c), { id: null, rule: c.rule, state: 'cooldown', severity: c.severity, summary })
  }
  return by
}

/** The rows a unit of work can have changed: the sessions it touched, of one connection. */
export interface TouchedRows {
  connectionId: string
  touched: TouchedSessions
}

type PublishedRow = { key: SessionKey; json: string }

export class LiveBoard {
  /** Each row as last pushed (its key and JSON), to push only what changed. */
  private published = new Map<string, PublishedRow>()
  private counts = { live: -1, stored: -1 }
  private readonly clock: () => number

  constructor(
    private readonly db: Db,
    private readonly deps: LiveBoardDeps
  ) {
    this.clock = deps.clock ?? Date.now
    // A new board: the faces' copies are diffs of another one's pushes.
    beginEpoch(db, 'board', deps.epoch)
  }

  /** Grows with every push (a row: every core on the file counts on, store/revisions.ts); a board
   *  read answers the revision it is current with. */
  get revision(): number {
    return currentRevision(this.db, 'board')?.revision ?? 0
  }

  sessions(): LiveSession[] {
    const polled = new Set(this.deps.polled())
    return this.decorate(liveSessionRows(this.db).filter((row) => polled.has(row.connection_id)))
  }

  /** Any one cached session (live or past) as the drill-down shows it; null when not cached. */
  session(connectionId: string, eventSessionId: string): LiveSession | null {
    const row = sessionRow(this.db, connectionId, eventSessionId)
    return row ? (this.decorate([row])[0] ?? null) : null
  }

  /** The core's verdicts on each row: score, health, levels, the most pressing alert, the worst
   *  site alert firing, the newest snapshot. */
  private decorate(rows: readonly SessionRow[]): LiveSession[] {
    const verdicts = new Verdicts(this.db)
    // Only these rows' alerts: a site alert's figure is read from its session's viewer list.
    const keys = new Set(rows.map((row) => sessionKey({ connectionId: row.connection_id, eventSessionId: row.event_session_id })))
    const open = openSessionAlerts(this.db).filter((a) => keys.has(sessionKey(a)))
    let names: Map<number, string> | undefined
    const alerts = alertsBySession(open, this.deps.cooling(), () => (names ??= siteNameBook(this.db)))
    const siteAlerts = siteAlertsBySession(this.db, open, verdicts)
    return rows.map((row) => {
      const session = verdicts.session(row)
      const latest = latestSnapshot(this.db, row.connection_id, row.event_session_id)
      return {
        ...session,
        alert: alerts.get(sessionKey(session)) ?? null,
        siteAlert: siteAlerts.get(sessionKey(session)) ?? null,
        latestPoint: latest ? verdicts.point(row.connection_id, latest) : null
      }
    })
  }

  current(): LiveBoardPayload {
    const stamp = currentRevision(this.db, 'board')
    return { revision: stamp?.revision ?? 0, epoch: stamp?.epoch ?? this.deps.epoch, sessions: this.sessions() }
  }

  /**
   * Pushes what changed since the last push (nothing when nothing did): of every row, or, after a
   * unit of work (`only`), of the sessions it touched — the other rows are as last pushed.
   */
  publish(only?: TouchedRows): void {
    const partial = only?.touched.all ? undefined : only
    const sessions = partial ? this.touchedSessions(partial) : this.sessions()
    const next = partial ? this.withoutTouched(partial) : new Map<string, PublishedRow>()
    for (const s of sessions) next.set(sessionKey(s), { key: { connectionId: s.connectionId, eventSessionId: s.eventSessionId }, json: JSON.stringify(s) })
    const rows = sessions.filter((s) => this.published.get(sessionKey(s))?.json !== next.get(sessionKey(s))?.json)
    const removed = [...this.published].filter(([id]) => !next.has(id)).map(([, row]) => row.key)
    const counts = countSessions(this.db)
    const countsChanged = counts.live !== this.counts.live || counts.stored !== this.counts.stored
    this.published = next
    this.counts = counts
    if (rows.length === 0 && removed.length === 0 && !countsChanged) return
    const stamp = nextRevision(this.db, 'board')
    this.deps.emit({
      ...stamp,
      at: new Date(this.clock()).toISOString(),
      liveCount: next.size,
      storedCount: counts.stored,
      rows,
      removed
    })
  }

  /** The live rows of the sessions touched, when their connection is polled. */
  private touchedSessions({ connectionId, touched }: TouchedRows): LiveSession[] {
    if (!this.deps.polled().includes(connectionId)) return []
    return this.decorate(liveSessionRows(this.db, connectionId).filter((row) => touched.has(row.event_session_id)))
  }

  /** The rows as last pushed, less the touched sessions' (each is live again only if it still is). */
  private withoutTouched({ connectionId, touched }: TouchedRows): Map<string, PublishedRow> {
    const kept = new Map(this.published)
    for (const [id, row] of kept) if (row.key.connectionId === connectionId && touched.has(row.key.eventSessionId)) kept.delete(id)
    return kept
  }
}
