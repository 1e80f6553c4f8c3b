// A session's latest viewer list: replaced whole, in one transaction, or not at all.
import type { ViewerRecord } from '../api/schemas'
import type { Db } from './db'
import { statement } from './statements'

const toTime = (iso: string | undefined): number | null => (iso === undefined ? null : Date.parse(iso))
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value)

export function storeViewerList(
  db: Db,
  connectionId: string,
  eventSessionId: string,
  viewers: readonly ViewerRecord[],
  fetchedAt: number,
  pages: number
): void {
  const insertViewer = statement(
    db,
    `INSERT OR REPLACE INTO viewers (connection_id, event_session_id, viewer_id, device_type, os, app,
       reliability_score, rebuffering_events, rebuffering_time, viewing_time, started_at, ended_at,
       cdn_traffic, ecdn_traffic, cdn_responses, cdn_errors, raw_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  const insertConnection = statement(
    db,
    `INSERT OR REPLACE INTO viewer_connections (connection_id, event_session_id, viewer_id, position,
       connection_started, public_ip, private_ip, type_json, proxy_json, site_code)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  db.transaction(() => {
    // Replacing the list row cascades to the old viewers and their connections.
    statement(db, 'DELETE FROM viewer_lists WHERE connection_id = ? AND event_session_id = ?').run(
      connectionId,
      eventSessionId
    )
    statement(
      db,
      `INSERT INTO viewer_lists (connection_id, event_session_id, fetched_at, viewer_count, pages)
       VALUES (?, ?, ?, ?, ?)`
    ).run(connectionId, eventSessionId, fetchedAt, viewers.length, pages)
    for (const v of viewers) {
      insertViewer.run(
        connectionId,
        eventSessionId,
        v.viewerId,
        orNull(v.deviceType),
        orNull(v.os),
        orNull(v.app),
        orNull(v.reliabilityScore),
        orNull(v.rebufferingEvents),
        orNull(v.rebufferingTime),
        orNull(v.viewingTime),
        toTime(v.startedAt),
        toTime(v.endedAt),
        orNull(v.cdnTraffic),
        orNull(v.ecdnTraffic),
        orNull(v.cdnResponses),
        orNull(v.cdnErrors),
        JSON.stringify(v)
      )
      v.networkConnections?.forEach((c, position) =>
        insertConnection.run(
          connectionId,
          eventSessionId,
          v.viewerId,
          position,
          toTime(c.connectionStarted),
          orNull(c.publicIp),
          orNull(c.privateIp),
          c.type === undefined ? null : JSON.stringify(c.type),
          c.proxy === undefined ? null : JSON.stringify(c.proxy),
          orNull(c.siteCode)
        )
      )
    }
  })()
}

/** Sessions of a connection whose complete viewer list the cache holds. */
export function sessionsWithViewerLists(db: Db, connectionId: string): Set<string> {
  const rows = statement(db, 'SELECT event_session_id AS id FROM viewer_lists WHERE connection_id = ?').all(
    connectionId
  ) as { id: string }[]
  return new Set(rows.map((r) => r.id))
}
