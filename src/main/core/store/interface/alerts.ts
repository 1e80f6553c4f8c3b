// The alerts concern of the Store: open alerts the engine continues from, their transitions, the
// operator's acknowledgements and snoozes, and the notification pause. The rules stay in
// core/alerts/; this is only what they read and write. Inside a unit of work every read here is
// of the unit's own state (on SQLite the unit holds the write lock from its start).
import type { AlertEndKind } from '../../../../shared/alert-end'
import type { Alert, AlertSeverity, AlertState, SnoozeChoice } from '../../../../shared/alerts'
import type { AlertQuery, insertAlert, OpenAlert, OpenSessionAlert, OpenSiteAlert, OpenState, unresolvedAlerts } from '../alerts'
import type { StoredOverride } from '../alert-overrides'

export type { AlertQuery, OpenAlert, OpenSessionAlert, OpenSiteAlert, OpenState, StoredOverride }

/** An alert not yet resolved, of any connection. */
export type UnresolvedAlert = ReturnType<typeof unresolvedAlerts>[number]

/** A new alert (pending or firing) as the rules open it, with its first transition's value. */
export type NewAlert = Parameters<typeof insertAlert>[2]

export interface AlertMove {
  state: AlertState
  severity: AlertSeverity
  value: number | null
  note: string | null
  summary?: string
  endKind?: AlertEndKind
}

export interface AlertReads {
  /** The connection's alerts not yet resolved, oldest first. */
  open(connectionId: string): Promise<OpenAlert[]>
  /** When each alert of the connection last cleared on its own, looking back to `since` (by alertKey). */
  lastResolved(connectionId: string, since: number): Promise<Map<string, number>>
  /** Throws AlertNotFoundError (kind 'not-found') for an id the cache does not hold. */
  get(id: number): Promise<Alert>
  /** Open alerts first, then history newest first, at most `query.limit`. */
  list(query: AlertQuery, now: number): Promise<Alert[]>
  openCounts(): Promise<{ state: OpenState; severity: AlertSeverity; n: number }[]>
  openAboutSessions(): Promise<OpenSessionAlert[]>
  /** The session's site alerts not resolved and past pending, by site. */
  openAboutSites(connectionId: string, eventSessionId: string): Promise<Map<string, OpenSiteAlert>>
  /** Until when notifications are paused, or null when they are not. */
  pausedUntil(now: number): Promise<number | null>
  /** Every alert not yet resolved, across connections. */
  unresolved(): Promise<UnresolvedAlert[]>
  /** The alerts with these ids, as the alerts view shows them (ids that are gone are skipped). */
  many(ids: readonly number[]): Promise<Alert[]>
  /** Every alert kept, with its transitions, a page at a time: oldest opened first, at most
   *  `limit` (MAX_PAGE at most) from `offset` (`eventwatch export alerts`). */
  historyPage(query: { offset: number; limit: number }): Promise<Alert[]>
  /** The ids of every alert of the connection, resolved too (they go when it is removed). */
  idsOf(connectionId: string): Promise<number[]>
  /** The connections whose monitor-blind alert is open, by name. */
  blind(): Promise<{ connectionId: string; connectionName: string }[]>
  /** The alerts firing critical, not acknowledged: what repeats. */
  firingCriticals(): Promise<{ id: number; firedAt: number }[]>
  /** The connection's per-session overrides (muted, own levels), by session id. */
  overrides(connectionId: string): Promise<Map<string, StoredOverride>>
}

export interface AlertStore extends AlertReads {
  /** A new alert with its first transition; its id. */
  insert(connectionId: string, alert: NewAlert, now: number): Promise<number>
  /** A new state for the alert, with its transition. */
  move(id: number, change: AlertMove, now: number): Promise<void>
  setStreak(id: number, streak: number): Promise<void>
  /** A pending alert that never fired leaves no trace. */
  discard(id: number): Promise<void>
  /** Throws for an alert that is pending or resolved; `actor` signs the transition. */
  acknowledge(id: number, note: string | null, actor: string | null, now: number): Promise<void>
  snooze(id: number, choice: SnoozeChoice, actor: string | null, now: number): Promise<void>
  /** Pauses notifications for `minutes`; 0 lifts the pause. */
  pause(minutes: number, now: number): Promise<void>
  /** A session's override; one that changes nothing (not muted, no levels) is deleted. */
  setOverride(connectionId: string, eventSessionId: string, next: StoredOverride): Promise<void>
}
