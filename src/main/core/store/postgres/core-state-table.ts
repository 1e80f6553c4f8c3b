// The core's state rows of a Tx on PostgreSQL (issue 25's tables: revisions, the pause and status
// of polling, cooldowns, what was judged, repeat steps, the alerts' change log), as
// store/revisions.ts, poller-status.ts, alert-cooling.ts, alert-judged.ts, alert-repeat-steps.ts
// and alert-change-log.ts keep them on SQLite. nextRevision is one UPDATE … RETURNING: its row
// lock, held to the commit, makes commit order revision order across servers.
import type { Revised } from '../../../../shared/revisions'
import { ALERT_CHANGE_KINDS, changesPageSize, wholePushes } from '../alert-change-log'
import type { AlertChangeRow, CoolingCondition, CoreStateStore, Judged, StoredPollerStatus } from '../interface/core-state'
import { EVERY_CONNECTION } from '../poller-status'
import { all, one, type Runners, type Sql } from './sql'

const SELECT_CHANGES = 'SELECT epoch, revision, alert_id AS "alertId", kind, at FROM alert_changes'
const SELECT_COOLING = `SELECT connection_id AS "connectionId", event_session_id AS "eventSessionId", rule, severity, summary,
  NULLIF(site, '') AS site FROM alert_cooling`

async function repeatSteps(sql: Sql): Promise<Map<number, number>> {
  const rows = await all<{ id: number; step: number }>(sql, 'SELECT id, repeat_step AS step FROM alerts WHERE repeat_step IS NOT NULL')
  return new Map(rows.map((r) => [r.id, r.step]))
}

