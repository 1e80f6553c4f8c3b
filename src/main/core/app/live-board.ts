// The live board: every live session of the connections being polled, each with what the core
// decided of it (score on 0–100, health, its most pressing alert) and its newest snapshot. After
// every unit of work it pushes the rows that changed and those that left, with a revision, so
// the faces patch themselves instead of asking again.
import type { SessionAlert } from '../../../shared/alerts'
import type { LiveBoard as LiveBoardPayload, LiveSession, SessionsChanged } from '../../../shared/domain'
import { sessionKey, type SessionKey } from '../../../shared/schema-parts'
import type { CoolingCondition } from '../alerts/evaluator'
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

export class LiveBoard {
  /** Each row as last pushed (its key and JSON), to push only what changed. */
  private published = new Map<string, { key: SessionKey; json: string }>()
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
    const open = openSessionAlerts(this.db)
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

  /** Pushes what changed since the last push (nothing when nothing did). */
  publish(): void {
    const sessions = this.sessions()
    const next = new Map(
      sessions.map((s) => [sessionKey(s), { key: { connectionId: s.connectionId, eventSessionId: s.eventSessionId }, json: JSON.stringify(s) }])
    )
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
      liveCount: sessions.length,
      storedCount: counts.stored,
      rows,
      removed
    })
  }
}
