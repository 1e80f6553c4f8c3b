// What a server shows of the connections another server of its team polls (docs/scaling-plan.md
// section 2): each one's status as its lease holder last recorded it (poller_status rows, written
// in the holder's fenced units), and whether any server holds its lease now. The lease's renewal
// is the holder's heartbeat: a dead holder's last row is not shown as live, because once its lease
// has run out the connection is "waiting for a server to take it over", until a new holder has it.
import type { LeaseStore } from '../store/interface/leases'
import { leasedConnection } from '../store/interface/leases'
import type { ReadTx } from '../store/interface/store'
import type { StoredPollerStatus } from '../store/poller-status'
import type { ConnectionFacts } from '../sync/connection-status'

/** A connection as the status names it. */
export interface NamedConnection {
  connectionId: string
  connectionName: string
  demo: boolean
}

export class TeamStatus {
  private statuses = new Map<string, StoredPollerStatus>()
  /** Connection id → the holder of its live lease. */
  private holders = new Map<string, string>()

  constructor(
    private readonly read: ReadTx,
    private readonly leases: LeaseStore
  ) {}

  /** Reads the rows again: the statuses, and the leases held now (by the database's clock). */
  async refresh(): Promise<void> {
    const [statuses, held] = await Promise.all([this.read.coreState.pollerStatuses(), this.leases.held()])
    this.statuses = statuses
    this.holders = new Map(held.flatMap((lease) => {
      const connectionId = leasedConnection(lease.name)
      return connectionId === null ? [] : [[connectionId, lease.holder] as const]
    }))
  }

  /** The server polling the connection now, or null while nobody holds its lease. */
  holderOf(connectionId: string): string | null {
    return this.holders.get(connectionId) ?? null
  }

  /** Its facts as the last rows read say them, for a connection this server does not poll;
   *  `paused`: whether an operator paused it, as the rows say. */
  facts(connection: NamedConnection, paused: boolean): ConnectionFacts {
    const row = this.statuses.get(connection.connectionId)
    const base = { ...connection, disabled: false, paused, lastUpdateAt: row?.lastUpdateAt ?? null }
    if (this.holderOf(connection.connectionId) === null) {
      return { ...base, state: 'starting', lastError: null, offlineSince: null, unheld: true }
    }
    // 'stopped' is the last holder's farewell: the new holder has not said a word yet.
    const state = row === undefined || row.state === 'stopped' ? 'starting' : row.state
    return { ...base, state, lastError: row?.lastError ?? null, offlineSince: row?.offlineSince ?? null }
  }
}
