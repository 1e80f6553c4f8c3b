// The alerts of a Tx on PostgreSQL: what the engine continues from (`open`), the reads
// (alert-reads.ts) and the changes (alert-changes.ts). `open` locks the connection's open alerts
// inside a writing unit, so an acknowledgement committed by another server meanwhile is not
// written over by an evaluation that read them before it (docs/store.md, rule 5).
import type { AlertStore, OpenAlert, OpenState } from '../interface/alerts'
import { alertReads } from './alert-reads'
import { alertWrites } from './alert-changes'
import { all, type Runners } from './sql'

interface OpenRow {
  id: number
  rule: OpenAlert['rule']
  event_session_id: string | null
  site: string | null
  state: OpenState
  severity: OpenAlert['severity']
  streak: number
  snoozed_until: number | null
  snooze_session_end: boolean
  state_before_mute: OpenState | null
}

const OPEN = `
  SELECT a.id, a.rule, a.event_session_id, a.site, a.state, a.severity, a.streak, a.snoozed_until, a.snooze_session_end,
    CASE WHEN a.state = 'muted' THEN (
      SELECT t.state FROM alert_transitions t WHERE t.alert_id = a.id AND t.state <> 'muted' ORDER BY t.id DESC LIMIT 1
    ) END AS state_before_mute
  FROM alerts a WHERE a.connection_id = $1 AND a.resolved_at IS NULL ORDER BY a.id`

const toOpen = (r: OpenRow): OpenAlert => ({
  id: r.id,
  rule: r.rule,
  eventSessionId: r.event_session_id,
  site: r.site,
  state: r.state,
  severity: r.severity,
  streak: r.streak,
  snoozedUntil: r.snoozed_until,
  snoozeSessionEnd: r.snooze_session_end,
  stateBeforeMute: r.state_before_mute
})

export function alertTable({ read, write, locking }: Runners): AlertStore {
  return {
    async open(connectionId) {
      if (locking) await read('SELECT id FROM alerts WHERE connection_id = $1 AND resolved_at IS NULL ORDER BY id FOR UPDATE', [connectionId])
      return (await all<OpenRow>(read, OPEN, [connectionId])).map(toOpen)
    },
    ...alertReads(read),
    ...alertWrites(read, write, locking)
  }
}
