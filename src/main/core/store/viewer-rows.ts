// A viewer list as the flat parameter arrays its INSERTs take: built where the list was parsed,
// encoded for the cache writer's thread as it is read (row-transfer.ts), and written wherever
// the database is (this thread or the cache writer's, viewer-store.ts).
//
// Every field the app knows goes into a column of its own (network connections into rows of
// their own). `raw_json` keeps the record as received (as parsed) only when it holds something
// the columns cannot: a field the app does not know, at the top or inside a network connection,
// or an empty connection list. Otherwise it is `{}` — nearly always — and exports rebuild the
// record from the columns alone. Serialising every viewer cost more CPU and disk than all the
// columns together.
import type { ViewerRecord } from '../api/schemas'
import { NETWORK_CONNECTION_FIELDS, VIEWER_SCALAR_FIELDS } from '../api/viewer-fields'
import { decodeRows, ValuesWriter, type EncodedRows } from './row-transfer'

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

const digit = (s: string, at: number): number => s.charCodeAt(at) - 48
const digits = (s: string, from: number, to: number): number => {
  let n = 0
  for (let at = from; at < to; at++) {
    const d = digit(s, at)
    if (d < 0 || d > 9) return Number.NaN
    n = n * 10 + d
  }
  return n
}

/**
 * "2026-11-23T10:00:00.000Z", the form nearly every time comes in, read by hand at twice the
 * speed of Date.parse (and to the same instant); any other form goes to Date.parse.
 */
function canonicalInstant(s: string): number {
  if (s.length !== 24 || s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':' || s[19] !== '.' || s[23] !== 'Z') return Number.NaN
  const year = digits(s, 0, 4)
  const month = digits(s, 5, 7)
  const day = digits(s, 8, 10)
  const hours = digits(s, 11, 13)
  const minutes = digits(s, 14, 16)
  const seconds = digits(s, 17, 19)
  // Out of these ranges (or years Date.UTC reads as 19xx) Date.parse has the last word.
  if (!(year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hours <= 23 && minutes <= 59 && seconds <= 59)) return Number.NaN
  return Date.UTC(year, month - 1, day, hours, minutes, seconds, digits(s, 20, 23))
}

/** Milliseconds since the epoch; null for none, and for a date no calendar has. */
const toTime = (iso: string | undefined): number | null => {
  if (iso === undefined) return null
  let ms = canonicalInstant(iso)
  if (Number.isNaN(ms)) ms = Date.parse(iso)
  return Number.isNaN(ms) ? null : ms
}

/** A network connection's proxy list as JSON: nearly always empty. */
const proxyJson = (proxy: string[] | undefined): string | null => (proxy === undefined ? null : proxy.length === 0 ? '[]' : JSON.stringify(proxy))

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
  const ids = new Set<string>()
  for (const v of viewers) ids.add(v.viewerId)
  if (ids.size === viewers.length) return viewers
  const lastIndex = new Map<string, number>()
  viewers.forEach((v, i) => lastIndex.set(v.viewerId, i))
  return viewers.filter((v, i) => lastIndex.get(v.viewerId) === i)
}

/**
 * The list's rows, encoded as they are read (row-transfer.ts): what the cache writer's thread
 * is sent. Slot by slot in VIEWER_COLUMNS and CONNECTION_COLUMNS order.
 */
export function encodedViewerRows(received: readonly ViewerRecord[]): EncodedRows {
  const list = lastOfEachId(received)
  let connectionCount = 0
  for (const v of list) connectionCount += v.networkConnections?.length ?? 0
  const viewers = new ValuesWriter(list.length * VIEWER_ROW_WIDTH)
  const connections = new ValuesWriter(connectionCount * CONNECTION_ROW_WIDTH)
  for (let index = 0; index < list.length; index++) {
    const v = list[index] as ViewerRecord
    viewers.number(index)
    viewers.number(0)
    viewers.string(v.viewerId)
    viewers.string(v.deviceType)
    viewers.string(v.os)
    viewers.string(v.app)
    viewers.number(v.reliabilityScore)
    viewers.number(v.rebufferingEvents)
    viewers.number(v.rebufferingTime)
    viewers.number(v.viewingTime)
    viewers.number(toTime(v.startedAt))
    viewers.number(toTime(v.endedAt))
    viewers.number(v.cdnTraffic)
    viewers.number(v.ecdnTraffic)
    viewers.number(v.cdnResponses)
    viewers.number(v.cdnErrors)
    viewers.string(rawJson(v))
    const own = v.networkConnections
    if (own === undefined) continue
    for (let position = 0; position < own.length; position++) {
      const c = own[position] as NetworkConnection
      connections.number(index)
      connections.number(position)
      connections.number(toTime(c.connectionStarted))
      connections.string(c.publicIp)
      connections.string(c.privateIp)
      connections.string(c.type === undefined ? null : JSON.stringify(c.type))
      connections.string(proxyJson(c.proxy))
      connections.number(c.siteCode)
    }
  }
  return { count: list.length, viewers: viewers.finish(), connections: connections.finish() }
}

/** The list's rows as plain arrays, for a store on this thread: the encoded rows, decoded. */
export function viewerListRows(received: readonly ViewerRecord[]): ViewerListRows {
  return decodeRows(encodedViewerRows(received))
}
