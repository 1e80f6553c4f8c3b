// A server's health and figures, decided here for every face that serves them (web/probes.ts,
// GET /metrics): whether the database is reachable with a current schema (readiness), and the
// metric families of this process — the counters the core keeps (core/metrics), each connection's
// state as the core decided it, and the webhook outbox as the store holds it now.
import type { ConnectionPollStatus } from '../../../shared/poll-status'
import { CONNECTION_POLL_STATES } from '../../../shared/poll-status'
import type { CoreMetrics, MetricFamily } from '../metrics/metrics'
import { isSharedDatabase } from '../secrets/choice'
import { StorageError } from '../storage-faults'
import type { Store } from '../store/interface/store'
import { connectionLease, jobLease, type Lease } from '../store/interface/leases'

export type Readiness = { ready: true; schema: number } | { ready: false; reason: string }

export interface Observability {
  /** The database answers, and its schema is this build's: else why not, in one line. */
  ready(): Promise<Readiness>
  /** Every figure of this process now. */
  metrics(): Promise<MetricFamily[]>
}

/** A probe answers within this, or says the database did not. */
export const READY_WITHIN_MS = 2000

export interface ObservabilityDeps {
  store: Store
  counters: CoreMetrics
  /** Each connection's status as the core decided it (PollerGroup.status().connections). */
  connections(): ConnectionPollStatus[]
  clock(): number
  /** Where servers share the connections and jobs by lease (PostgreSQL): the leases held now, as
   *  the database says (every server the same), and those this server holds. */
  leases?: { held(): Promise<Lease[]>; heldHere(): Lease[]; jobs: readonly string[] }
}

export function observability(deps: ObservabilityDeps): Observability {
  return {
    ready: () => readiness(deps.store),
    async metrics() {
      const pending = await deps.store.read.webhooks.pending()
      const connections = deps.connections()
      const leases = deps.leases ? await leaseFamilies(deps.leases, connections) : []
      const oldestAge = pending.oldestQueuedAt === null ? 0 : Math.max(0, (deps.clock() - pending.oldestQueuedAt) / 1000)
      return [
        ...deps.counters.families(),
        {
          name: 'eventwatch_connection_state',
          help: 'Each polled (or switched off) connection\'s state as the core decided it: 1 for its state now, 0 for the others.',
          type: 'gauge',
          samples: connections.flatMap((c) =>
            CONNECTION_POLL_STATES.map((state) => ({
              labels: { connection_id: c.connectionId, connection_name: c.connectionName, state },
              value: c.state === state ? 1 : 0
            }))
          )
        },
        { name: 'eventwatch_webhook_outbox_depth', help: 'Webhook deliveries waiting in the outbox (neither delivered nor given up), over every webhook.', type: 'gauge', samples: [{ labels: {}, value: pending.count }] },
        {
          name: 'eventwatch_webhook_outbox_oldest_pending_age_seconds',
          help: 'How long the oldest waiting webhook delivery has waited since it was queued (0 when none waits).',
          type: 'gauge',
          samples: [{ labels: {}, value: oldestAge }]
        },
        ...leases
      ]
    }
  }
}

/** Who holds each polled connection's lease and each job's now, and what this server holds. */
async function leaseFamilies(leases: NonNullable<ObservabilityDeps['leases']>, connections: ConnectionPollStatus[]): Promise<MetricFamily[]> {
  const holders = new Map((await leases.held()).map((lease) => [lease.name, lease.holder]))
  const here = new Set(leases.heldHere().map((lease) => lease.name))
  const polled = connections.filter((c) => c.state !== 'disabled')
  const labelsOf = (c: ConnectionPollStatus): Record<string, string> => ({ connection_id: c.connectionId, connection_name: c.connectionName })
  const holderOf = (name: string): string => holders.get(name) ?? ''
  return [
    {
      name: 'eventwatch_connection_lease',
      help: 'Which server holds each polled connection\'s lease now (holder: host:pid:boot), as the database says: 1, or 0 with holder "" while none does.',
      type: 'gauge',
      samples: polled.map((c) => {
        const holder = holderOf(connectionLease(c.connectionId))
        return { labels: { ...labelsOf(c), holder }, value: holder === '' ? 0 : 1 }
      })
    },
    {
      name: 'eventwatch_connection_lease_held_here',
      help: 'Whether this server holds the connection\'s lease (and polls it): 1 or 0.',
      type: 'gauge',
      samples: polled.map((c) => ({ labels: labelsOf(c), value: here.has(connectionLease(c.connectionId)) ? 1 : 0 }))
    },
    {
      name: 'eventwatch_job_lease',
      help: 'Which server runs each job of the team now (retention, repeats), as the database says: 1, or 0 with holder "" while none does.',
      type: 'gauge',
      samples: leases.jobs.map((job) => {
        const holder = holderOf(jobLease(job))
        return { labels: { job, holder }, value: holder === '' ? 0 : 1 }
      })
    }
  ]
}

/** Asks the store for the schema afresh; the reason says what is wrong in one line, without the
 *  cache's path (a probe answers anyone who can reach the port). */
export async function readiness(store: Store, withinMs = READY_WITHIN_MS): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${withinMs / 1000} s`)), withinMs)
  })
  try {
    const { found, known } = await Promise.race([store.schema(), late])
    if (found > known) return { ready: false, reason: `the database's schema is ${found}, newer than this build's ${known}: upgrade this server` }
    if (found < known) return { ready: false, reason: `the database's schema is ${found}, older than this build's ${known}: it has not been migrated` }
    return { ready: true, schema: found }
  } catch (error) {
    return { ready: false, reason: `the database cannot be read: ${oneLine(error)}` }
  } finally {
    clearTimeout(timer)
  }
}

function oneLine(error: unknown): string {
  let words = error instanceof Error ? error.message : String(error)
  // The path or URL left out (a probe answers anyone), in words that still say which database it is.
  if (error instanceof StorageError && error.file) words = words.split(error.file).join(isSharedDatabase(error.file) ? "the team's database" : 'the cache file')
  return words.replace(/\s+/g, ' ').trim()
}
