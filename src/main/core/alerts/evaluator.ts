// The glue between the cache and the rule engine: after each poll of a connection it reads the
// settings, the recent snapshots of the live sessions the poll touched (on 0–100 and with their
// levels, through the app's Verdicts), their overrides and open alerts, runs the engine and stores what changed,
// with the webhook deliveries it announces, as one unit of work (alert-changes.ts). The app and
// the CLI both call it, so both keep one history. It also remembers which conditions the cooldown holds
// back, which the situation counts: a session red on Live is never "all clear".
import type { AlertRuleId, AlertRules, AlertSeverity } from '../../../shared/alerts'
import type { EffectiveLevels } from '../../../shared/reliability'
import type { Db } from '../store/db'
import { liveSessionIds, newestPollAt, sessionLiveness, snapshotsSince } from '../store/sessions'
import { getAlertRules } from '../store/settings'
import { evaluateAlerts, key, type Sample, type SessionObservation } from './engine'
import { lastResolvedTimes, openAlerts } from '../store/alerts'
import { anythingApplied, applyActions, resolveUnwatched, type Applied } from './apply'
import { AlertChanges } from './alert-changes'
import type { Announcement } from './page'
import { siteSamples, viewerListFetchedAt } from './site-samples'
import { dueByClock } from './clock-due'
import { TouchedSessions } from '../sync/touched'

/** What one evaluation changed: alert ids (the app reads and pushes them), and whether anything did. */
export interface Evaluation extends Applied {
  /** Whether anything an alerts view or the situation shows changed (a push is due). */
  any: boolean
  /** The changed alerts as committed, for the push. */
  announcement: Announcement
}

/** A condition the cooldown holds back: the same alert resolved too recently to fire again. */
export interface CoolingCondition {
  connectionId: string
  eventSessionId: string
  rule: AlertRuleId
  severity: AlertSeverity
  /** As the rule wrote it: a site alert's names its site by code (the board names it). */
  summary: string
  /** The site a site condition is about; null for the others. */
  site: string | null
}

/** The longest cooldown allowed: resolves older than this cannot hold an alert back. */
const MAX_COOLDOWN_MS = 1440 * 60_000

/** What the core decided of scores and levels (app/verdicts.ts, handed in by the app, which ranks
 *  above the rules): the rules judge every score on 0–100 by the same conversion as the screens. */
export interface ScoreVerdicts {
  score(connectionId: string, raw: number | null | undefined): number | null
  levels(connectionId: string, eventSessionId: string): EffectiveLevels
  override(connectionId: string, eventSessionId: string): { muted: boolean }
}

const evaluation = ({ applied, announcement }: { applied: Applied; announcement: Announcement }, coolingChanged = false): Evaluation => ({
  ...applied,
  any: anythingApplied(applied) || coolingChanged,
  announcement
})

export class AlertEvaluator {
  /** The newest snapshot already judged, per session: a poll counts once. */
  private readonly judged = new Map<string, number>()
  /** The newest viewer list already judged for its sites, per session. */
  private readonly judgedLists = new Map<string, number>()
  private readonly lastSuccess = new Map<string, number>()
  private readonly watchingSince = new Map<string, number>()
  /** Per connection, per session: the conditions the cooldown holds back now. */
  private readonly coolingBy = new Map<string, Map<string, CoolingCondition[]>>()

  /** `verdicts`: a fresh Verdicts for each evaluation (`() => new Verdicts(db)`). */
  constructor(
    private readonly db: Db,
    private readonly verdicts: () => ScoreVerdicts,
    private readonly clock: () => number = Date.now,
    /** Each evaluation's changes commit with their outbox rows (without one: no webhooks). */
    private readonly changes: AlertChanges = new AlertChanges(db)
  ) {}

  /**
   * Evaluates one connection after a poll (whether or not it succeeded): its own alerts (blind)
   * and those of the `touched` sessions, which alone are read; the others' are left as they are.
   * `lastSuccessAt`: the poller's last successful unit of work, or null before the first.
   */
  evaluate(connectionId: string, lastSuccessAt: number | null, touched = TouchedSessions.everySession()): Evaluation {
    const now = this.clock()
    this.noteSuccess(connectionId, lastSuccessAt, now)
    const rules = getAlertRules(this.db)
    const open = openAlerts(this.db, connectionId).filter((a) => a.eventSessionId === null || touched.has(a.eventSessionId))
    const resolvedTimes = lastResolvedTimes(this.db, connectionId, now - MAX_COOLDOWN_MS)
    const { sessions, judged } = this.observe(connectionId, now, rules, open.map((a) => a.eventSessionId), touched)
    const actions = evaluateAlerts({
      now,
      rules,
      lastSuccessAt: this.lastSuccessAt(connectionId, open.some((a) => a.rule === 'monitor-blind')),
      sessions,
      open,
      lastResolvedAt: (rule, sessionId, site) => resolvedTimes.get(key(rule, sessionId, site ?? null))
    })
    const committed = this.changes.commit(now, () => applyActions(this.db, connectionId, actions, now))
    // A poll counts once it is committed: one whose change rolled back is judged again.
    judged()
    const coolingChanged = this.noteCooling(connectionId, sessions, actions, touched)
    return evaluation(committed, coolingChanged)
  }

  /**
   * Whether time alone has changed this connection's alerts since it was last judged
   * (clock-due.ts): then the caller evaluates it. Reads its open alerts, none of its sessions.
   */
  dueByClock(connectionId: string, lastSuccessAt: number | null): boolean {
    const now = this.clock()
    this.noteSuccess(connectionId, lastSuccessAt, now)
    const open = openAlerts(this.db, connectionId)
    const since = this.lastSuccessAt(connectionId, open.some((a) => a.rule === 'monitor-blind'))
    return dueByClock({ now, rules: getAlertRules(this.db), lastSuccessAt: since, open })
  }

