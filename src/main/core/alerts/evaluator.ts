// The glue between the cache and the rule engine: after each poll of a connection it reads the
// settings, the live sessions' recent snapshots, the overrides and the open alerts, runs the
// engine and stores what changed. The app and the CLI both call it, so both keep one history.
import type { Alert, AlertRules } from '../../../shared/alerts'
import type { Db } from '../store/db'
import { getAlertRules, getDisplaySettings, getThresholds } from '../store/settings'
import { statement } from '../store/statements'
import { reliabilityScale } from '../store/units'
import { evaluateAlerts, key, NO_OVERRIDE, type Sample, type SessionObservation } from './engine'
import { sessionOverrides } from './overrides'
import { applyActions, getAlert, lastResolvedTimes, openAlerts, resolveUnwatched } from './store'

export interface Evaluation {
  fired: Alert[]
  resolved: Alert[]
  /** Whether anything an alerts view shows changed (a push is due). */
  changed: boolean
}

/** The longest cooldown allowed: resolves older than this cannot hold an alert back. */
const MAX_COOLDOWN_MS = 1440 * 60_000

export class AlertEvaluator {
  /** The newest snapshot already judged, per session: a poll counts once. */
  private readonly judged = new Map<string, number>()
  private readonly lastSuccess = new Map<string, number>()
  private readonly watchingSince = new Map<string, number>()

  constructor(
    private readonly db: Db,
    private readonly clock: () => number = Date.now
  ) {}

  /**
   * Evaluates one connection after a poll (whether or not it succeeded).
   * `lastSuccessAt`: the poller's last successful unit of work, or null before the first.
   */
  evaluate(connectionId: string, lastSuccessAt: number | null): Evaluation {
    const now = this.clock()
    if (!this.watchingSince.has(connectionId)) this.watchingSince.set(connectionId, now)
    if (lastSuccessAt !== null) this.lastSuccess.set(connectionId, Math.max(lastSuccessAt, this.lastSuccess.get(connectionId) ?? 0))
    const rules = getAlertRules(this.db)
    const open = openAlerts(this.db, connectionId)
    const resolvedTimes = lastResolvedTimes(this.db, connectionId, now - MAX_COOLDOWN_MS)
    const actions = evaluateAlerts({
      now,
      rules,
      thresholds: getThresholds(this.db),
      lastSuccessAt: this.lastSuccessAt(connectionId, open.some((a) => a.rule === 'monitor-blind')),
      sessions: this.observe(connectionId, now, rules, open.map((a) => a.eventSessionId)),
      open,
      lastResolvedAt: (rule, sessionId) => resolvedTimes.get(key(rule, sessionId))
    })
    const applied = applyActions(this.db, connectionId, actions, now)
    return {
      fired: applied.fired.map((id) => getAlert(this.db, id)),
      resolved: applied.resolved.map((id) => getAlert(this.db, id)),
      changed: applied.changed
    }
  }

  /** Resolves what connections no longer polled left open (see resolveUnwatched). */
  forgetUnwatched(polled: readonly string[]): Evaluation {
    const applied = resolveUnwatched(this.db, polled, this.clock())
    return { fired: [], resolved: applied.resolved.map((id) => getAlert(this.db, id)), changed: applied.changed }
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
    const { at } = statement(this.db, 'SELECT MAX(last_polled_at) AS at FROM sessions WHERE connection_id = ?').get(connectionId) as {
      at: number | null
    }
    return Math.min(since, at ?? 0)
  }

  /** Live sessions, and those open alerts belong to, with their snapshots in the longest window. */
  private observe(connectionId: string, now: number, rules: AlertRules, alertSessions: (string | null)[]): SessionObservation[] {
    const windowMs = Math.max(rules.reliabilityFalling.windowMinutes, rules.viewersDropping.windowMinutes) * 60_000
    const toHundred = this.scaleFactor()
    const overrides = sessionOverrides(this.db, connectionId)
    const live = statement(
      this.db,
      'SELECT event_session_id AS id, event_name AS name, has_ended AS ended FROM sessions WHERE connection_id = ? AND has_ended = 0'
    ).all(connectionId) as { id: string; name: string | null; ended: number }[]
    const rows = new Map(live.map((r) => [r.id, r]))
    for (const id of alertSessions) {
      if (id === null || rows.has(id)) continue
      const row = statement(
        this.db,
        'SELECT event_session_id AS id, event_name AS name, has_ended AS ended FROM sessions WHERE connection_id = ? AND event_session_id = ?'
      ).get(connectionId, id) as { id: string; name: string | null; ended: number } | undefined
      rows.set(id, row ?? { id, name: null, ended: 1 })
    }
    return [...rows.values()].map((r) => {
      const samples = this.samples(connectionId, r.id, now - windowMs, toHundred)
      const newest = samples.at(-1)?.at ?? Number.NEGATIVE_INFINITY
      const judgedKey = `${connectionId}\u001f${r.id}`
      const fresh = newest > (this.judged.get(judgedKey) ?? Number.NEGATIVE_INFINITY)
      if (fresh) this.judged.set(judgedKey, newest)
      return { eventSessionId: r.id, eventName: r.name, live: r.ended === 0, samples, fresh, override: overrides.get(r.id) ?? NO_OVERRIDE }
    })
  }

  private samples(connectionId: string, eventSessionId: string, since: number, toHundred: number): Sample[] {
    const rows = statement(
      this.db,
      `SELECT taken_at AS at, reliability_score AS score, viewers_count AS viewers FROM snapshots
       WHERE connection_id = ? AND event_session_id = ? AND taken_at >= ? ORDER BY taken_at`
    ).all(connectionId, eventSessionId, since) as Sample[]
    return toHundred === 1 ? rows : rows.map((s) => ({ ...s, score: s.score * toHundred }))
  }

  /** Scores are judged on 0–100, whatever scale the service reports (units.ts decides). */
  private scaleFactor(): number {
    return reliabilityScale(this.db, getDisplaySettings(this.db).reliabilityScale).value === '0-1' ? 100 : 1
  }
}
