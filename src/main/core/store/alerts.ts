// Alerts in SQLite (tables alerts, alert_transitions, notification_pause): the open ones the
// engine continues from (so a restart neither loses nor repeats an alert), every transition with
// its time, value and note, and the operator's acknowledgements, snoozes and pause. The only
// place their SQL lives; the rules are in core/alerts/.
import { COOLDOWN_END_KINDS, type AlertEndKind } from '../../../shared/alert-end'
import type { Alert, AlertRuleId, AlertSeverity, AlertState, AlertTransition, SnoozeChoice } from '../../../shared/alerts'
import { namedSiteSummary } from '../../../shared/site-label'
import type { Db } from './db'
import { statement } from './statements'
import { isoOrNull as iso } from './queries/sql'

export type OpenState = Exclude<AlertState, 'resolved'>

/** An alert not yet resolved, as the engine continues from it. */
export interface OpenAlert {
  id: number
  rule: AlertRuleId
  eventSessionId: string | null
  /** The site a site alert is about; null for the others. */
  site: string | null
  state: OpenState
  severity: AlertSeverity
  streak: number
  snoozedUntil: number | null
  snoozeSessionEnd: boolean
  /** While muted: the state it had before (acknowledged, snoozed or firing), for the unmute. */
  stateBeforeMute: OpenState | null
}

/** One alert's identity: its rule, its session (none for a connection-wide one) and its site (a site alert's). */
export const alertKey = (rule: AlertRuleId, eventSessionId: string | null, site: string | null = null): string =>
  `${rule}\u001f${eventSessionId ?? ''}\u001f${site ?? ''}`

export interface AlertRow {
  id: number
  rule: AlertRuleId
  connection_id: string
  connection_name: string
  event_session_id: string | null
  event_name: string | null
  site: string | null
  site_name: string | null
  state: AlertState
  severity: AlertSeverity
  summary: string
  opened_at: number
  fired_at: number | null
  resolved_at: number | null
  snoozed_until: number | null
  snooze_session_end: number
  streak: number
  end_kind: AlertEndKind | null
}

/** A site alert's site name, as it is now (site_names): a name given after the alert fired counts. */
const SITE_NAME_OF = (alias: string): string =>
  `(SELECT sn.name FROM site_names sn WHERE ${alias}.site GLOB '[0-9]*' AND sn.code = CAST(${alias}.site AS REAL))`

const SELECT_ALERT = `
  SELECT a.id, a.rule, a.connection_id, c.name AS connection_name, a.event_session_id, a.event_name, a.site,
    ${SITE_NAME_OF('a')} AS site_name,
    a.state, a.severity, a.summary, a.opened_at, a.fired_at, a.resolved_at, a.snoozed_until, a.snooze_session_end, a.streak, a.end_kind
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
  const rows = statement(
    db,
    `SELECT q.*, CASE WHEN q.state = 'muted' THEN (
         SELECT t.state FROM alert_transitions t WHERE t.alert_id = q.id AND t.state <> 'muted' ORDER BY t.id DESC LIMIT 1
       ) END AS state_before_mute
     FROM (${SELECT_ALERT} WHERE a.connection_id = ? AND a.resolved_at IS NULL) q ORDER BY q.id`
  ).all(connectionId) as (AlertRow & { state_before_mute: OpenState | null })[]
  return rows.map((r) => ({
    stateBeforeMute: r.state_before_mute,
    id: r.id,
    rule: r.rule,
    eventSessionId: r.event_session_id,
    site: r.site,
    state: r.state as OpenState,
    severity: r.severity,
    streak: r.streak,
    snoozedUntil: r.snoozed_until,
    snoozeSessionEnd: r.snooze_session_end === 1
  }))
}

/**
 * When each alert of the connection last cleared, looking back `since` (the longest cooldown).
 * Only an end of the condition itself (recovered, or no longer applying) starts a cooldown: an
 * alert that ended because nothing watched it any more (connection disabled, not polled) or its
 * rule was turned off must not hold back the same condition once it is watched again.
 */
export function lastResolvedTimes(db: Db, connectionId: string, since: number): Map<string, number> {
  const rows = statement(
    db,
    `SELECT a.rule, a.event_session_id AS sessionId, a.site, MAX(a.resolved_at) AS at FROM alerts a
     WHERE a.connection_id = ? AND a.resolved_at >= ? AND a.end_kind IN (SELECT value FROM json_each(?))
     GROUP BY a.rule, a.event_session_id, a.site`
  ).all(connectionId, since, JSON.stringify(COOLDOWN_END_KINDS)) as { rule: AlertRuleId; sessionId: string | null; site: string | null; at: number }[]
  return new Map(rows.map((r) => [alertKey(r.rule, r.sessionId, r.site), r.at]))
}

/** A new alert (pending or firing) with its first transition; its id. */
export function insertAlert(
  db: Db,
  connectionId: string,
  a: {
    rule: AlertRuleId
    eventSessionId: string | null
    eventName: string | null
    site?: string | null
    state: 'pending' | 'firing'
    severity: AlertSeverity
    summary: string
    value: number
    streak: number
  },
  now: number
): number {
  const { lastInsertRowid } = statement(
    db,
    `INSERT INTO alerts (rule, connection_id, event_session_id, event_name, site, state, severity, summary, opened_at, fired_at, streak)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  ).run(a.rule, connectionId, a.eventSessionId, a.eventName, a.site ?? null, a.state, a.severity, a.summary, now, a.state === 'firing' ? now : null, a.streak)
  const id = Number(lastInsertRowid)
  addTransition(db, id, now, a.state, a.severity, a.value, null)
  return id
}

