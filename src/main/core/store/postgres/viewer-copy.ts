// One page of a viewer list written with COPY … FROM STDIN (pg-copy-streams): the page's rows
// (viewer-rows.ts) as COPY's text format, keyed by (list_id, ordinal). Measured against a
// multi-row INSERT from unnest() arrays in docs/scaling-plan.md, "The viewer writer": COPY costs
// less time and less WAL. A page is encoded whole (a page of memory, no more) and sent as one chunk.
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { CONNECTION_ROW_WIDTH, VIEWER_ROW_WIDTH, type ViewerListRows } from '../viewer-rows'
import { nulFree } from './nul-free'

const VIEWERS = `COPY viewers (list_id, ordinal, viewer_id, device_type, os, app, reliability_score, rebuffering_events,
  rebuffering_time, viewing_time, started_at, ended_at, cdn_traffic, ecdn_traffic, cdn_responses, cdn_errors, raw_json) FROM STDIN`
const CONNECTIONS = `COPY viewer_connections (list_id, ordinal, position, connection_started, public_ip, private_ip, type_json,
  proxy_json, site_code) FROM STDIN`

const SPECIAL = /[\\\n\r\t]/
const SPECIALS = /[\\\n\r\t]/g
const ESCAPED: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * PostgreSQL's text cannot hold NUL (SQLite's can): in a page's text slots the service's NUL
 * becomes U+FFFD, as an undecodable byte would, rather than fail the whole list. In place, before
 * anything (the breakdowns' sums) reads the rows.
 */
export function withoutNul(rows: ViewerListRows): ViewerListRows {
  for (const values of [rows.viewers, rows.connections]) {
    for (let at = 0; at < values.length; at++) {
      const value = values[at]
      if (typeof value === 'string') values[at] = nulFree(value)
    }
  }
  return rows
}

/** One value in COPY's text format: \N for null, numbers as JavaScript writes them, text escaped. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '\\N'
  if (typeof value === 'number') return String(value)
  const text = String(value)
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPED[c]!) : text
}

/**
 * Rows of `width` slots as COPY lines: each led by the list's id and the ordinal of the viewer
 * (the first slot holds its index in the page), then the slots from `from` on.
 */
function copyLines(values: readonly unknown[], width: number, from: number, listId: number, firstOrdinal: number): string {
  const lead = `${listId}\t`
  let out = ''
  for (let at = 0; at < values.length; at += width) {
    let line = lead + String(firstOrdinal + (values[at] as number))
    for (let slot = from; slot < width; slot++) line += '\t' + field(values[at + slot])
    out += line + '\n'
  }
  return out
}

async function copyIn(client: pg.ClientBase, statement: string, text: string): Promise<void> {
  if (text === '') return
  await pipeline(Readable.from([text]), client.query(copyFrom(statement)))
}

/** Writes a page's viewers and their network connections into list `listId`, the first viewer
 *  at `firstOrdinal`, in the caller's transaction. Viewers first: a connection names its viewer. */
export async function copyViewerPage(client: pg.ClientBase, listId: number, firstOrdinal: number, rows: ViewerListRows): Promise<void> {
  // A viewer row's first slot is its index in the page, its second the list (given here): skipped.
  await copyIn(client, VIEWERS, copyLines(rows.viewers, VIEWER_ROW_WIDTH, 2, listId, firstOrdinal))
  await copyIn(client, CONNECTIONS, copyLines(rows.connections, CONNECTION_ROW_WIDTH, 1, listId, firstOrdinal))
}
