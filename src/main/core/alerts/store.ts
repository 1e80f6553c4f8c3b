// Alerts in SQLite: the open ones the engine continues from (so a restart neither loses nor
// repeats an alert), every transition with its time, value and note, and the operator's
// acknowledgements and snoozes. The only place alert SQL lives.
import type { Alert, AlertRuleId, AlertSeverity, AlertState, AlertTransition, SnoozeChoice } from '../../../shared/alerts'
import { connectionPresence } from '../store/connections'
import type { Db } from '../store/db'
import { statement } from '../store/statements'
import { isoOrNull as iso } from '../store/queries/sql'
import { dismiss, key, type AlertAction, type OpenAlert, type OpenState } from './engine'

interface AlertRow {
  id: number
  rule: AlertRuleId
  connection_id: string
  connection_name: string
  event_session_id: string | null
  event_name: string | null
  state: AlertState
  severity: AlertSeverity
  summary: string
  opened_at: number
  fired_at: number | null
  resolved_at: number | null
  snoozed_until: number | null
  snooze_session_end: number
  streak: number
}

const SELECT_ALERT = `
  SELECT a.id, a.rule, a.connection_id, c.name AS connection_name, a.event_session_id, a.event_name, a.state,
    a.severity, a.summary, a.opened_at, a.fired_at, a.resolved_at, a.snoozed_until, a.snooze_session_end, a.streak
  FROM alerts a JOIN connections c ON c.id = a.connection_id`

export class AlertNotFoundError extends Error {
  /** The shared error taxonomy's kind: the app API answers it as 'not-found'. */
  readonly kind = 'not-found'
  constructor(id: number) {
    super(`there is no alert ${id}`)
    this.name = 'AlertNotFoundError'
  }
}

export function openAlerts(db: Db, connectionId: string): OpenAlert[] {
  const rows = statement(db, `${SELECT_ALERT} WHERE a.connection_id = ? AND a.resolved_at IS NULL ORDER BY a.id`).all(
    connectionId
  ) as AlertRow[]
  return rows.map((r) => ({
    id: r.id,
    rule: r.rule,
    eventSessionId: r.event_session_id,
    state: r.state as OpenState,
    severity: r.severity,
    streak: r.streak,
    snoozedUntil: r.snoozed_until,
    snoozeSessionEnd: r.snooze_session_end === 1
  }))
}

/**
 * When each alert of the connection last recovered, looking back `since` (the longest cooldown).
 * Only a recovery starts a cooldown: an alert that ended because nothing watched it any more
 * (connection disabled, not polled) or its rule was turned off must not hold back the same
 * condition once it is watched again.
 */
export function lastResolvedTimes(db: Db, connectionId: string, since: number): Map<string, number> {
  const rows = statement(
    db,
    `SELECT a.rule, a.event_session_id AS sessionId, MAX(a.resolved_at) AS at FROM alerts a
     WHERE a.connection_id = ? AND a.resolved_at >= ?
       AND EXISTS (SELECT 1 FROM alert_transitions t WHERE t.alert_id = a.id AND t.state = 'resolved' AND t.note = 'recovered')
     GROUP BY a.rule, a.event_session_id`
  ).all(connectionId, since) as { rule: AlertRuleId; sessionId: string | null; at: number }[]
  return new Map(rows.map((r) => [key(r.rule, r.sessionId), r.at]))
}

export interface Applied {
  /** Alerts that began firing (new, after pending, a snooze that ended, worse, unmuted). */
  fired: number[]
  resolved: number[]
  /** Every alert an alerts view would show differently (streak counts alone do not). */
  changed: number[]
  /** Pending alerts discarded: their condition cleared before they fired. */
  removed: number[]
}

export const nothingApplied = (): Applied => ({ fired: [], resolved: [], changed: [], removed: [] })

export const anythingApplied = (applied: Applied): boolean => applied.changed.length > 0 || applied.removed.length > 0

