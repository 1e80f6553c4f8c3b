// The alerts as the screens, the situation and the repeats read them, on PostgreSQL:
// store/alerts.ts's reads in PostgreSQL's dialect. An alert's transitions are read for a whole
// list in one statement (not one per alert: every call is a round trip here).
import { COOLDOWN_END_KINDS } from '../../../../shared/alert-end'
import type { Alert, AlertRuleId, AlertSeverity, AlertState, AlertTransition } from '../../../../shared/alerts'
import { namedSiteSummary } from '../../../../shared/site-label'
import { alertKey, AlertNotFoundError, alertOfRow, type ShownAlertRow as AlertRow } from '../alerts'
import type { AlertReads, OpenSessionAlert, OpenSiteAlert, OpenState, StoredOverride, UnresolvedAlert } from '../interface/alerts'
import { pageBounds } from '../queries/sql'
import { all, one, type Sql } from './sql'

/** A site alert's site name as it is now; a site that is no number has none (the CASE keeps the
 *  cast from ever seeing it: PostgreSQL's cast, unlike SQLite's, refuses '12abc'). */
const SITE_NAME_OF = (alias: string): string =>
  `(SELECT sn.name FROM site_names sn WHERE sn.code = CASE WHEN ${alias}.site ~ '^[0-9]+(\\.[0-9]+)?$' THEN ${alias}.site::double precision END)`

export const SELECT_ALERT = `
  SELECT a.id, a.rule, a.connection_id, c.name AS connection_name, a.event_session_id, a.event_name, a.site,
    ${SITE_NAME_OF('a')} AS site_name,
    a.state, a.severity, a.summary, a.opened_at, a.fired_at, a.resolved_at, a.snoozed_until, a.end_kind
  FROM alerts a JOIN connections c ON c.id = a.connection_id`

const OPEN_ORDER = `CASE a.state WHEN 'firing' THEN 0 WHEN 'acknowledged' THEN 1 WHEN 'snoozed' THEN 2 WHEN 'muted' THEN 3 ELSE 4 END`

/** The alerts of `rows` with their transitions, in the rows' order. */
async function withTransitions(sql: Sql, rows: AlertRow[]): Promise<Alert[]> {
  if (rows.length === 0) return []
  const found = await all<{ alert_id: number; at: number; state: AlertState; severity: AlertSeverity; value: number | null; note: string | null; by: string | null }>(
    sql,
    'SELECT alert_id, at, state, severity, value, note, actor AS by FROM alert_transitions WHERE alert_id = ANY($1::bigint[]) ORDER BY alert_id, id',
    [rows.map((r) => r.id)]
  )
  const byAlert = new Map<number, AlertTransition[]>()
  for (const { alert_id, by, ...t } of found) {
    // The engine's own transitions have no author: they carry no `by` at all.
    const transition = { ...t, at: new Date(t.at).toISOString(), ...(by === null ? {} : { by }) }
    byAlert.set(alert_id, [...(byAlert.get(alert_id) ?? []), transition])
  }
  return rows.map((r) => alertOfRow(r, byAlert.get(r.id) ?? []))
}

/** The alert's row, locked when `lock` (an operator's change reads it to move it on). */
export async function alertRow(sql: Sql, id: number, lock: boolean): Promise<AlertRow> {
  const found = await one<AlertRow>(sql, `${SELECT_ALERT} WHERE a.id = $1${lock ? ' FOR UPDATE OF a' : ''}`, [id])
  if (!found) throw new AlertNotFoundError(id)
  return found
}

