// The core's polling verdicts in words, the same on every face: the header and the wall's status
// line (renderer) and the tray's tooltip (desktop). Words only: each connection's state and the
// app's summary are decided in the core (core/sync/connection-status.ts). Names are isolated
// (isolatedName): a screen shows each as a <bdi> (LineWithNames), a plain line drops the marks.
import type { ConnectionPollState, ConnectionPollStatus, PollTone } from './poll-status'
import { isolatedName, plainText } from './plain-text'

export interface PollPhrase {
  tone: PollTone
  line: string
}

/** An instant as the face shows a time of day ("06:10"). */
export type TimeOfDay = (iso: string) => string

/** What one connection's state is, without its name: "offline since 06:10 (connection refused)". */
export function connectionWords(c: ConnectionPollStatus, time: TimeOfDay): string {
  const why = c.reason ? ` (${plainText(c.reason)})` : ''
  switch (c.state) {
    case 'offline':
      return `offline since ${c.since ? time(c.since) : '?'}${why}`
    case 'failing':
      return `failing${why}`
    case 'waiting':
      // No server holds it (servers sharing connections): the reason says so.
      return c.reason ? plainText(c.reason) : 'connecting…'
    default:
      return c.state
  }
}

/** One connection alone: its name is on the header's badge already, and today's words hold. */
function aloneWords(c: ConnectionPollStatus, time: TimeOfDay): string {
  switch (c.state) {
    case 'connected':
      return c.demo ? 'Live (demo)' : 'Connected'
    case 'offline':
      return `Offline since ${c.since ? time(c.since) : '?'}`
    case 'failing':
      return c.lastUpdateAt ? 'Polls failing' : 'Not connected'
    case 'waiting':
      return c.reason ? capitalise(plainText(c.reason)) : 'Connecting…'
    default:
      return capitalise(c.state)
  }
}

/** Said one by one, with since when and why; the others grouped by state, named together. */
const ONE_BY_ONE: readonly ConnectionPollState[] = ['offline', 'failing']
const GROUPED: readonly ConnectionPollState[] = ['stale', 'waiting', 'paused', 'connected']

/**
 * The polling status as phrases, worst first: "Contoso offline since 06:10 (connection refused)",
 * "Fabrikam, Northwind connected". With one connection (`named` false) today's single word:
 * "Offline since 06:10", "Connected", "Live (demo)". Disabled connections are left out.
 */
export function pollPhrases(connections: readonly ConnectionPollStatus[], time: TimeOfDay, named = pollsSeveral(connections)): PollPhrase[] {
  const polled = connections.filter((c) => c.state !== 'disabled')
  if (polled.length === 0) return [{ tone: 'muted', line: 'No connection polled' }]
  if (!named && polled.length === 1) return [{ tone: polled[0]!.tone, line: aloneWords(polled[0]!, time) }]
  // The operator paused polling: the app's pause, said once, as with one connection.
  if (polled.every((c) => c.state === 'paused')) return [{ tone: polled[0]!.tone, line: aloneWords(polled[0]!, time) }]
  const phrases: PollPhrase[] = polled
    .filter((c) => ONE_BY_ONE.includes(c.state))
    .map((c) => ({ tone: c.tone, line: `${isolatedName(c.connectionName)} ${connectionWords(c, time)}` }))
  for (const state of GROUPED) {
    // Named together when their words are the same (two waiting connections may wait for different things).
    const byWords = new Map<string, ConnectionPollStatus[]>()
    for (const c of polled.filter((c) => c.state === state)) {
      const words = connectionWords(c, time)
      byWords.set(words, [...(byWords.get(words) ?? []), c])
    }
    for (const [words, group] of byWords) {
      phrases.push({ tone: group[0]!.tone, line: `${group.map((c) => isolatedName(c.connectionName)).join(', ')} ${words}` })
    }
  }
  return phrases
}

/** More than one connection polled: each is named. */
export function pollsSeveral(connections: readonly ConnectionPollStatus[]): boolean {
  return connections.filter((c) => c.state !== 'disabled').length > 1
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)
