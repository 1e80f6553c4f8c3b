// What a desk says of its team server while the event stream is down: it knows nothing of the
// server's connections then, so the team server is the one connection it has — offline since the
// stream broke (unreachable, silent), or failing (it said something outside the contract) — with
// the last update it had; and the last situation it had, blind, in an epoch of the desk's own
// (shared/revisions.ts), so every face takes it whole and then the server's again on return.
import { randomUUID } from 'node:crypto'
import type { AlertsChanged, AlertSituation } from '../../../shared/alerts'
import type { Status } from '../../../shared/domain'
import { decideConnectionStatuses, decidePollSummary } from '../sync/connection-status'

export interface LostServer {
  origin: string
  /** Since when the stream is down. */
  since: number
  /** Why, in a few words. */
  reason: string
  /** True when the server answered outside the contract (failing), false when it did not answer. */
  failing: boolean
}

/** The status of a desk whose team server is lost, from the last status it had (if any). */
export function lostServerStatus(lost: LostServer, lastStatus: Status | null, now: number): Status {
  const lastUpdate = lastStatus?.summary.lastUpdateAt ?? null
  const lastError = lost.failing ? `Team server ${lost.origin} ${lost.reason}` : `Team server ${lost.origin} unreachable: ${lost.reason}`
  const facts = {
    connectionId: 'team-server',
    connectionName: `Team server ${new URL(lost.origin).host}`,
    demo: false,
    disabled: false,
    paused: false,
    state: lost.failing ? 'error' : 'offline',
    lastUpdateAt: lastUpdate === null ? null : Date.parse(lastUpdate),
    lastError,
    offlineSince: lost.failing ? null : lost.since,
    reason: lost.reason
  } as const
  const connections = decideConnectionStatuses([facts], { now, pollIntervalSeconds: lastStatus?.pollIntervalSeconds ?? 15 })
  return {
    mode: 'connected',
    connectionName: facts.connectionName,
    paused: false,
    pollIntervalSeconds: 0,
    lastUpdateAt: null,
    lastGoodAt: null,
    problem: null,
    ...lastStatus,
    connections,
    summary: decidePollSummary(connections),
    pollState: lost.failing ? 'error' : 'offline',
    offlineSince: lost.failing ? null : new Date(lost.since).toISOString(),
    lastError
  }
}

const timeOfDay = (ms: number): string => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

/** The push that turns every face blind: the last situation, said by the desk in its own epoch.
 *  Nothing is announced (those were the server's to say). */
export function lostServerPush(lost: LostServer, lastSituation: AlertSituation): AlertsChanged {
  return situationPush({
    ...lastSituation,
    epoch: `desk-${randomUUID()}`,
    tone: 'blind',
    tray: 'blind',
    headline: `Team server ${lost.failing ? 'failing' : 'offline'} since ${timeOfDay(lost.since)} · ${lastSituation.headline}`
  })
}

/** A situation pushed with nothing announced: the server's, re-read on return, or the desk's own. */
export const situationPush = (situation: AlertSituation): AlertsChanged => ({
  situation,
  changed: [],
  removed: [],
  fired: [],
  resolved: [],
  repeated: [],
  silenced: []
})
