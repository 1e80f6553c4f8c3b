// The live board: every live session of the connections being polled, each with what the core
// decided of it (score on 0–100, health, its most pressing alert) and its newest snapshot. After
// every unit of work it pushes the rows that changed and those that left, with a revision, so
// the faces patch themselves instead of asking again. After a poll it builds only the rows of the
// sessions the poll touched; a change that concerns every row (levels, the connections polled)
// builds them all; what another server's units changed (fanout/) builds every row of their
// connections. It reads through the Store (what has been committed) and counts its revisions
// there — or alone, with several servers; pushes go out one at a time, each compared with the one
// before.
import type { SessionAlert } from '../../../shared/alerts'
import type { LiveBoard as LiveBoardPayload, LiveSession, SessionsChanged } from '../../../shared/domain'
import { sessionKey, type SessionKey } from '../../../shared/schema-parts'
import type { CoolingCondition } from '../alerts/evaluator'
import type { TouchedSessions } from '../sync/touched'
import { namedSiteSummary } from '../../../shared/site-label'
import type { OpenSessionAlert } from '../store/alerts'
import type { ReadTx, Store } from '../store/interface/store'
import { siteNameBookOf } from '../store/site-names'
import type { SessionRow } from '../store/sessions'
import { siteAlertsBySession } from './site-alerts'
import { loadVerdicts } from './verdicts'

export interface LiveBoardDeps {
  /** The count the revisions are of (shared/revisions.ts): new with every board, begun as a row
   *  by its owner (the Monitor) before the board's first push. */
  epoch: string
  /** Its revisions counted by this board alone, in its epoch, not on the `board` row every core
   *  on the data shares: with several servers each pushes diffs against what it pushed itself, so
   *  its faces must see its own count without gaps (docs/scaling-plan.md section 3, "The board"). */
  countsAlone?: boolean
  /** The connections being polled: only their sessions are live on the board. */
  polled(): readonly string[]
  /** `committedAt`: performance.now() when the unit that took its revision committed (the push lag). */
  emit(payload: SessionsChanged, committedAt: number): void
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
  siteNames: ReadonlyMap<number, string>
): Map<string, SessionAlert> {
  const by = new Map<string, SessionAlert>()
  const offer = (key: string, alert: SessionAlert): void => {
    const held = by.get(key)
    by.set(key, held ? mostPressing(held, alert) : alert)
  }
  for (const a of open) offer(sessionKey(a), { id: a.id, rule: a.rule, state: a.state, severity: a.severity, summary: a.summary })
  for (const c of cooling) {
    // Held back, it was never stored: its site is named here, as the store names a stored one's.
    const summary = c.site === null ? c.summary : namedSiteSummary(c.summary, c.site, siteNames.get(Number(c.site)))
    offer(sessionKey(c), { id: null, rule: c.rule, state: 'cooldown', severity: c.severity, summary })
  }
  return by
}

/** The rows a unit of work can have changed: the sessions it touched, of one connection. */
export interface TouchedRows {
  connectionId: string
  touched: TouchedSessions
}

/** Every row of these connections: another server's units changed them (fanout/). */
export interface ConnectionRows {
  connections: readonly string[]
}

/** The rows a push builds again, the others being as last pushed. */
interface Scope {
  covers(key: SessionKey): boolean
  rows(read: ReadTx): Promise<LiveSession[]>
}

type PublishedRow = { key: SessionKey; json: string }

export class LiveBoard {
  /** Each row as last pushed (its key and JSON), to push only what changed. */
  private published = new Map<string, PublishedRow>()
  private counts = { live: -1, stored: -1 }
  private readonly clock: () => number
  /** The push under way: the next one compares with what it pushed, so they go one at a time. */
  private publishing: Promise<void> = Promise.resolve()
  /** The revision last pushed, when the board counts alone. */
  private revision = 0

  constructor(
    private readonly store: Store,
    private readonly deps: LiveBoardDeps
  ) {
    this.clock = deps.clock ?? Date.now
  }

  async sessions(): Promise<LiveSession[]> {
    return this.reading((read) => this.liveIn(read))
  }

  /** Any one cached session (live or past) as the drill-down shows it; null when not cached. */
  async session(connectionId: string, eventSessionId: string): Promise<LiveSession | null> {
    return this.reading(async (read) => {
      const row = await read.sessions.row(connectionId, eventSessionId)
      return row ? ((await this.decorate(read, [row]))[0] ?? null) : null
    })
  }

  /** The board as a face first reads it, with the revision it is current with. */
  async current(): Promise<LiveBoardPayload> {
    return this.reading(async (read) => {
      const stamp = this.deps.countsAlone ? { epoch: this.deps.epoch, revision: this.revision } : await read.coreState.revision('board')
      return { revision: stamp?.revision ?? 0, epoch: stamp?.epoch ?? this.deps.epoch, sessions: await this.liveIn(read) }
    })
  }

  /**
   * Pushes what changed since the last push (nothing when nothing did): of every row, or, after a
   * unit of work (`only`), of the sessions it touched, or of every row of some connections — the
   * other rows are as last pushed. Pushes go one at a time, each after the one before it.
   */
  publish(only?: TouchedRows | ConnectionRows): Promise<void> {
    const pushed = this.publishing.catch(() => undefined).then(() => this.push(only))
    this.publishing = pushed
    return pushed
  }

