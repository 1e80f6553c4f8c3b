// A one-shot pass (`eventwatch sync --once`) on a team's database. The team's connections are
// each polled by its lease's holder alone (docs/scaling-plan.md section 2), and a pass beside a
// server would poll and write unfenced beside it. So the pass takes the lease of each connection it
// polls first — refused, in one sentence, while a server of the team holds it —, renews them while
// it runs, writes every unit fenced with them, and releases them at its end, for a server to take.
import { connectionLease, LEASE_LENGTH_MS, LEASE_RENEWAL_MS, type Lease, type LeaseStore } from '../store/interface/leases'
import { realTimers, type Timers } from '../../../shared/timers'
import { startBlindClock } from './blind-clock'

export class PassLeases {
  private readonly held = new Map<string, Lease>()
  private stopRenewing: (() => void) | null = null
  private renewing: Promise<void> = Promise.resolve()

  constructor(
    private readonly leases: LeaseStore,
    readonly holder: string,
    private readonly timers: Timers = realTimers
  ) {}

  /** Takes `connectionId`'s lease for the pass; throws, naming the holder, while another has it. */
  async take(connectionId: string, name: string): Promise<void> {
    const lease = await this.leases.acquire(connectionLease(connectionId), this.holder, LEASE_LENGTH_MS)
    if (!lease) {
      const holder = (await this.leases.get(connectionLease(connectionId)))?.holder ?? 'another server'
      throw new Error(
        `connection "${name}" is polled by the team's server ${holder}, so this pass would poll it beside that server: ` +
          'ask that server to refresh it (Refresh now), or run the pass while no server polls it'
      )
    }
    this.held.set(connectionId, lease)
    this.stopRenewing ??= startBlindClock(this.timers, () => void this.renew(), LEASE_RENEWAL_MS)
  }

  /** The lease a unit for `connectionId` is fenced with; null once lost (its writes are refused). */
  leaseOf(connectionId: string): Lease | null {
    return this.held.get(connectionId) ?? null
  }

  /** Every lease given up at once, for a server of the team to take at its next pass. */
  async release(): Promise<void> {
    this.stopRenewing?.()
    this.stopRenewing = null
    await this.renewing
    const leases = [...this.held.values()]
    this.held.clear()
    await Promise.all(leases.map((lease) => this.leases.release(lease).catch(() => false)))
  }

  private renew(): Promise<void> {
    this.renewing = this.renewing.then(async () => {
      const sent = [...this.held.entries()]
      if (sent.length === 0) return
      const renewed = new Map((await this.leases.renew(sent.map(([, lease]) => lease), LEASE_LENGTH_MS).catch(() => [])).map((l) => [l.name, l]))
      // One not renewed was taken by a server (or the database was out of reach): its writes stop.
      for (const [connectionId, lease] of sent) {
        const next = renewed.get(lease.name)
        if (next) this.held.set(connectionId, next)
        else this.held.delete(connectionId)
      }
    })
    return this.renewing
  }
}
