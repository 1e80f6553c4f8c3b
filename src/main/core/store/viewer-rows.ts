// A viewer list as the flat parameter arrays its INSERTs take: built where the list was parsed,
// written wherever the database is (this thread or the cache writer's, viewer-store.ts). Plain
// arrays of numbers and strings cross to a worker thread at a third of the cost of the records.
//
// Every field the app knows goes into a column of its own (network connections into rows of
// their own). `raw_json` keeps the record as received (as parsed) only when it holds something
// the columns cannot: a field the app does not know, at the top or inside a network connection,
// or an empty connection list. Otherwise it is `{}` — nearly always — and exports rebuild the
// record from the columns alone. Serialising every viewer cost more CPU and disk than all the
// columns together.
import type { ViewerRecord } from '../api/schemas'
import { NETWORK_CONNECTION_FIELDS, VIEWER_SCALAR_FIELDS } from '../api/viewer-fields'

type NetworkConnection = NonNullable<ViewerRecord['networkConnections']>[number]

export const VIEWER_COLUMNS = `id, list_id, viewer_id, device_type, os, app, reliability_score,
  rebuffering_events, rebuffering_time, viewing_time, started_at, ended_at, cdn_traffic,
  ecdn_traffic, cdn_responses, cdn_errors, raw_json`
export const VIEWER_ROW_WIDTH = 17
export const CONNECTION_COLUMNS = `viewer, position, connection_started, public_ip, private_ip, type_json,
  proxy_json, site_code`
export const CONNECTION_ROW_WIDTH = 8

/**
 * One list's rows. A viewer row's `id` slot holds the viewer's index in the list and its
 * `list_id` slot 0; a connection row's `viewer` slot holds its viewer's index. The writer turns
 * indexes into ids inside its transaction (writeViewerRows).
 */
export interface ViewerListRows {
  count: number
  viewers: unknown[]
  connections: unknown[]
}

const KNOWN_VIEWER_FIELDS = new Set<string>([...VIEWER_SCALAR_FIELDS, 'networkConnections'])
const KNOWN_CONNECTION_FIELDS = new Set<string>(NETWORK_CONNECTION_FIELDS)
const NO_EXTRAS = '{}'

/** Milliseconds since the epoch; null for none, and for a date the calendar has not (2026-02-30). */
const toTime = (iso: string | undefined): number | null => {
  if (iso === undefined) return null
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? null : ms
}
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value)

/**
 * The record as JSON when it holds something the columns cannot (a field the app does not know,
 * at the top or in a network connection, or an empty connection list), else `{}`.
 */
function rawJson(v: ViewerRecord): string {
  for (const key in v) if (!KNOWN_VIEWER_FIELDS.has(key)) return JSON.stringify(v)
  const connections = v.networkConnections
  if (connections === undefined) return NO_EXTRAS
  if (connections.length === 0) return JSON.stringify(v)
  for (const c of connections) {
    for (const key in c) if (!KNOWN_CONNECTION_FIELDS.has(key)) return JSON.stringify(v)
  }
  return NO_EXTRAS
}

/**
 * The list without earlier records of a repeated viewer id: the last record of an id is the
 * service's latest word (a viewer seen again on a later page). Nearly always the list itself.
 */
function lastOfEachId(viewers: readonly ViewerRecord[]): readonly ViewerRecord[] {
  const lastIndex = new Map<string, number>()
  viewers.forEach((v, i) => lastIndex.set(v.viewerId, i))
  if (lastIndex.size === viewers.length) return viewers
  return viewers.filter((v, i) => lastIndex.get(v.viewerId) === i)
}

export function viewerListRows(received: readonly ViewerRecord[]): ViewerListRows {
  const list = lastOfEachId(received)
  const viewers: unknown[] = []
  const connections: unknown[] = []
  for (let index = 0; index < list.length; index++) {
    const v = list[index] as ViewerRecord
    viewers.push(
      index,
      0,
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
      rawJson(v)
    )
    const own = v.networkConnections
    if (own === undefined) continue
    for (let position = 0; position < own.length; position++) {
      const c = own[position] as NetworkConnection
      connections.push(
        index,
        position,
        toTime(c.connectionStarted),
        orNull(c.publicIp),
        orNull(c.privateIp),
        c.type === undefined ? null : JSON.stringify(c.type),
        c.proxy === undefined ? null : JSON.stringify(c.proxy),
        orNull(c.siteCode)
      )
    }
  }
  return { count: list.length, viewers, connections }
}
