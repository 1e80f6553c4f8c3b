// What this process measures of itself, for `GET /metrics` (docs/health-and-metrics.md): counters
// and a histogram the core updates as it works, read as metric families that a face writes out
// (web/exposition.ts, the Prometheus text format). Only what is measured here: no placeholder.
// Pure bookkeeping, no I/O: the figures read from the store at scrape time are added by app/.

export type MetricType = 'counter' | 'gauge' | 'histogram'

export interface Sample {
  /** Added to the family's name: a histogram's `_bucket`, `_sum` and `_count`. */
  suffix?: '_bucket' | '_sum' | '_count'
  labels: Readonly<Record<string, string>>
  value: number
}

export interface MetricFamily {
  name: string
  help: string
  type: MetricType
  samples: Sample[]
}

/** Seconds; the histogram's upper bounds (`le`), +Inf implied. */
export const PUSH_LAG_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const

export type PollKind = 'discovery' | 'details' | 'once'

interface PollCounts {
  connectionId: string
  connectionName: string
  kind: PollKind
  polls: number
  errors: number
}

interface Histogram {
  buckets: number[]
  sum: number
  count: number
}

export class CoreMetrics {
  private readonly polls = new Map<string, PollCounts>()
  private streams = 0
  private readonly lags = new Map<string, Histogram>()
  /** Per lease name, how many times this process took it over from another holder. */
  private readonly takeovers = new Map<string, number>()

  /** A poller's unit of work ended: a pass (discovery, once) or a round of details; `failed`: it
   *  could not do its work (the service unreachable, refused, or every request of it failed). */
  pollEnded(connection: { id: string; name: string }, kind: PollKind, failed: boolean): void {
    const key = JSON.stringify([connection.id, kind])
    const counts = this.polls.get(key) ?? { connectionId: connection.id, connectionName: connection.name, kind, polls: 0, errors: 0 }
    counts.connectionName = connection.name // renamed: the newest name
    counts.polls++
    if (failed) counts.errors++
    this.polls.set(key, counts)
  }

  /** A face's push subscription (a page's event stream, a window) opened; the function closes it once. */
  streamOpened(): () => void {
    this.streams++
    let open = true
    return () => {
      if (open) this.streams--
      open = false
    }
  }

  /** A push left `seconds` after the commit it announces. */
  pushed(event: string, seconds: number): void {
    const histogram = this.lags.get(event) ?? { buckets: PUSH_LAG_BUCKETS.map(() => 0), sum: 0, count: 0 }
    PUSH_LAG_BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) histogram.buckets[i]!++
    })
    histogram.sum += seconds
    histogram.count++
    this.lags.set(event, histogram)
  }

  /** This process took a lease over (its fence past 1): a connection or a job another server held. */
  leaseTakenOver(lease: string): void {
    this.takeovers.set(lease, (this.takeovers.get(lease) ?? 0) + 1)
  }

  /** What has been counted so far, as metric families. */
  families(): MetricFamily[] {
    const polls = [...this.polls.values()]
    const labelsOf = (c: PollCounts): Record<string, string> => ({ connection_id: c.connectionId, connection_name: c.connectionName, kind: c.kind })
    const lagSamples = [...this.lags.entries()].flatMap(([event, h]): Sample[] => [
      ...PUSH_LAG_BUCKETS.map((bound, i): Sample => ({ suffix: '_bucket', labels: { event, le: String(bound) }, value: h.buckets[i]! })),
      { suffix: '_bucket', labels: { event, le: '+Inf' }, value: h.count },
      { suffix: '_sum', labels: { event }, value: h.sum },
      { suffix: '_count', labels: { event }, value: h.count }
    ])
    return [
      {
        name: 'eventwatch_polls_total',
        help: 'Units of work a connection poller ended (kind: discovery pass, details round, once), since this process started.',
        type: 'counter',
        samples: polls.map((c) => ({ labels: labelsOf(c), value: c.polls }))
      },
      {
        name: 'eventwatch_poll_errors_total',
        help: 'Units of work a connection poller ended without doing its work (service unreachable or refusing, every request failed).',
        type: 'counter',
        samples: polls.map((c) => ({ labels: labelsOf(c), value: c.errors }))
      },
      { name: 'eventwatch_event_streams_open', help: 'Push subscriptions of faces open now (each page\'s event stream).', type: 'gauge', samples: [{ labels: {}, value: this.streams }] },
      {
        name: 'eventwatch_lease_takeovers_total',
        help: 'Leases this process took over from another holder (a connection: connection:<id>; a job: job:<name>), since it started.',
        type: 'counter',
        samples: [...this.takeovers.entries()].map(([lease, count]) => ({ labels: { lease }, value: count }))
      },
      {
        name: 'eventwatch_push_lag_seconds',
        help: 'Time from the commit a push announces to the push leaving for every open event stream.',
        type: 'histogram',
        samples: lagSamples
      }
    ]
  }
}
