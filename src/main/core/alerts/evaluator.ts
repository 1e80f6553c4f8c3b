// The glue between the cache and the rule engine: after each poll of a connection it reads the
// settings, the recent snapshots of the live sessions the poll touched (on 0–100 and with their
// levels, through the app's Verdicts) and their overrides, then, in one unit of work
// (alert-changes.ts), the open alerts the engine continues from, runs the engine and stores what
// changed with the webhook deliveries it announces. The app and the CLI both call it, so both keep
// one history. It also remembers which conditions the cooldown holds back (as rows, the Store's
// coreState), which the situation counts: a session red on Live is never "all clear".
import type { AlertRules } from '../../../shared/alerts'
import type { EffectiveLevels } from '../../../shared/reliability'
import type { OpenAlert } from '../store/interface/alerts'
import type { CoolingCondition, CoreStateStore, JudgedMark } from '../store/interface/core-state'
import type { Fence } from '../store/interface/leases'
import type { Store } from '../store/interface/store'
import { evaluateAlerts, key, type AlertAction, type Sample, type SessionObservation } from './engine'
import { anythingApplied, applyActions, resolveUnwatched, type Applied } from './apply'
import { AlertChanges } from './alert-changes'
import type { Announcement } from './page'
import { siteSamples } from './site-samples'
import { dueByClock } from './clock-due'
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

const isBlind = (a: OpenAlert): boolean => a.rule === 'monitor-blind'

export class AlertEvaluator {
  private readonly lastSuccess = new Map<string, number>()
  private readonly watchingSince = new Map<string, number>()

  /** `verdicts`: a fresh Verdicts for each evaluation, read before its unit of work. */
  constructor(
    private readonly store: Store,
    private readonly verdicts: () => Promise<ScoreVerdicts>,
    private readonly clock: () => number = Date.now,
    /** Each evaluation's changes commit with their outbox rows (without one: no webhooks). */
    private readonly changes: AlertChanges = new AlertChanges(store)
  ) {}

  /**
   * Evaluates one connection after a poll (whether or not it succeeded): its own alerts (blind)
   * and those of the `touched` sessions, which alone are read; the others' are left as they are.
   * `lastSuccessAt`: the poller's last successful unit of work, or null before the first.
   * One evaluation of a connection at a time: the caller waits for one before the next. `fence`:
   * the connection's lease, where servers share connections (its unit is fenced with it).
   */
  async evaluate(connectionId: string, lastSuccessAt: number | null, touched = TouchedSessions.everySession(), fence?: Fence): Promise<Evaluation> {
    const now = this.clock()
    this.noteSuccess(connectionId, lastSuccessAt, now)
    const read = this.store.read
    const judgedHere = (a: OpenAlert): boolean => a.eventSessionId === null || touched.has(a.eventSessionId)
    const rules = await read.settings.get('alertRules')
    // What it judges, read before the unit: the sessions of the alerts open now among them.
    const seen = (await read.alerts.open(connectionId)).filter(judgedHere)
    const since = await this.lastSuccessAt(connectionId, seen.some(isBlind))
    const { sessions, judged, untouched } = await this.observe(connectionId, now, rules, seen.map((a) => a.eventSessionId), touched)
    let actions: AlertAction[] = []
    let applied: Applied | undefined
    let coolingChanged = false
    const committed = await this.changes.commit(
      now,
      async (tx) => {
        // The alerts the engine continues from are read in the unit that writes their next state:
        // an operator's acknowledgement committed meanwhile is not written over.
        const open = (await tx.alerts.open(connectionId)).filter(judgedHere)
        const resolvedTimes = await tx.alerts.lastResolved(connectionId, now - MAX_COOLDOWN_MS)
        actions = evaluateAlerts({
          now,
          rules,
          lastSuccessAt: since,
          sessions,
          open,
          lastResolvedAt: (rule, sessionId, site) => resolvedTimes.get(key(rule, sessionId, site ?? null))
        })
        applied = await applyActions(tx.alerts, connectionId, actions, now)
        return applied
      },
      async (tx) => {
        // A poll counts once it is committed: one whose change rolled back is judged again. The
        // sessions this judgement did not read keep what was judged of them.
        await tx.coreState.saveJudged(connectionId, [...sessions.map((s) => s.eventSessionId), ...untouched], judged)
        coolingChanged = await this.noteCooling(tx.coreState, connectionId, sessions, actions, touched)
        // Its rows show the alerts and cooldowns judged here: every server's board follows.
        if (coolingChanged || (applied && anythingApplied(applied))) await tx.notifications.send('ew_board', connectionId)
      },
      fence
    )
    return evaluation(committed, coolingChanged)
  }

  /**
   * Whether time alone has changed this connection's alerts since it was last judged
   * (clock-due.ts): then the caller evaluates it. Reads its open alerts, none of its sessions.
   */
  async dueByClock(connectionId: string, lastSuccessAt: number | null): Promise<boolean> {
    const now = this.clock()
    this.noteSuccess(connectionId, lastSuccessAt, now)
    const open = await this.store.read.alerts.open(connectionId)
    const since = await this.lastSuccessAt(connectionId, open.some(isBlind))
    return dueByClock({ now, rules: await this.store.read.settings.get('alertRules'), lastSuccessAt: since, open })
  }

