// Each connection's polling status, and the app's summed from them, decided once: what the
// header, the wall's status line and the tray show. A connection's trouble is its own: one
// unreachable service is named, with since when and why, while the others keep their freshness,
// and the app is called offline only when no connection polls.
// Pure: test/unit/connection-status.test.ts is its table.
import type { PollState } from '../../../shared/domain'
import { isStale } from '../../../shared/format'
import type { ConnectionPollState, ConnectionPollStatus, PollSummary, PollSummaryState, PollTone } from '../../../shared/poll-status'
import { reasonOfMessage } from '../api/errors'

/** What the core knows of one connection: saved or polled, and its poller's status. */
export interface ConnectionFacts {
  connectionId: string
  connectionName: string
  demo: boolean
  /** Saved but not polled (switched off in Connections). */
  disabled: boolean
  paused: boolean
  /** The poller's state ('starting' for a connection not polled). */
  state: PollState
  lastUpdateAt: number | null
  lastError: string | null
  offlineSince: number | null
  /** The cause in a few words, when known apart from lastError (else read off it). */
  reason?: string
  /** Servers share the connections by lease, and none holds this one's now (its holder died or
   *  let go): nobody polls it until a server takes it over. */
  unheld?: boolean
}

/** What a connection no server holds is waiting for. */
export const UNHELD_REASON = 'waiting for a server to take it over'

export interface PollClock {
  now: number
  /** The live details' cadence: data older than a few of these is stale (shared/format.ts). */
  pollIntervalSeconds: number
}

const TONES: Record<ConnectionPollState, PollTone> = {
  connected: 'ok',
  stale: 'bad',
  offline: 'bad',
  failing: 'bad',
  paused: 'muted',
  waiting: 'muted',
  disabled: 'muted'
}

/** Worst first: the order the faces name them in. */
const ORDER: readonly ConnectionPollState[] = ['offline', 'failing', 'stale', 'waiting', 'paused', 'connected', 'disabled']

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

export function decideConnectionStatus(facts: ConnectionFacts, clock: PollClock): ConnectionPollStatus {
  const lastUpdateAt = iso(facts.lastUpdateAt)
  const fresh = lastUpdateAt !== null && !isStale(lastUpdateAt, clock.now, clock.pollIntervalSeconds)
  const verdict = (state: ConnectionPollState, current: boolean, extra: Partial<ConnectionPollStatus> = {}): ConnectionPollStatus => ({
    connectionId: facts.connectionId,
    connectionName: facts.connectionName,
    state,
    tone: TONES[state],
    demo: facts.demo,
    since: null,
    reason: null,
    lastError: facts.lastError,
    lastUpdateAt,
    current,
    ...extra
  })
  const reason = facts.reason ?? (facts.lastError === null ? null : reasonOfMessage(facts.lastError))
  if (facts.disabled) return verdict('disabled', false, { lastError: null })
  // Paused by the operator: no failure to report, and current for as long as its data is fresh.
  if (facts.paused) return verdict('paused', fresh)
  if (facts.unheld) return verdict('waiting', false, { reason: UNHELD_REASON })
  if (facts.offlineSince !== null) return verdict('offline', false, { since: iso(facts.offlineSince), reason })
  if (facts.state === 'error') return verdict('failing', false, { reason })
  if (facts.state === 'stopped') return verdict('failing', false, { reason: reason ?? 'polling stopped' })
  if (lastUpdateAt === null) return verdict('waiting', false)
  if (!fresh) return verdict('stale', false)
  return verdict('connected', true)
}

/** Every connection's status, worst first, then by name. */
export function decideConnectionStatuses(facts: readonly ConnectionFacts[], clock: PollClock): ConnectionPollStatus[] {
  return facts
    .map((f) => decideConnectionStatus(f, clock))
    .sort((a, b) => ORDER.indexOf(a.state) - ORDER.indexOf(b.state) || a.connectionName.localeCompare(b.connectionName))
}

const SUMMARY_TONES: Record<PollSummaryState, PollTone> = {
  connected: 'ok',
  partial: 'bad',
  stale: 'bad',
  offline: 'bad',
  paused: 'muted',
  waiting: 'muted',
  none: 'muted'
}

const freshest = (connections: readonly ConnectionPollStatus[]): string | null =>
  connections.reduce<string | null>((best, c) => (c.lastUpdateAt !== null && (best === null || c.lastUpdateAt > best) ? c.lastUpdateAt : best), null)

/** The app's polling status: offline only when none of its connections polls. */
export function decidePollSummary(connections: readonly ConnectionPollStatus[]): PollSummary {
  const polled = connections.filter((c) => c.state !== 'disabled')
  const any = (...states: ConnectionPollState[]): boolean => polled.some((c) => states.includes(c.state))
  // Stale is no failure: its connection may still poll, only slowly.
  const polling = polled.filter((c) => c.state === 'connected' || c.state === 'stale')
  const state: PollSummaryState =
    polled.length === 0
      ? 'none'
      : polled.every((c) => c.state === 'paused')
        ? 'paused'
        : any('connected')
          ? any('offline', 'failing', 'stale')
            ? 'partial'
            : 'connected'
          : any('stale')
            ? any('offline', 'failing')
              ? 'partial'
              : 'stale'
            : any('offline', 'failing')
              ? 'offline'
              : 'waiting'
  return {
    state,
    tone: SUMMARY_TONES[state],
    lastUpdateAt: freshest(polling.length > 0 ? polling : polled),
    outdated: polled.length > 0 && !polled.some((c) => c.current)
  }
}
