// The conditions a cooldown holds back now (the same alert resolved too recently to fire
// again), as rows: the situation counts them and the board shows them, so a session red on Live
// is never "all clear" — after a restart of the core too, and on any core reading the file.
import type { AlertRuleId, AlertSeverity } from '../../../shared/alerts'
import type { Db } from './db'
import { statement } from './statements'

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

const SELECT = `SELECT connection_id AS connectionId, event_session_id AS eventSessionId, rule, severity, summary,
  NULLIF(site, '') AS site FROM alert_cooling`

/** Every condition held back now, across connections, in a stable order. */
export function coolingConditions(db: Db): CoolingCondition[] {
  return statement(db, `${SELECT} ORDER BY connection_id, event_session_id, rule, site`).all() as CoolingCondition[]
}

/** One connection's, in the same order. */
export function coolingOf(db: Db, connectionId: string): CoolingCondition[] {
  return statement(db, `${SELECT} WHERE connection_id = ? ORDER BY event_session_id, rule, site`).all(connectionId) as CoolingCondition[]
}

/** Replaces what a connection's cooldowns hold back (in the unit of work of its evaluation). */
export function replaceCooling(db: Db, connectionId: string, held: readonly CoolingCondition[]): void {
  statement(db, 'DELETE FROM alert_cooling WHERE connection_id = ?').run(connectionId)
  const insert = statement(
    db,
    `INSERT OR REPLACE INTO alert_cooling (connection_id, event_session_id, rule, site, severity, summary)
     VALUES (@connectionId, @eventSessionId, @rule, @site, @severity, @summary)`
  )
  for (const c of held) insert.run({ ...c, connectionId, site: c.site ?? '' })
}

/** Forgets the cooldowns of every connection not polled now; returns how many were held. */
export function forgetCoolingExcept(db: Db, polled: readonly string[]): number {
  return statement(db, 'DELETE FROM alert_cooling WHERE connection_id NOT IN (SELECT value FROM json_each(?))').run(JSON.stringify(polled)).changes
}
