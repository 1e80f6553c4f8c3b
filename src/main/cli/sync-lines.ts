// The words of `eventwatch sync` on stderr: one summary line per pass, and in a terminal one line
// per alert that fires or resolves. Names come from the service: made plain before printing.
import { endHeading } from '../../shared/alert-end'
import type { Alert } from '../../shared/alerts'
import { plainText, shorten } from '../../shared/plain-text'
import { redact } from '../core/net/redact'
import type { CutShortListing, SyncReport } from '../core/sync/sync-pass'

/** "2026-… Town halls: 12 sessions, 2 live, 2 snapshots, 4 viewer lists (1,200 viewers)" */
export function passSummary(connection: { name: string }, r: SyncReport): string {
  const parts = [
    `${r.listed} sessions`,
    `${r.live} live`,
    `${r.snapshots} snapshots`,
    `${r.viewerLists} viewer lists (${r.viewers.toLocaleString('en-US')} viewers)`
  ]
  if (r.skipped) parts.push(`${r.skipped} records skipped`)
  if (r.cutShort.length) parts.push(cutShortPart(r.cutShort))
  if (r.problems.length) parts.push(`${r.problems.length} problems`)
  return `${new Date(r.at).toISOString()} ${connection.name}: ${parts.join(', ')}`
}

/** "… ALERT warning [rule] summary — where"; an end says RESOLVED only when it recovered, else ENDED, and why. */
export function alertLine(what: 'ALERT' | 'RESOLVED', alert: Alert): string {
  const at = what === 'ALERT' ? alert.transitions.at(-1)?.at : alert.resolvedAt
  const where = alert.eventSessionId === null ? alert.connectionName : `${alert.connectionName} / ${alert.eventName ?? alert.eventSessionId} (${alert.eventSessionId})`
  const label = what === 'ALERT' ? `ALERT ${alert.severity}` : endHeading(alert.endKind).word.toUpperCase()
  const why = what === 'RESOLVED' && alert.endReason ? `: ${alert.endReason}` : ''
  return `${at ?? ''} ${label} [${alert.rule}] ${alert.summary} — ${where}${why}`
}

/** Listings named one by one in the summary; the rest are counted. */
const CUT_SHORT_NAMED = 3

/** "cut short by a repeated cursor: the viewer list of "Town hall" (5e55…) after 2 pages, …" */
function cutShortPart(listings: readonly CutShortListing[]): string {
  // Names and ids come from the service: nothing in them may act on the terminal.
  const text = (s: string): string => plainText(shorten(s, 64))
  const named = listings.slice(0, CUT_SHORT_NAMED).map((l) => {
    const what =
      l.eventSessionId === null
        ? 'the session list'
        : `the viewer list of ${l.eventName ? `"${text(l.eventName)}" (${text(l.eventSessionId)})` : `session ${text(l.eventSessionId)}`}`
    return `${what} after ${l.pages} ${l.pages === 1 ? 'page' : 'pages'}`
  })
  const more = listings.length > CUT_SHORT_NAMED ? ` and ${listings.length - CUT_SHORT_NAMED} more lists` : ''
  return `cut short by a repeated cursor (kept as read): ${named.join(', ')}${more}`
}

/** A pass as `sync --json` prints it, one line of JSON Lines: the counts, and the problems' words with no secret. */
export function passRecord(connection: { id: string; name: string }, r: SyncReport) {
  return {
    type: 'pass' as const,
    at: new Date(r.at).toISOString(),
    connection: { id: connection.id, name: connection.name },
    listed: r.listed,
    live: r.live,
    snapshots: r.snapshots,
    viewerLists: r.viewerLists,
    viewers: r.viewers,
    skipped: r.skipped,
    cutShort: r.cutShort.map((l) => ({ eventSessionId: l.eventSessionId, eventName: l.eventName, pages: l.pages })),
    problems: r.problems.map((p) => ({ kind: p.kind, message: redact(p.message) })),
    stopped: r.stopped
  }
}
