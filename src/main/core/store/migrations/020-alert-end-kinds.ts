// Version 20: an alert keeps what kind of end it had (issue 24), beside the reason in words that
// its resolving transition holds: only a recovery reads "Resolved", and the cooldown starts on the
// condition's own end, not on the words. Alerts resolved before keep the kind their words said.
import type { Migration } from './types'

export const alertEndKinds: Migration = {
  version: 20,
  name: 'alert-end-kinds',
  up: (db) => {
    db.exec(`
      ALTER TABLE alerts ADD COLUMN end_kind TEXT;
      UPDATE alerts SET end_kind = (
        SELECT CASE t.note
          WHEN 'recovered' THEN 'recovered'
          WHEN 'the service answers again' THEN 'recovered'
          WHEN 'session ended' THEN 'session-ended'
          WHEN 'rule turned off' THEN 'rule-off'
          ELSE 'unwatched' END
        FROM alert_transitions t WHERE t.alert_id = alerts.id AND t.state = 'resolved' ORDER BY t.id DESC LIMIT 1)
      WHERE state = 'resolved';
    `)
  }
}