/** The engine's changes for one connection, in one transaction. */
export function applyActions(db: Db, connectionId: string, actions: AlertAction[], now: number): Applied {
  const applied = nothingApplied()
  db.transaction(() => {
    for (const action of actions) {
      switch (action.type) {
        case 'open': {
          const { lastInsertRowid } = statement(
            db,
            `INSERT INTO alerts (rule, connection_id, event_session_id, event_name, state, severity, summary, opened_at, fired_at, streak)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
          ).run(
            action.rule,
            connectionId,
            action.eventSessionId,
            action.eventName,
            action.state,
            action.severity,
            action.summary,
            now,
            action.state === 'firing' ? now : null,
            action.streak
          )
          const id = Number(lastInsertRowid)
          addTransition(db, id, now, action.state, action.severity, action.value, null)
          if (action.state === 'firing') applied.fired.push(id)
          applied.changed.push(id)
          break
        }
        case 'move':
          move(db, action.id, action.state, action.severity, action.value, action.note, now, action.summary)
          if (action.state === 'firing') applied.fired.push(action.id)
          if (action.state === 'resolved') applied.resolved.push(action.id)
          applied.changed.push(action.id)
          break
        case 'streak':
          statement(db, 'UPDATE alerts SET streak = ? WHERE id = ?').run(action.streak, action.id)
          break
        case 'discard':
          statement(db, 'DELETE FROM alerts WHERE id = ?').run(action.id)
          applied.removed.push(action.id)
          break
        case 'cooldown':
          break // held back by the cooldown: nothing stored (the evaluator remembers it)
      }
    }
  })()
  // A resolve after a fire in the same batch (or the reverse) is reported once, as it ends.
  applied.fired = applied.fired.filter((id) => !applied.resolved.includes(id))
  applied.changed = [...new Set(applied.changed)].filter((id) => !applied.removed.includes(id))
  return applied
}

function addTransition(
  db: Db,
  alertId: number,
  at: number,
  state: AlertState,
  severity: AlertSeverity,
  value: number | null,
  note: string | null
): void {
  statement(db, 'INSERT INTO alert_transitions (alert_id, at, state, severity, value, note) VALUES (?, ?, ?, ?, ?, ?)').run(
    alertId,
    at,
    state,
    severity,
    value,
    note
  )
}

function move(
  db: Db,
  id: number,
  state: AlertState,
  severity: AlertSeverity,
  value: number | null,
  note: string | null,
  now: number,
  summary?: string
): void {
  statement(
    db,
    `UPDATE alerts SET state = @state, severity = @severity, summary = COALESCE(@summary, summary),
       fired_at = CASE WHEN @state = 'firing' THEN COALESCE(fired_at, @now) ELSE fired_at END,
       resolved_at = CASE WHEN @state = 'resolved' THEN @now ELSE resolved_at END,
       snoozed_until = CASE WHEN @state = 'snoozed' THEN snoozed_until END,
       snooze_session_end = CASE WHEN @state = 'snoozed' THEN snooze_session_end ELSE 0 END,
       streak = CASE WHEN @state = 'resolved' THEN 0 ELSE streak END
     WHERE id = @id`
  ).run({ id, state, severity, summary: summary ?? null, now })
  addTransition(db, id, now, state, severity, value, note)
}

function row(db: Db, id: number): AlertRow {
  const found = statement(db, `${SELECT_ALERT} WHERE a.id = ?`).get(id) as AlertRow | undefined
  if (!found) throw new AlertNotFoundError(id)
  return found
}

/**
 * Ends the open alerts of every connection not in `polled` (removed, disabled, the demo once a
 * real connection takes over, or not chosen by this run): nothing watches them any more, so they
 * must not hold the tray. Each ends with the reason in words, which the alerts view shows.
 */
export function resolveUnwatched(db: Db, polled: readonly string[], now: number): Applied {
  const rows = statement(db, 'SELECT id, connection_id, severity, state FROM alerts WHERE resolved_at IS NULL').all() as {
    id: number
    connection_id: string
    severity: AlertSeverity
    state: OpenState
  }[]
  const applied = nothingApplied()
  const watched = new Set(polled)
  const realPolled = polled.some((id) => connectionPresence(db, id)?.isDemo === false)
  for (const r of rows.filter((row) => !watched.has(row.connection_id))) {
    const one = applyActions(db, r.connection_id, [dismiss(r, unwatchedReason(db, r.connection_id, realPolled))], now)
    applied.resolved.push(...one.resolved)
    applied.changed.push(...one.changed)
    applied.removed.push(...one.removed)
  }
  return applied
}

/** Why a connection is no longer polled, in words an operator can check. */
export function unwatchedReason(db: Db, connectionId: string, realPolled: boolean): string {
  const presence = connectionPresence(db, connectionId)
  if (!presence) return 'connection removed'
  if (presence.isDemo) return realPolled ? 'demo data left behind: a real connection is polled now' : 'demo data no longer polled'
  if (!presence.enabled) return 'connection disabled: no longer polled'
  return 'connection not polled by this run'
}

/** Acknowledged: the operator knows; it stays until it resolves. */
export function acknowledgeAlert(db: Db, id: number, note: string | null, now: number): void {
  const alert = row(db, id)
  if (alert.state === 'resolved') throw new Error(`alert ${id} has already resolved`)
  if (alert.state === 'pending') throw new Error(`alert ${id} has not fired yet`)
  if (alert.state === 'acknowledged' && !note) return
  db.transaction(() => move(db, id, 'acknowledged', alert.severity, null, note, now))()
}

const SNOOZE_MS: Record<Exclude<SnoozeChoice, 'session-end'>, number> = { '15m': 15 * 60_000, '1h': 60 * 60_000, '4h': 4 * 60 * 60_000 }

/** Snoozed: quiet for a while, or until its session ends (when it resolves anyway). */
export function snoozeAlert(db: Db, id: number, choice: SnoozeChoice, now: number): void {
  const alert = row(db, id)
  if (alert.state === 'resolved') throw new Error(`alert ${id} has already resolved`)
  if (alert.state === 'pending') throw new Error(`alert ${id} has not fired yet`)
  if (alert.state === 'muted') throw new Error(`alert ${id} belongs to a muted session`)
  if (choice === 'session-end' && alert.event_session_id === null) {
    throw new Error(`alert ${id} is about the connection, not a session: snooze it for a time instead`)
  }
  const until = choice === 'session-end' ? null : now + SNOOZE_MS[choice]
  db.transaction(() => {
    move(db, id, 'snoozed', alert.severity, null, choice === 'session-end' ? 'until the session ends' : `for ${choice}`, now)
    statement(db, 'UPDATE alerts SET snoozed_until = ?, snooze_session_end = ? WHERE id = ?').run(until, until === null ? 1 : 0, id)
  })()
}

function transitions(db: Db, alertId: number): AlertTransition[] {
  const rows = statement(
    db,
    'SELECT at, state, severity, value, note FROM alert_transitions WHERE alert_id = ? ORDER BY id'
  ).all(alertId) as { at: number; state: AlertState; severity: AlertSeverity; value: number | null; note: string | null }[]
  return rows.map((t) => ({ ...t, at: new Date(t.at).toISOString() }))
}

function toAlert(db: Db, r: AlertRow): Alert {
  const list = transitions(db, r.id)
  const ended = list.findLast((t) => t.state === 'resolved')
  return {
    id: r.id,
    rule: r.rule,
    connectionId: r.connection_id,
    connectionName: r.connection_name,
    eventSessionId: r.event_session_id,
    eventName: r.event_name,
    state: r.state,
    severity: r.severity,
    summary: r.summary,
    firedAt: iso(r.fired_at),
    resolvedAt: iso(r.resolved_at),
    snoozedUntil: iso(r.snoozed_until),
    endReason: r.state === 'resolved' ? (ended?.note ?? 'resolved') : null,
    transitions: list
  }
}

export function getAlert(db: Db, id: number): Alert {
  return toAlert(db, row(db, id))
}

export interface AlertQuery {
  connectionId?: string
  eventSessionId?: string
  historyHours?: number
  limit?: number
}

const OPEN_ORDER = `CASE a.state WHEN 'firing' THEN 0 WHEN 'acknowledged' THEN 1 WHEN 'snoozed' THEN 2 WHEN 'muted' THEN 3 ELSE 4 END`

/** Open alerts first (firing, acknowledged, snoozed, muted, pending), then recent history, newest first. */
export function listAlerts(db: Db, query: AlertQuery, now: number): Alert[] {
  const since = now - (query.historyHours ?? 24) * 3_600_000
  const rows = statement(
    db,
    `${SELECT_ALERT}
     WHERE (@connectionId IS NULL OR a.connection_id = @connectionId)
       AND (@eventSessionId IS NULL OR a.event_session_id = @eventSessionId)
       AND (a.resolved_at IS NULL OR a.resolved_at >= @since)
     ORDER BY a.resolved_at IS NOT NULL, ${OPEN_ORDER}, a.resolved_at DESC, COALESCE(a.fired_at, a.opened_at) DESC, a.id DESC
     LIMIT @limit`
  ).all({
    connectionId: query.connectionId ?? null,
    eventSessionId: query.eventSessionId ?? null,
    since,
    limit: query.limit ?? 200
  }) as AlertRow[]
  return rows.map((r) => toAlert(db, r))
}

/** Every alert ever kept, oldest first, for `eventwatch export alerts`. */
export function alertHistory(db: Db): Alert[] {
  const rows = statement(db, `${SELECT_ALERT} ORDER BY a.opened_at, a.id`).all() as AlertRow[]
  return rows.map((r) => toAlert(db, r))
}

/** Open alerts counted by state and severity: what the situation is made of (index alerts_by_resolved). */
export function openAlertCounts(db: Db): { state: OpenState; severity: AlertSeverity; n: number }[] {
  return statement(
    db,
    'SELECT state, severity, COUNT(*) AS n FROM alerts WHERE resolved_at IS NULL GROUP BY state, severity'
  ).all() as { state: OpenState; severity: AlertSeverity; n: number }[]
}

/** Connections with an open "cannot reach the service" alert, with their names. */
export function blindConnections(db: Db): { connectionId: string; connectionName: string }[] {
  return statement(
    db,
    `SELECT DISTINCT a.connection_id AS connectionId, c.name AS connectionName FROM alerts a JOIN connections c ON c.id = a.connection_id
     WHERE a.rule = 'monitor-blind' AND a.resolved_at IS NULL ORDER BY c.name`
  ).all() as { connectionId: string; connectionName: string }[]
}

/** An open alert about one session, as its row shows it. */
export interface OpenSessionAlert {
  id: number
  rule: AlertRuleId
  connectionId: string
  eventSessionId: string
  state: OpenState
  severity: AlertSeverity
  summary: string
}

/** Every open alert about a session (not the connection-wide ones). */
export function openSessionAlerts(db: Db): OpenSessionAlert[] {
  return statement(
    db,
    `SELECT id, rule, connection_id AS connectionId, event_session_id AS eventSessionId, state, severity, summary
     FROM alerts WHERE resolved_at IS NULL AND event_session_id IS NOT NULL ORDER BY id`
  ).all() as OpenSessionAlert[]
}

/** Every alert of a connection, open or not: what goes when the connection is removed. */
export function alertIdsOf(db: Db, connectionId: string): number[] {
  return (statement(db, 'SELECT id FROM alerts WHERE connection_id = ?').all(connectionId) as { id: number }[]).map((r) => r.id)
}

/** The alerts with these ids, as the alerts view shows them (ids that are gone are skipped). */
export function getAlerts(db: Db, ids: readonly number[]): Alert[] {
  return ids.flatMap((id) => {
    const found = statement(db, `${SELECT_ALERT} WHERE a.id = ?`).get(id) as AlertRow | undefined
    return found ? [toAlert(db, found)] : []
  })
}

export function notificationsPausedUntil(db: Db, now: number): number | null {
  const found = statement(db, 'SELECT until FROM notification_pause WHERE id = 1').get() as { until: number } | undefined
  return found && found.until > now ? found.until : null
}

/** Pauses notifications for `minutes` from now; 0 lifts the pause. */
export function pauseNotifications(db: Db, minutes: number, now: number): void {
  if (minutes <= 0) statement(db, 'DELETE FROM notification_pause WHERE id = 1').run()
  else {
    statement(
      db,
      'INSERT INTO notification_pause (id, until) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET until = excluded.until'
    ).run(now + minutes * 60_000)
  }
}