export function alertReads(read: Sql): Omit<AlertReads, 'open'> {
  return {
    async lastResolved(connectionId, since) {
      // Only an end of the condition itself starts a cooldown (store/alerts.ts says why).
      const rows = await all<{ rule: AlertRuleId; session_id: string | null; site: string | null; at: number }>(
        read,
        `SELECT rule, event_session_id AS session_id, site, max(resolved_at) AS at FROM alerts
         WHERE connection_id = $1 AND resolved_at >= $2 AND end_kind = ANY($3::text[])
         GROUP BY rule, event_session_id, site`,
        [connectionId, since, COOLDOWN_END_KINDS]
      )
      return new Map(rows.map((r) => [alertKey(r.rule, r.session_id, r.site), r.at]))
    },
    get: async (id) => (await withTransitions(read, [await alertRow(read, id, false)]))[0]!,
    async list(query, now) {
      const since = now - (query.historyHours ?? 24) * 3_600_000
      const rows = await all<AlertRow>(
        read,
        `${SELECT_ALERT}
         WHERE ($1::text IS NULL OR a.connection_id = $1) AND ($2::text IS NULL OR a.event_session_id = $2)
           AND (a.resolved_at IS NULL OR a.resolved_at >= $3)
         ORDER BY a.resolved_at IS NOT NULL, ${OPEN_ORDER}, a.resolved_at DESC, COALESCE(a.fired_at, a.opened_at) DESC, a.id DESC
         LIMIT $4`,
        [query.connectionId ?? null, query.eventSessionId ?? null, since, query.limit ?? 200]
      )
      return withTransitions(read, rows)
    },
    openCounts: () =>
      all<{ state: OpenState; severity: AlertSeverity; n: number }>(
        read,
        'SELECT state, severity, count(*) AS n FROM alerts WHERE resolved_at IS NULL GROUP BY state, severity'
      ),
    async openAboutSessions() {
      const rows = await all<OpenSessionAlert>(
        read,
        `SELECT a.id, a.rule, a.connection_id AS "connectionId", a.event_session_id AS "eventSessionId", a.site,
           ${SITE_NAME_OF('a')} AS "siteName", a.state, a.severity, a.summary,
           (SELECT t.value FROM alert_transitions t WHERE t.alert_id = a.id AND t.value IS NOT NULL ORDER BY t.id DESC LIMIT 1) AS value
         FROM alerts a WHERE a.resolved_at IS NULL AND a.event_session_id IS NOT NULL ORDER BY a.id`
      )
      return rows.map((r) => ({ ...r, summary: namedSiteSummary(r.summary, r.site, r.siteName) }))
    },
    async openAboutSites(connectionId, eventSessionId) {
      const rows = await all<OpenSiteAlert & { site: string }>(
        read,
        `SELECT id, site, state, severity, summary FROM alerts
         WHERE connection_id = $1 AND event_session_id = $2 AND rule = 'site-reliability' AND resolved_at IS NULL AND state <> 'pending'`,
        [connectionId, eventSessionId]
      )
      return new Map(rows.map(({ site, ...alert }) => [site, alert]))
    },
    async pausedUntil(now) {
      const found = await one<{ until: number }>(read, 'SELECT until FROM notification_pause WHERE id = 1')
      return found && found.until > now ? found.until : null
    },
    unresolved: () =>
      all<UnresolvedAlert>(read, 'SELECT id, connection_id AS "connectionId", severity, state FROM alerts WHERE resolved_at IS NULL'),
    async many(ids) {
      // In the order asked; ids that are gone are skipped.
      const rows = await all<AlertRow>(read, `${SELECT_ALERT} WHERE a.id = ANY($1::bigint[])`, [ids])
      const byId = new Map(rows.map((r) => [r.id, r]))
      return withTransitions(read, ids.flatMap((id) => byId.get(id) ?? []))
    },
    async historyPage(q) {
      const { limit, offset } = pageBounds(q.limit, q.offset)
      return withTransitions(read, await all<AlertRow>(read, `${SELECT_ALERT} ORDER BY a.opened_at, a.id LIMIT $1 OFFSET $2`, [limit, offset]))
    },
    idsOf: async (connectionId) => (await all<{ id: number }>(read, 'SELECT id FROM alerts WHERE connection_id = $1', [connectionId])).map((r) => r.id),
    blind: () =>
      all<{ connectionId: string; connectionName: string }>(
        read,
        `SELECT DISTINCT a.connection_id AS "connectionId", c.name AS "connectionName" FROM alerts a JOIN connections c ON c.id = a.connection_id
         WHERE a.rule = 'monitor-blind' AND a.resolved_at IS NULL ORDER BY c.name`
      ),
    firingCriticals: () =>
      all<{ id: number; firedAt: number }>(
        read,
        `SELECT id, fired_at AS "firedAt" FROM alerts
         WHERE resolved_at IS NULL AND state = 'firing' AND severity = 'critical' AND fired_at IS NOT NULL`
      ),
    async overrides(connectionId) {
      const rows = await all<{ event_session_id: string; muted: boolean; warning: number | null; critical: number | null }>(
        read,
        'SELECT event_session_id, muted, warning, critical FROM alert_overrides WHERE connection_id = $1',
        [connectionId]
      )
      return new Map<string, StoredOverride>(
        rows.map((r) => [
          r.event_session_id,
          { muted: r.muted, thresholds: r.warning === null || r.critical === null ? null : { warning: r.warning, critical: r.critical } }
        ])
      )
    }
  }
}
