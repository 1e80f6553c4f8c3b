// The link back to a session's drill-down that every alert carries (a webhook body, a
// notification, a report line), so whoever reads the alert lands on the session in one click.
// A team server's alerts link to its own page (`https://noc.example:4780/#session/<c>/<s>`); a
// desk's to `eventwatch://session/<c>/<s>`, which the desktop app registers as its protocol
// handler. The desk link arrives from outside the app (a browser, a chat, another program), so
// its parsing refuses anything but exactly that shape. Pure, in shared: the core builds links and
// the desktop reads them with the same code.
import { appTargetHash, parseAppTarget } from './deep-link'

export const DESK_LINK_SCHEME = 'eventwatch'

/** Where links point: the desktop app on this machine, or a team server's page at `origin`
 *  (`https://host:port`, or with the path a reverse proxy serves it under). */
export type LinkBase = { kind: 'desk' } | { kind: 'server'; origin: string }

export interface SessionTarget {
  connectionId: string
  eventSessionId: string
}

/** The link that opens a session's drill-down. Ids are percent-encoded (they may hold '/', '#'). */
export function sessionLink(base: LinkBase, target: SessionTarget): string {
  const hash = appTargetHash({ view: 'session', ...target })
  if (base.kind === 'desk') return `${DESK_LINK_SCHEME}://${hash}`
  return `${base.origin.replace(/\/+$/, '')}/#${hash}`
}

/** Longer than any link Eventwatch writes (two ids of at most 200 characters, each escaped). */
const MAX_DESK_LINK = 2000

/**
 * The session an `eventwatch://session/<c>/<s>` link names, or undefined for anything else: another
 * scheme or view, a query or fragment, extra or missing segments, a malformed escape, a control
 * character. The scheme is matched without regard to case (as URLs are); one trailing '/' is
 * allowed (Windows adds one to a protocol argument).
 */
export function parseDeskLink(link: string): SessionTarget | undefined {
  if (typeof link !== 'string' || link.length > MAX_DESK_LINK) return undefined
  const prefix = `${DESK_LINK_SCHEME}://`
  if (link.slice(0, prefix.length).toLowerCase() !== prefix) return undefined
  let rest = link.slice(prefix.length)
  if (rest.endsWith('/')) rest = rest.slice(0, -1)
  // Raw characters a link never carries: escapes are how ids hold them.
  if (/[\s?#\\\p{Cc}]/u.test(rest)) return undefined
  const target = parseAppTarget(rest)
  if (!target || target.view !== 'session') return undefined
  if (/\p{Cc}/u.test(target.connectionId + target.eventSessionId)) return undefined
  return { connectionId: target.connectionId, eventSessionId: target.eventSessionId }
}

/** The first desk link among a process's arguments (how a second instance or a cold start gets it). */
export function deskLinkInArgs(args: readonly string[]): SessionTarget | undefined {
  for (const arg of args) {
    const target = parseDeskLink(arg)
    if (target) return target
  }
  return undefined
}
