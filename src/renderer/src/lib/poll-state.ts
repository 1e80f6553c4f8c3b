// The core's polling status as the header and the wall's status line show it: the phrases of
// shared/poll-words.ts with times in the display's zone, each connection's own freshness for the
// tooltip, and what stands in for "Last update" before there is one. Nothing is decided here:
// each connection's state and the app's summary come with the status (core/sync/connection-status.ts).
import type { Status } from '../../../shared/domain'
import { formatAge } from '../../../shared/format'
import { plainText } from '../../../shared/plain-text'
import { connectionWords, pollPhrases, type PollPhrase } from '../../../shared/poll-words'
import { display } from './stores/display.svelte'

const timeOfDay = (iso: string): string => display.formatTime(iso).slice(0, 5)

/** Worst first: "Contoso offline since 06:10 (connection refused)", "Fabrikam, Northwind connected". */
export function statusPhrases(status: Status | null): PollPhrase[] {
  if (!status) return [{ tone: 'muted', line: 'Connecting…' }]
  return pollPhrases(status.connections, timeOfDay)
}

/** Each connection on a line of its own, with its own last update and failure in full. */
export function connectionLines(status: Status | null, now: number): string {
  if (!status) return ''
  return status.connections
    .map((c) => {
      const updated = c.lastUpdateAt ? `last update ${display.formatTime(c.lastUpdateAt)} (${formatAge(c.lastUpdateAt, now)})` : 'no update yet'
      const failure = c.lastError ? ` — ${plainText(c.lastError)}` : ''
      return `${plainText(c.connectionName)}: ${connectionWords(c, timeOfDay)}; ${updated}${failure}`
    })
    .join('\n')
}

/** The failure to show beside the words: one connection's in full, or the app's own problem. */
export function shownError(status: Status | null): string | null {
  if (!status) return null
  if (status.problem) return status.problem
  const polled = status.connections.filter((c) => c.state !== 'disabled')
  // With several, each failure is in its connection's phrase (and in full in the tooltip).
  return polled.length === 1 ? polled[0]!.lastError : null
}

/**
 * What the header says in place of "Last update HH:MM" before this run has any: "waiting" only
 * while a first poll may still come; offline or failing, it says the screens show the cache
 * instead (never "Offline since 18:45 · Waiting for the first update…").
 */
export function noUpdateWords(status: Status | null): string {
  if (!status) return 'Waiting for the first update…'
  // The last good data, from an earlier run or before a restart of polling, is never dropped.
  const cached = status.lastGoodAt ? `showing cached data of ${display.formatMoment(status.lastGoodAt)}` : 'showing cached data'
  const state = status.summary.state
  if (state === 'paused') return `Polling is paused; ${cached}`
  if (state === 'offline' || state === 'partial') return `No successful poll yet: ${cached}`
  return status.lastGoodAt ? `Waiting for the first update… (${cached})` : 'Waiting for the first update…'
}
