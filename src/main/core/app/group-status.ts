// The app's polling status and the situation's unconfirmed connections, assembled from each
// connection's facts (PollerGroup gathers them: its pollers', or where servers share the
// connections, their holders' rows). Pure: every face and every server of a team builds the same
// status from the same facts.
import type { Status } from '../../../shared/domain'
import type { UnconfirmedConnection } from '../alerts/situation'
import { decideConnectionStatuses, decidePollSummary, type ConnectionFacts } from '../sync/connection-status'
import type { PollerStatus } from '../sync/poller'

/** A connection no poller runs for. */
export const STOPPED: PollerStatus = { state: 'stopped', lastUpdateAt: null, lastError: null, offlineSince: null }

export interface GroupFacts {
  /** Each connection polled (by this server or its team), then each saved one switched off. */
  connections: ConnectionFacts[]
  /** Every connection polled is the embedded demo. */
  demo: boolean
  /** The newest poll the cache remembers of the connections polled (ISO), or null. */
  lastGoodAt: string | null
  now: number
  pollIntervalSeconds: number
}

export function groupStatus(facts: GroupFacts): Status {
  const statuses = facts.connections.filter((f) => !f.disabled)
  const offline = statuses.map((s) => s.offlineSince).filter((t): t is number => t !== null)
  const connections = decideConnectionStatuses(facts.connections, { now: facts.now, pollIntervalSeconds: facts.pollIntervalSeconds })
  return {
    mode: facts.demo ? 'demo' : 'connected',
    connectionName: statuses.map((s) => s.connectionName).join(', ') || 'No connection',
    connections,
    summary: decidePollSummary(connections),
    problem: null,
    pollState: worstState(statuses),
    lastUpdateAt: oldestUpdate(statuses),
    lastGoodAt: facts.lastGoodAt,
    lastError: statuses.find((s) => s.lastError)?.lastError ?? null,
    offlineSince: offline.length ? new Date(Math.min(...offline)).toISOString() : null,
    paused: allPaused(statuses),
    pollIntervalSeconds: facts.pollIntervalSeconds
  }
}

/** Polled connections not confirmed: never polled successfully yet (paused before any), offline
 *  now, or (servers sharing the connections) held by no server now. */
export function unconfirmedOf(polled: readonly ConnectionFacts[]): UnconfirmedConnection[] {
  return polled.flatMap((facts) => {
    const why = facts.unheld
      ? 'unheld'
      : facts.offlineSince !== null
        ? 'offline'
        : facts.lastUpdateAt !== null
          ? null
          : facts.paused
            ? 'paused'
            : 'connecting'
    return why ? [{ connectionId: facts.connectionId, connectionName: facts.connectionName, why }] : []
  })
}

/** Whether every connection polled is paused: the tray shows "paused". */
export const allPaused = (polled: readonly ConnectionFacts[]): boolean => polled.length > 0 && polled.every((f) => f.paused)

/** What a status push is due for when it changes (servers sharing connections: also what a
 *  connection's holder wrote). */
export const verdictsOf = (status: Status): string =>
  JSON.stringify([status.summary, status.connections.map((c) => [c.connectionId, c.state, c.current, c.reason, c.lastUpdateAt])])

const STATE_ORDER: PollerStatus['state'][] = ['offline', 'error', 'starting', 'polling', 'paused', 'stopped', 'ok']

function worstState(statuses: PollerStatus[]): PollerStatus['state'] {
  for (const state of STATE_ORDER) if (statuses.some((s) => s.state === state)) return state
  return 'stopped'
}

function oldestUpdate(statuses: PollerStatus[]): string | null {
  if (statuses.length === 0 || statuses.some((s) => s.lastUpdateAt === null)) return null
  return new Date(Math.min(...statuses.map((s) => s.lastUpdateAt as number))).toISOString()
}