export function setAlertStreak(db: Db, id: number, streak: number): void {
  statement(db, 'UPDATE alerts SET streak = ? WHERE id = ?').run(streak, id)
}

/** A pending alert that never fired leaves no trace. */
export function deleteAlert(db: Db, id: number): void {
  statement(db, 'DELETE FROM alerts WHERE id = ?').run(id)
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

/** A new state (and severity, value, note) for an alert, with its transition; a resolve keeps its kind of end. */
export function moveAlert(
  db: Db,
  id: number,
  state: AlertState,
  severity: AlertSeverity,
  value: number | null,
  note: string | null,
  now: number,
  summary?: string,
  endKind?: AlertEndKind
): void {
  statement(
    db,
    `UPDATE alerts SET state = @state, severity = @severity, summary = COALESCE(@summary, summary),
       fired_at = CASE WHEN @state = 'firing' THEN COALESCE(fired_at, @now) ELSE fired_at END,
       resolved_at = CASE WHEN @state = 'resolved' THEN @now ELSE resolved_at END,
       -- A mute keeps the snooze, so that the unmute can give it back.
       snoozed_until = CASE WHEN @state IN ('snoozed', 'muted') THEN snoozed_until END,
       snooze_session_end = CASE WHEN @state IN ('snoozed', 'muted') THEN snooze_session_end ELSE 0 END,
       streak = CASE WHEN @state = 'resolved' THEN 0 ELSE streak END,
       end_kind = CASE WHEN @state = 'resolved' THEN @endKind END
     WHERE id = @id`
  ).run({ id, state, severity, summary: summary ?? null, now, endKind: endKind ?? null })
  addTransition(db, id, now, state, severity, value, note)
}

function row(db: Db, id: number): AlertRow {
  const found = statement(db, `${SELECT_ALERT} WHERE a.id = ?`).get(id) as AlertRow | undefined
  if (!found) throw new AlertNotFoundError(id)
  return found
}

/** Every alert not yet resolved, of every connection. */
export function unresolvedAlerts(db: Db): { id: number; connectionId: string; severity: AlertSeverity; state: OpenState }[] {
  return statement(
    db,
    'SELECT id, connection_id AS connectionId, severity, state FROM alerts WHERE resolved_at IS NULL'
  ).all() as { id: number; connectionId: string; severity: AlertSeverity; state: OpenState }[]
}

/** The author of the alert's newest transition (the one an operator's action just added). */
function signLastTransition(db: Db, id: number, actor: string | null): void {
  if (actor === null) return
  statement(db, 'UPDATE alert_transitions SET actor = ? WHERE id = (SELECT MAX(id) FROM alert_transitions WHERE alert_id = ?)').run(actor, id)
}

/** Acknowledged: the operator knows; it stays until it resolves. */
export function acknowledgeAlert(db: Db, id: number, note: string | null, now: number, actor: string | null = null): void {
  const alert = row(db, id)
  if (alert.state === 'resolved') throw new Error(`alert ${id} has already resolved`)
  if (alert.state === 'pending') throw new Error(`alert ${id} has not fired yet`)
  if (alert.state === 'acknowledged' && !note) return
  db.transaction(() => {
    moveAlert(db, id, 'acknowledged', alert.severity, null, note, now)
    signLastTransition(db, id, actor)
  })()
}

/** How long each timed snooze lasts. */
export const SNOOZE_MS: Record<Exclude<SnoozeChoice, 'session-end'>, number> = { '15m': 15 * 60_000, '30m': 30 * 60_000, '1h': 60 * 60_000, '4h': 4 * 60 * 60_000 }

/** Throws, in words, when the alert cannot be snoozed so (resolved, pending, muted, or about the
 *  connection while the snooze lasts until a session ends). */
export function refuseSnooze(alert: Pick<AlertRow, 'id' | 'state' | 'event_session_id'>, choice: SnoozeChoice): void {
  const id = alert.id
  if (alert.state === 'resolved') throw new Error(`alert ${id} has already resolved`)
  if (alert.state === 'pending') throw new Error(`alert ${id} has not fired yet`)
  if (alert.state === 'muted') throw new Error(`alert ${id} belongs to a muted session`)
  if (choice === 'session-end' && alert.event_session_id === null) {
    throw new Error(`alert ${id} is about the connection, not a session: snooze it for a time instead`)
  }
}

/** Snoozed: quiet for a while, or until its session ends (when it resolves anyway). */
export function snoozeAlert(db: Db, id: number, choice: SnoozeChoice, now: number, actor: string | null = null): void {
  const alert = row(db, id)
  refuseSnooze(alert, choice)
  const until = choice === 'session-end' ? null : now + SNOOZE_MS[choice]
  db.transaction(() => {
    moveAlert(db, id, 'snoozed', alert.severity, null, choice === 'session-end' ? 'until the session ends' : `for ${choice}`, now)
    statement(db, 'UPDATE alerts SET snoozed_until = ?, snooze_session_end = ? WHERE id = ?').run(until, until === null ? 1 : 0, id)
    signLastTransition(db, id, actor)
  })()
}

function transitions(db: Db, alertId: number): AlertTransition[] {
  const rows = statement(
    db,
    'SELECT at, state, severity, value, note, actor AS "by" FROM alert_transitions WHERE alert_id = ? ORDER BY id'
  ).all(alertId) as { at: number; state: AlertState; severity: AlertSeverity; value: number | null; note: string | null; by: string | null }[]
  // The engine's own transitions have no author: they carry no `by` at all.
  return rows.map(({ by, ...t }) => ({ ...t, at: new Date(t.at).toISOString(), ...(by === null ? {} : { by }) }))
}

function toAlert(db: Db, r: AlertRow): Alert {
  return alertOfRow(r, transitions(db, r.id))
}

/** The columns an alert is shown from (either backend's row). */
export type ShownAlertRow = Omit<AlertRow, 'snooze_session_end' | 'streak'>

/** An alert as the alerts view shows it, from its row and its transitions (oldest first). */
export function alertOfRow(r: ShownAlertRow, list: AlertTransition[]): Alert {
  const ended = list.findLast((t) => t.state === 'resolved')
  return {
    id: r.id,
    rule: r.rule,
    connectionId: r.connection_id,
    connectionName: r.connection_name,
    eventSessionId: r.event_session_id,
    eventName: r.event_name,
    site: r.site,
    siteName: r.site_name,
    state: r.state,
    severity: r.severity,
    summary: namedSiteSummary(r.summary, r.site, r.site_name),
    firedAt: iso(r.fired_at),
    resolvedAt: iso(r.resolved_at),
    snoozedUntil: iso(r.snoozed_until),
    endReason: r.state === 'resolved' ? (ended?.note ?? 'resolved') : null,
    endKind: r.state === 'resolved' ? r.end_kind : null,
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
export function alertHistory(db: Db, window?: { offset: number; limit: number }): Alert[] {
  const rows = window
    ? (statement(db, `${SELECT_ALERT} ORDER BY a.opened_at, a.id LIMIT ? OFFSET ?`).all(window.limit, window.offset) as AlertRow[])
    : (statement(db, `${SELECT_ALERT} ORDER BY a.opened_at, a.id`).all() as AlertRow[])
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
  /** A site alert's site (its code) and that site's name now; null for the others. */
  site: string | null
  siteName: string | null
  state: OpenState
  severity: AlertSeverity
  /** A site alert's under its site's name now (shared/site-label.ts). */
  summary: string
  /** The value its newest transition carried (a site alert's: the site's reliability then). */
  value: number | null
}

/** Every open alert about a session (not the connection-wide ones). */
export function openSessionAlerts(db: Db): OpenSessionAlert[] {
  const rows = statement(
    db,
    `SELECT a.id, a.rule, a.connection_id AS connectionId, a.event_session_id AS eventSessionId, a.site,
       ${SITE_NAME_OF('a')} AS siteName, a.state, a.severity, a.summary,
       (SELECT t.value FROM alert_transitions t WHERE t.alert_id = a.id AND t.value IS NOT NULL ORDER BY t.id DESC LIMIT 1) AS value
     FROM alerts a WHERE a.resolved_at IS NULL AND a.event_session_id IS NOT NULL ORDER BY a.id`
  ).all() as OpenSessionAlert[]
  return rows.map((r) => ({ ...r, summary: namedSiteSummary(r.summary, r.site, r.siteName) }))
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

/** A site alert of a session, open and past pending. */
export interface OpenSiteAlert {
  id: number
  state: string
  severity: AlertSeverity
  summary: string
}

/** A session's open site alerts, by site: the drill-down's site breakdown flags those sites. */
export function openSiteAlerts(db: Db, connectionId: string, eventSessionId: string): Map<string, OpenSiteAlert> {
  const rows = statement(
    db,
    `SELECT id, site, state, severity, summary FROM alerts
     WHERE connection_id = ? AND event_session_id = ? AND rule = 'site-reliability' AND resolved_at IS NULL AND state <> 'pending'`
  ).all(connectionId, eventSessionId) as (OpenSiteAlert & { site: string })[]
  return new Map(rows.map(({ site, ...alert }) => [site, alert]))
}

/** Alerts firing critical, unacknowledged (and not snoozed or muted), with when they fired. */
export function firingCriticals(db: Db): { id: number; firedAt: number }[] {
  return statement(
    db,
    `SELECT id, fired_at AS firedAt FROM alerts
     WHERE resolved_at IS NULL AND state = 'firing' AND severity = 'critical' AND fired_at IS NOT NULL`
  ).all() as { id: number; firedAt: number }[]
}
