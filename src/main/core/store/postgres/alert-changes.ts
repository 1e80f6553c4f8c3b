// What writes alerts on PostgreSQL: the engine's moves (insert, move, streak, discard) and an
// operator's (acknowledge, snooze, pause, a session's override), as store/alerts.ts and
// alert-overrides.ts write them. An operator's change locks the alert it reads before moving it,
// so an evaluation on another server cannot move it in between.
import { refuseSnooze, SNOOZE_MS } from '../alerts'
import type { AlertMove, AlertStore } from '../interface/alerts'
import { alertRow } from './alert-reads'
import { one, type Sql } from './sql'

async function addTransition(sql: Sql, alertId: number, at: number, change: Pick<AlertMove, 'state' | 'severity' | 'value' | 'note'>): Promise<void> {
  await sql('INSERT INTO alert_transitions (alert_id, at, state, severity, value, note) VALUES ($1, $2, $3, $4, $5, $6)', [
    alertId,
    at,
    change.state,
    change.severity,
    change.value,
    change.note
  ])
}

/** A new state for the alert, with its transition; a resolve keeps its kind of end. */
async function move(sql: Sql, id: number, change: AlertMove, now: number): Promise<void> {
  await sql(
    `UPDATE alerts SET state = $2, severity = $3, summary = COALESCE($4, summary),
       fired_at = CASE WHEN $2 = 'firing' THEN COALESCE(fired_at, $5) ELSE fired_at END,
       resolved_at = CASE WHEN $2 = 'resolved' THEN $5 ELSE resolved_at END,
       -- A mute keeps the snooze, so that the unmute can give it back.
       snoozed_until = CASE WHEN $2 IN ('snoozed', 'muted') THEN snoozed_until END,
       snooze_session_end = CASE WHEN $2 IN ('snoozed', 'muted') THEN snooze_session_end ELSE false END,
       streak = CASE WHEN $2 = 'resolved' THEN 0 ELSE streak END,
       end_kind = CASE WHEN $2 = 'resolved' THEN $6 END
     WHERE id = $1`,
    [id, change.state, change.severity, change.summary ?? null, now, change.endKind ?? null]
  )
  await addTransition(sql, id, now, change)
}

/** The author of the alert's newest transition (the one an operator's action just added). */
async function sign(sql: Sql, id: number, actor: string | null): Promise<void> {
  if (actor === null) return
  await sql('UPDATE alert_transitions SET actor = $1 WHERE id = (SELECT max(id) FROM alert_transitions WHERE alert_id = $2)', [actor, id])
}

type AlertWrites = Pick<AlertStore, 'insert' | 'move' | 'setStreak' | 'discard' | 'acknowledge' | 'snooze' | 'pause' | 'setOverride'>

/** `read` is the unit's own (it reads what it moves); `locking` when the unit may lock. */
export function alertWrites(read: Sql, write: Sql, locking: boolean): AlertWrites {
  return {
    async insert(connectionId, a, now) {
      const row = await one<{ id: number }>(
        write,
        `INSERT INTO alerts (rule, connection_id, event_session_id, event_name, site, state, severity, summary, opened_at, fired_at, streak)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
        [a.rule, connectionId, a.eventSessionId, a.eventName, a.site ?? null, a.state, a.severity, a.summary, now, a.state === 'firing' ? now : null, a.streak]
      )
      await addTransition(write, row!.id, now, { state: a.state, severity: a.severity, value: a.value, note: null })
      return row!.id
    },
    move: (id, change, now) => move(write, id, change, now),
    async setStreak(id, streak) {
      await write('UPDATE alerts SET streak = $2 WHERE id = $1', [id, streak])
    },
    // A pending alert that never fired leaves no trace.
    async discard(id) {
      await write('DELETE FROM alerts WHERE id = $1', [id])
    },
    // Acknowledged: the operator knows; it stays until it resolves.
    async acknowledge(id, note, actor, now) {
      const alert = await alertRow(read, id, locking)
      if (alert.state === 'resolved') throw new Error(`alert ${id} has already resolved`)
      if (alert.state === 'pending') throw new Error(`alert ${id} has not fired yet`)
      if (alert.state === 'acknowledged' && !note) return
      await move(write, id, { state: 'acknowledged', severity: alert.severity, value: null, note }, now)
      await sign(write, id, actor)
    },
    // Snoozed: quiet for a while, or until its session ends (when it resolves anyway).
    async snooze(id, choice, actor, now) {
      const alert = await alertRow(read, id, locking)
      refuseSnooze(alert, choice)
      const until = choice === 'session-end' ? null : now + SNOOZE_MS[choice]
      const note = choice === 'session-end' ? 'until the session ends' : `for ${choice}`
      await move(write, id, { state: 'snoozed', severity: alert.severity, value: null, note }, now)
      await write('UPDATE alerts SET snoozed_until = $2, snooze_session_end = $3 WHERE id = $1', [id, until, until === null])
      await sign(write, id, actor)
    },
    // 0 minutes lifts the pause.
    async pause(minutes, now) {
      if (minutes <= 0) await write('DELETE FROM notification_pause WHERE id = 1')
      else await write('INSERT INTO notification_pause (id, until) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET until = excluded.until', [now + minutes * 60_000])
    },
    // One that changes nothing (not muted, no levels) is deleted.
    async setOverride(connectionId, eventSessionId, next) {
      if (!next.muted && next.thresholds === null) {
        await write('DELETE FROM alert_overrides WHERE connection_id = $1 AND event_session_id = $2', [connectionId, eventSessionId])
        return
      }
      await write(
        `INSERT INTO alert_overrides (connection_id, event_session_id, muted, warning, critical) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (connection_id, event_session_id) DO UPDATE SET muted = excluded.muted, warning = excluded.warning, critical = excluded.critical`,
        [connectionId, eventSessionId, next.muted, next.thresholds?.warning ?? null, next.thresholds?.critical ?? null]
      )
    }
  }
}