  /** Ends what connections no longer polled left open (see resolveUnwatched), and forgets their cooldowns. */
  forgetUnwatched(polled: readonly string[]): Evaluation {
    let coolingChanged = false
    for (const connectionId of [...this.coolingBy.keys()]) {
      if (polled.includes(connectionId)) continue
      coolingChanged ||= this.coolingBy.get(connectionId)!.size > 0
      this.coolingBy.delete(connectionId)
    }
    const now = this.clock()
    return evaluation(this.changes.commit(now, () => resolveUnwatched(this.db, polled, now)), coolingChanged)
  }

  /** Every condition the cooldown holds back now, across connections. */
  cooling(): CoolingCondition[] {
    return [...this.coolingBy.values()].flatMap((bySession) => [...bySession.values()].flat())
  }

  /**
   * Remembers the engine's cooldown holds: a fresh poll of a session replaces what was held for
   * it, a session no longer observed (ended) drops it. Returns whether anything changed.
   */
  private noteCooling(
    connectionId: string,
    sessions: SessionObservation[],
    actions: ReturnType<typeof evaluateAlerts>,
    touched: TouchedSessions
  ): boolean {
    const bySession = this.coolingBy.get(connectionId) ?? new Map<string, CoolingCondition[]>()
    this.coolingBy.set(connectionId, bySession)
    const before = JSON.stringify([...bySession])
    const live = new Set(sessions.filter((s) => s.live).map((s) => s.eventSessionId))
    for (const id of [...bySession.keys()]) if (touched.has(id) && !live.has(id)) bySession.delete(id)
    for (const s of sessions) if (s.fresh) bySession.delete(s.eventSessionId)
    for (const action of actions) {
      if (action.type !== 'cooldown') continue
      const { rule, eventSessionId, severity, summary } = action
      const held = { connectionId, eventSessionId, rule, severity, summary, site: action.site ?? null }
      bySession.set(eventSessionId, [...(bySession.get(eventSessionId) ?? []), held])
    }
    return JSON.stringify([...bySession]) !== before
  }

  private noteSuccess(connectionId: string, lastSuccessAt: number | null, now: number): void {
    if (!this.watchingSince.has(connectionId)) this.watchingSince.set(connectionId, now)
    if (lastSuccessAt !== null) this.lastSuccess.set(connectionId, Math.max(lastSuccessAt, this.lastSuccess.get(connectionId) ?? 0))
  }

  /**
   * The last successful poll this process knows of, else when it began watching. A blind alert
   * left open by an earlier run stays open until a poll succeeds: the cache's last poll counts.
   */
  private lastSuccessAt(connectionId: string, blindOpen: boolean): number {
    const known = this.lastSuccess.get(connectionId)
    if (known !== undefined) return known
    const since = this.watchingSince.get(connectionId) ?? this.clock()
    if (!blindOpen) return since
    return Math.min(since, newestPollAt(this.db, connectionId) ?? 0)
  }

  /**
   * The touched sessions that are live or that open alerts belong to, with their snapshots in the
   * longest window; and `judged`, which marks their newest snapshot and viewer list as counted.
   */
  private observe(
    connectionId: string,
    now: number,
    rules: AlertRules,
    alertSessions: (string | null)[],
    touched: TouchedSessions
  ): { sessions: SessionObservation[]; judged: () => void } {
    const windowMs = Math.max(rules.reliabilityFalling.windowMinutes, rules.viewersDropping.windowMinutes) * 60_000
    // Scores on 0–100 by this connection's own scale, and levels, as every screen has them.
    const verdicts = this.verdicts()
    const ids = new Set(liveSessionIds(this.db, connectionId).filter((id) => touched.has(id)))
    for (const id of alertSessions) if (id !== null) ids.add(id)
    const marks: (() => void)[] = []
    const sessions = [...ids].map((id) => {
      const session = sessionLiveness(this.db, connectionId, id)
      const samples: Sample[] = snapshotsSince(this.db, connectionId, id, now - windowMs).map((s) => ({
        at: s.takenAt,
        score: verdicts.score(connectionId, s.reliabilityScore) ?? Number.NaN,
        viewers: s.viewersCount
      }))
      const newest = samples.at(-1)?.at ?? Number.NEGATIVE_INFINITY
      const judgedKey = `${connectionId}\u001f${id}`
      const fresh = newest > (this.judged.get(judgedKey) ?? Number.NEGATIVE_INFINITY)
      if (fresh) marks.push(() => this.judged.set(judgedKey, newest))
      // The sites of its newest viewer list, read only when that list is new: a list counts once.
      const listAt = viewerListFetchedAt(this.db, connectionId, id) ?? Number.NEGATIVE_INFINITY
      const sitesFresh = rules.siteReliability.enabled && listAt > (this.judgedLists.get(judgedKey) ?? Number.NEGATIVE_INFINITY)
      if (sitesFresh) marks.push(() => this.judgedLists.set(judgedKey, listAt))
      return {
        eventSessionId: id,
        eventName: session?.name ?? null,
        live: session !== null && !session.ended,
        samples,
        fresh,
        muted: verdicts.override(connectionId, id).muted,
        levels: verdicts.levels(connectionId, id),
        sites: sitesFresh ? siteSamples(this.db, connectionId, id, (raw) => verdicts.score(connectionId, raw)) : [],
        sitesFresh
      }
    })
    return { sessions, judged: () => marks.forEach((mark) => mark()) }
  }
}
