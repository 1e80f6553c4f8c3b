// The glue between the cache and the rule engine: after each poll of a connection it reads the
// settings, the recent snapshots of the live sessions the poll touched (on 0–100 and with their
// levels, through the app's Verdicts), their overrides and open alerts, runs the engine and stores what changed,
// with the webhook deliveries it announces, as one unit of work (alert-changes.ts). The app and
// the CLI both call it, so both keep one history. It also remembers which conditions the cooldown holds
// back (as rows, store/alert-cooling.ts), which the situation counts: a session red on Live is never "all clear".
import type { AlertRules } from '../../../shared/alerts'
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
import { judgedOf, saveJudged, type JudgedMark } from '../store/alert-judged'
import { coolingConditions, coolingOf, forgetCoolingExcept, replaceCooling, type CoolingCondition } from '../store/alert-cooling'
import { TouchedSessions } from '../sync/touched'

/** What one evaluation changed: alert ids (the app reads and pushes them), and whether anything did. */
export interface Evaluation extends Applied {
  /** Whether anything an alerts view or the situation shows changed (a push is due). */
  any: boolean
  /** The changed alerts as committed, for the push. */
  announcement: Announcement
}

export type { CoolingCondition }

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
  private readonly lastSuccess = new Map<string, number>()
  private readonly watchingSince = new Map<string, number>()

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
    const { sessions, judged, untouched } = this.observe(connectionId, now, rules, open.map((a) => a.eventSessionId), touched)
    const actions = evaluateAlerts({
      now,
      rules,
      lastSuccessAt: this.lastSuccessAt(connectionId, open.some((a) => a.rule === 'monitor-blind')),
      sessions,
      open,
      lastResolvedAt: (rule, sessionId, site) => resolvedTimes.get(key(rule, sessionId, site ?? null))
    })
    let coolingChanged = false
    const committed = this.changes.commit(
      now,
      () => applyActions(this.db, connectionId, actions, now),
      () => {
        // A poll counts once it is committed: one whose change rolled back is judged again. The
        // sessions this judgement did not read keep what was judged of them.
        saveJudged(this.db, connectionId, [...sessions.map((s) => s.eventSessionId), ...untouched], judged)
        coolingChanged = this.noteCooling(connectionId, sessions, actions, touched)
      }
    )
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
    const now = this.clock()
    const committed = this.changes.commit(
      now,
      () => resolveUnwatched(this.db, polled, now),
      () => (coolingChanged = forgetCoolingExcept(this.db, polled) > 0)
    )
    return evaluation(committed, coolingChanged)
  }

  /** Every condition the cooldown holds back now, across connections. */
  cooling(): CoolingCondition[] {
    return coolingConditions(this.db)
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
    const before = coolingOf(this.db, connectionId)
    const live = new Set(sessions.filter((s) => s.live).map((s) => s.eventSessionId))
    const fresh = new Set(sessions.filter((s) => s.fresh).map((s) => s.eventSessionId))
    // A session this judgement did not read keeps what was held for it.
    const kept = before.filter((c) => (!touched.has(c.eventSessionId) || live.has(c.eventSessionId)) && !fresh.has(c.eventSessionId))
    const held = actions.flatMap((action): CoolingCondition[] =>
      action.type === 'cooldown'
        ? [{ connectionId, eventSessionId: action.eventSessionId, rule: action.rule, severity: action.severity, summary: action.summary, site: action.site ?? null }]
        : []
    )
    if (held.length === 0 && kept.length === before.length) return false
    replaceCooling(this.db, connectionId, [...kept, ...held])
    return JSON.stringify(coolingOf(this.db, connectionId)) !== JSON.stringify(before)
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
   * longest window; `judged`: their newest snapshot and viewer list, to store as counted
   * (store/alert-judged.ts); `untouched`: the sessions judged before that this judgement did not read.
   */
  private observe(
    connectionId: string,
    now: number,
    rules: AlertRules,
    alertSessions: (string | null)[],
    touched: TouchedSessions
  ): { sessions: SessionObservation[]; judged: JudgedMark[]; untouched: string[] } {
    const windowMs = Math.max(rules.reliabilityFalling.windowMinutes, rules.viewersDropping.windowMinutes) * 60_000
    // Scores on 0–100 by this connection's own scale, and levels, as every screen has them.
    const verdicts = this.verdicts()
    const ids = new Set(liveSessionIds(this.db, connectionId).filter((id) => touched.has(id)))
    for (const id of alertSessions) if (id !== null) ids.add(id)
    const before = judgedOf(this.db, connectionId)
    const marks: JudgedMark[] = []
    const sessions = [...ids].map((id) => {
      const session = sessionLiveness(this.db, connectionId, id)
      const samples: Sample[] = snapshotsSince(this.db, connectionId, id, now - windowMs).map((s) => ({
        at: s.takenAt,
        score: verdicts.score(connectionId, s.reliabilityScore) ?? Number.NaN,
        viewers: s.viewersCount
      }))
      const newest = samples.at(-1)?.at ?? Number.NEGATIVE_INFINITY
      const judged = before.get(id)
      const fresh = newest > (judged?.snapshotAt ?? Number.NEGATIVE_INFINITY)
      if (fresh) marks.push({ eventSessionId: id, snapshotAt: newest })
      // The sites of its newest viewer list, read only when that list is new: a list counts once.
      const listAt = viewerListFetchedAt(this.db, connectionId, id) ?? Number.NEGATIVE_INFINITY
      const sitesFresh = rules.siteReliability.enabled && listAt > (judged?.listAt ?? Number.NEGATIVE_INFINITY)
      if (sitesFresh) marks.push({ eventSessionId: id, listAt })
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
    return { sessions, judged: marks, untouched: [...before.keys()].filter((id) => !touched.has(id)) }
  }
}