  /** Ends what connections no longer polled left open (see resolveUnwatched), and forgets their cooldowns. */
  async forgetUnwatched(polled: readonly string[]): Promise<Evaluation> {
    let coolingChanged = false
    const now = this.clock()
    const committed = await this.changes.commit(
      now,
      (tx) => resolveUnwatched(tx, polled, now),
      async (tx) => {
        coolingChanged = (await tx.coreState.forgetCoolingExcept(polled)) > 0
      }
    )
    return evaluation(committed, coolingChanged)
  }

  /** Every condition the cooldown holds back now, across connections. */
  cooling(): Promise<CoolingCondition[]> {
    return this.store.read.coreState.cooling()
  }

  /**
   * Remembers the engine's cooldown holds: a fresh poll of a session replaces what was held for
   * it, a session no longer observed (ended) drops it. Returns whether anything changed.
   */
  private async noteCooling(
    rows: CoreStateStore,
    connectionId: string,
    sessions: SessionObservation[],
    actions: AlertAction[],
    touched: TouchedSessions
  ): Promise<boolean> {
    const coolingOf = async () => (await rows.cooling()).filter((c) => c.connectionId === connectionId)
    const before = await coolingOf()
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
    await rows.replaceCooling(connectionId, [...kept, ...held])
    return JSON.stringify(await coolingOf()) !== JSON.stringify(before)
  }

  private noteSuccess(connectionId: string, lastSuccessAt: number | null, now: number): void {
    if (!this.watchingSince.has(connectionId)) this.watchingSince.set(connectionId, now)
    if (lastSuccessAt !== null) this.lastSuccess.set(connectionId, Math.max(lastSuccessAt, this.lastSuccess.get(connectionId) ?? 0))
  }

  /**
   * The last successful poll this process knows of, else when it began watching. A blind alert
   * left open by an earlier run stays open until a poll succeeds: the cache's last poll counts.
   */
  private async lastSuccessAt(connectionId: string, blindOpen: boolean): Promise<number> {
    const known = this.lastSuccess.get(connectionId)
    if (known !== undefined) return known
    const since = this.watchingSince.get(connectionId) ?? this.clock()
    if (!blindOpen) return since
    return Math.min(since, (await this.store.read.sessions.newestPollAt(connectionId)) ?? 0)
  }

  /**
   * The touched sessions that are live or that open alerts belong to, with their snapshots in the
   * longest window; `judged`: their newest snapshot and viewer list, to store as counted
   * (store/alert-judged.ts); `untouched`: the sessions judged before that this judgement did not read.
   */
  private async observe(
    connectionId: string,
    now: number,
    rules: AlertRules,
    alertSessions: (string | null)[],
    touched: TouchedSessions
  ): Promise<{ sessions: SessionObservation[]; judged: JudgedMark[]; untouched: string[] }> {
    const read = this.store.read
    const windowMs = Math.max(rules.reliabilityFalling.windowMinutes, rules.viewersDropping.windowMinutes) * 60_000
    // Scores on 0–100 by this connection's own scale, and levels, as every screen has them.
    const verdicts = await this.verdicts()
    const ids = new Set((await read.sessions.liveIds(connectionId)).filter((id) => touched.has(id)))
    for (const id of alertSessions) if (id !== null) ids.add(id)
    const before = await read.coreState.judged(connectionId)
    const marks: JudgedMark[] = []
    const sessions: SessionObservation[] = []
    for (const id of ids) {
      const session = await read.sessions.row(connectionId, id)
      const samples: Sample[] = (await read.snapshots.since(connectionId, id, now - windowMs)).map((s) => ({
        at: s.takenAt,
        score: verdicts.score(connectionId, s.reliabilityScore) ?? Number.NaN,
        viewers: s.viewersCount
      }))
      const newest = samples.at(-1)?.at ?? Number.NEGATIVE_INFINITY
      const judged = before.get(id)
      const fresh = newest > (judged?.snapshotAt ?? Number.NEGATIVE_INFINITY)
      if (fresh) marks.push({ eventSessionId: id, snapshotAt: newest })
      // The sites of its newest viewer list, read only when that list is new: a list counts once.
      const listAt = (await read.viewers.listFetchedAt(connectionId, id)) ?? Number.NEGATIVE_INFINITY
      const sitesFresh = rules.siteReliability.enabled && listAt > (judged?.listAt ?? Number.NEGATIVE_INFINITY)
      if (sitesFresh) marks.push({ eventSessionId: id, listAt })
      sessions.push({
        eventSessionId: id,
        eventName: session?.event_name ?? null,
        live: session !== null && session.has_ended === 0,
        samples,
        fresh,
        muted: verdicts.override(connectionId, id).muted,
        levels: verdicts.levels(connectionId, id),
        sites: sitesFresh ? await siteSamples(read.viewers, connectionId, id, (raw) => verdicts.score(connectionId, raw)) : [],
        sitesFresh
      })
    }
    return { sessions, judged: marks, untouched: [...before.keys()].filter((id) => !touched.has(id)) }
  }
}