  /** Settles once every push asked for so far has (stop, tests). */
  async pushed(): Promise<void> {
    await this.publishing.catch(() => undefined)
  }

  private async push(only?: TouchedRows | ConnectionRows): Promise<void> {
    const scope = only && this.scopeOf(only)
    const { sessions, counts } = await this.reading(async (read) => ({
      sessions: scope ? await scope.rows(read) : await this.liveIn(read),
      counts: await read.sessions.counts()
    }))
    const next = scope ? this.withoutCovered(scope) : new Map<string, PublishedRow>()
    for (const s of sessions) next.set(sessionKey(s), { key: { connectionId: s.connectionId, eventSessionId: s.eventSessionId }, json: JSON.stringify(s) })
    const rows = sessions.filter((s) => this.published.get(sessionKey(s))?.json !== next.get(sessionKey(s))?.json)
    const removed = [...this.published].filter(([id]) => !next.has(id)).map(([, row]) => row.key)
    const countsChanged = counts.live !== this.counts.live || counts.stored !== this.counts.stored
    this.published = next
    this.counts = counts
    if (rows.length === 0 && removed.length === 0 && !countsChanged) return
    const stamp = this.deps.countsAlone
      ? { epoch: this.deps.epoch, revision: ++this.revision }
      : await this.store.withTransaction((tx) => tx.coreState.nextRevision('board'))
    const committedAt = performance.now()
    this.deps.emit(
      {
        ...stamp,
        at: new Date(this.clock()).toISOString(),
        liveCount: next.size,
        storedCount: counts.stored,
        rows,
        removed
      },
      committedAt
    )
  }

  /** The board's reads: single reads, each of what has been committed (as the board read before
   *  the Store: a read-only unit round every publish would cost the poll path a unit more). */
  private reading<T>(work: (read: ReadTx) => Promise<T>): Promise<T> {
    return work(this.store.read)
  }

  /** The live rows of the connections polled. */
  private async liveIn(read: ReadTx): Promise<LiveSession[]> {
    const polled = new Set(this.deps.polled())
    return this.decorate(read, (await read.sessions.live()).filter((row) => polled.has(row.connection_id)))
  }

  /** The core's verdicts on each row: score, health, levels, the most pressing alert, the worst
   *  site alert firing, the newest snapshot. */
  private async decorate(read: ReadTx, rows: readonly SessionRow[]): Promise<LiveSession[]> {
    const verdicts = await loadVerdicts(read, rows.map((row) => row.connection_id))
    // Only these rows' alerts: a site alert's figure is read from its session's viewer list.
    const keys = new Set(rows.map((row) => sessionKey({ connectionId: row.connection_id, eventSessionId: row.event_session_id })))
    const open = (await read.alerts.openAboutSessions()).filter((a) => keys.has(sessionKey(a)))
    const cooling = await read.coreState.cooling()
    // Read only when a condition held back names a site.
    const names = cooling.some((c) => c.site !== null) ? siteNameBookOf(await read.sites.names()) : new Map<number, string>()
    const alerts = alertsBySession(open, cooling, names)
    const siteAlerts = await siteAlertsBySession(read.viewers, open, verdicts)
    const latest = await Promise.all(rows.map((row) => read.snapshots.latest(row.connection_id, row.event_session_id)))
    return rows.map((row, i) => {
      const session = verdicts.session(row)
      const point = latest[i]
      return {
        ...session,
        alert: alerts.get(sessionKey(session)) ?? null,
        siteAlert: siteAlerts.get(sessionKey(session)) ?? null,
        latestPoint: point ? verdicts.point(row.connection_id, point) : null
      }
    })
  }

  /** What `only` builds again: the sessions a unit touched (every row when it touched them all),
   *  or every live row of some connections — in each case only of the connections polled. */
  private scopeOf(only: TouchedRows | ConnectionRows): Scope | undefined {
    if ('connections' in only) {
      const connections = new Set(only.connections)
      return {
        covers: (key) => connections.has(key.connectionId),
        rows: async (read) => {
          const polled = this.deps.polled().filter((id) => connections.has(id))
          return this.decorate(read, (await Promise.all(polled.map((id) => read.sessions.live(id)))).flat())
        }
      }
    }
    const { connectionId, touched } = only
    if (touched.all) return undefined
    return {
      covers: (key) => key.connectionId === connectionId && touched.has(key.eventSessionId),
      rows: async (read) => {
        if (!this.deps.polled().includes(connectionId)) return []
        return this.decorate(read, (await read.sessions.live(connectionId)).filter((row) => touched.has(row.event_session_id)))
      }
    }
  }

  /** The rows as last pushed, less those `scope` covers (each is live again only if it still is). */
  private withoutCovered(scope: Scope): Map<string, PublishedRow> {
    const kept = new Map(this.published)
    for (const [id, row] of kept) if (scope.covers(row.key)) kept.delete(id)
    return kept
  }
}