export function coreStateTable({ read, write }: Runners): CoreStateStore {
  return {
    revision: (name) => one<Revised>(read, 'SELECT epoch, value AS revision FROM revisions WHERE name = $1', [name]),
    async pausedPolling() {
      const ids = new Set((await all<{ id: string }>(read, 'SELECT connection_id AS id FROM poller_status WHERE paused')).map((r) => r.id))
      const every = ids.delete(EVERY_CONNECTION)
      return { all: every, connections: ids }
    },
    async pollerStatuses() {
      const rows = await all<{ id: string } & StoredPollerStatus>(
        read,
        `SELECT connection_id AS id, state, last_update_at AS "lastUpdateAt", last_error AS "lastError",
           offline_since AS "offlineSince", updated_at AS "updatedAt" FROM poller_status WHERE state IS NOT NULL`
      )
      return new Map(rows.map(({ id, ...status }) => [id, status]))
    },
    cooling: () => all<CoolingCondition>(read, `${SELECT_COOLING} ORDER BY connection_id, event_session_id, rule, site`),
    async judged(connectionId) {
      const rows = await all<{ id: string } & Judged>(
        read,
        'SELECT event_session_id AS id, snapshot_at AS "snapshotAt", list_at AS "listAt" FROM alert_judged WHERE connection_id = $1',
        [connectionId]
      )
      return new Map(rows.map(({ id, ...judged }) => [id, judged]))
    },
    repeatSteps: () => repeatSteps(read),
    async alertChangesSince(revision, limit) {
      const size = changesPageSize(limit)
      const rows = await all<AlertChangeRow>(read, `${SELECT_CHANGES} WHERE revision > $1 ORDER BY revision, kind, alert_id LIMIT $2`, [revision, size + 1])
      const page = wholePushes(rows, size)
      return Array.isArray(page) ? page : all<AlertChangeRow>(read, `${SELECT_CHANGES} WHERE revision = $1 ORDER BY kind, alert_id`, [page.alone])
    },
    async beginEpoch(name, epoch) {
      const row = await one<Revised>(
        write,
        `INSERT INTO revisions (name, epoch, value) VALUES ($1, $2, 0)
         ON CONFLICT (name) DO UPDATE SET epoch = excluded.epoch RETURNING epoch, value AS revision`,
        [name, epoch]
      )
      return row!
    },
    async nextRevision(name) {
      const row = await one<Revised>(write, 'UPDATE revisions SET value = value + 1 WHERE name = $1 RETURNING epoch, value AS revision', [name])
      if (!row) throw new Error(`no epoch was begun for the ${name} revisions`)
      return row
    },
    async setPollingPaused(paused, now, connectionId = EVERY_CONNECTION) {
      // Resuming every connection resumes those paused alone too, as the pollers do.
      if (!paused && connectionId === EVERY_CONNECTION) {
        await write('UPDATE poller_status SET paused = false, updated_at = $1 WHERE paused', [now])
        return
      }
      await write(
        `INSERT INTO poller_status (connection_id, paused, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (connection_id) DO UPDATE SET paused = excluded.paused, updated_at = excluded.updated_at`,
        [connectionId, paused, now]
      )
    },
    async savePollerStatus(connectionId, status, now) {
      await write(
        `INSERT INTO poller_status (connection_id, state, last_update_at, last_error, offline_since, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (connection_id) DO UPDATE SET state = excluded.state, last_update_at = excluded.last_update_at,
           last_error = excluded.last_error, offline_since = excluded.offline_since, updated_at = excluded.updated_at`,
        [connectionId, status.state, status.lastUpdateAt, status.lastError, status.offlineSince, now]
      )
    },
    async replaceCooling(connectionId, held) {
      await write('DELETE FROM alert_cooling WHERE connection_id = $1', [connectionId])
      for (const c of held) {
        await write(
          `INSERT INTO alert_cooling (connection_id, event_session_id, rule, site, severity, summary) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (connection_id, event_session_id, rule, site) DO UPDATE SET severity = excluded.severity, summary = excluded.summary`,
          [connectionId, c.eventSessionId, c.rule, c.site ?? '', c.severity, c.summary]
        )
      }
    },
    forgetCoolingExcept: async (polled) => (await write('DELETE FROM alert_cooling WHERE NOT (connection_id = ANY($1::text[]))', [polled])).count,
    async saveJudged(connectionId, observed, marks) {
      // The sessions it no longer observes (ended, their alerts closed) are forgotten.
      await write('DELETE FROM alert_judged WHERE connection_id = $1 AND NOT (event_session_id = ANY($2::text[]))', [connectionId, observed])
      for (const mark of marks) {
        await write(
          `INSERT INTO alert_judged (connection_id, event_session_id, snapshot_at, list_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (connection_id, event_session_id) DO UPDATE SET
             snapshot_at = COALESCE(excluded.snapshot_at, alert_judged.snapshot_at), list_at = COALESCE(excluded.list_at, alert_judged.list_at)`,
          [connectionId, mark.eventSessionId, mark.snapshotAt ?? null, mark.listAt ?? null]
        )
      }
    },
    async saveRepeatSteps(next) {
      const held = await repeatSteps(write)
      for (const [id, step] of next) if (held.get(id) !== step) await write('UPDATE alerts SET repeat_step = $2 WHERE id = $1', [id, step])
      for (const id of held.keys()) if (!next.has(id)) await write('UPDATE alerts SET repeat_step = NULL WHERE id = $1', [id])
    },
    async recordAlertChanges(stamp, changes, at) {
      for (const kind of ALERT_CHANGE_KINDS) {
        for (const alertId of changes[kind]) {
          // An alert twice in one kind of one push: once.
          await write(
            `INSERT INTO alert_changes (revision, epoch, alert_id, kind, at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (revision, kind, alert_id) DO NOTHING`,
            [stamp.revision, stamp.epoch, alertId, kind, at]
          )
        }
      }
    },
    pruneAlertChanges: async (before, limit) =>
      (await write('DELETE FROM alert_changes WHERE ctid IN (SELECT ctid FROM alert_changes WHERE at < $1 LIMIT $2)', [before, limit])).count
  }
}
