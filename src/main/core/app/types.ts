// The core as every face sees it: requests in, results and pushed events out.
import type { EventName, EventPayload, RequestArgs, RequestContext, RequestName, RequestResult } from '../../../shared/contract'
import type { Result } from '../../../shared/result'
import type { Store } from '../store/interface/store'
import type { Timers } from '../../../shared/timers'
import type { LinkBase } from '../../../shared/session-link'
import type { Cadences } from '../sync/poller'
import type { DataSource } from './demo-source'
import type { CompletedPass, PollerGroupOptions } from './pollers'
import type { SyncProgress } from '../sync/sync-pass'
import type { TeamUsers } from '../team/users'
import type { Observability } from './observability'
import type { LeaseTiming } from './connection-leases'

export type EventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void

/** How the team server finds who is asking (core/team/users.ts). */
export type TeamDirectory = Pick<TeamUsers, 'byToken' | 'signIn' | 'bySession' | 'signOut' | 'list'>

export interface AppCore {
  /** Validates `args` against the contract and the actor's role, runs the handler, never throws.
   *  Without a context the machine's own administrator asks (desktop, CLI, loopback host). */
  dispatch(name: unknown, args: unknown, context?: RequestContext): Promise<Result<unknown>>
  /** The same, typed as AppClient's (shared/client.ts): for callers in this process, such as the CLI. */
  request<N extends RequestName>(name: N, args: RequestArgs<N>, context?: RequestContext): Promise<Result<RequestResult<N>>>
  /** One pushed event; returns the unsubscribe function. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void
  /** Pushed events (sessionsChanged, statusChanged, alertsChanged, …) as `context` sees them (a
   *  team user's settings carry their own display); returns the unsubscribe function. */
  onEvent(listener: EventListener, context?: RequestContext): () => void
  /** Keeps a problem of the app itself (not of a connection) in Diagnostics: a window's page that crashed. */
  recordProblem(problem: { endpoint: string; message: string }): void
  /** The team server's users (absent on a core that is itself a team server's client). */
  users?: TeamDirectory
  /** Readiness and the figures of this process (GET /readyz, /metrics): a core with a store of its
   *  own has them; a team server's client has not. */
  observe?: Observability
  /** Stops polling, closes the database and the embedded simulator. */
  close(): Promise<void>
}

export interface AppCoreOptions {
  /** The cache: a SQLite file, or a PostgreSQL database's `postgres://` URL (store/cache-location.ts). */
  db: string
  /** Path to a better-sqlite3 binary built for the running runtime (Electron needs its own). */
  nativeBinding?: string
  /** Poll cadences (defaults: discovery 30 s, live details 15 s, viewers 60 s). */
  cadences?: Partial<Cadences>
  /** Seed of the demo simulator, for repeatable demos and tests. */
  demoSeed?: number
  /** After this many seconds, the demo's first live session drops 25 points for 10 minutes (e2e tests). */
  demoIncidentAfterSeconds?: number
  /** Live demo sessions at start (default 6): the e2e tests measure the UI with 4 and with 40. */
  demoLiveSessions?: number
  /** One clock and one set of timers for the pollers, the alert rules and retention (tests move them by hand). */
  clock?: () => number
  timers?: Timers
  /** This desk's team-server file (Settings → Team server); default: beside the default cache. */
  teamFile?: string
  /** False: a core for changes only (a CLI command such as `connections add`): no pollers, no
   *  demo simulator, no retention job, no webhook deliveries; requests and the audit log as ever. */
  polling?: boolean
  /** What to poll instead of the saved connections (the CLI's `serve --connection …`). */
  sources?: (store: Store) => Promise<DataSource[]>
  /** Passes only when asked (LocalAppCore.completePasses), none on the cadences: `eventwatch sync --once`. */
  passesOnRequest?: boolean
  /** With passesOnRequest, on a team's PostgreSQL database: the pass takes each connection's lease
   *  first (refused while a server of the team holds it) and writes fenced with it (pass-leases.ts). */
  leasePasses?: boolean
  /** Bound on one full pass (`eventwatch sync --deadline`; sync-pass.ts's default when absent). */
  passDeadlineMs?: number
  /** After each full pass of a connection, what it fetched (`eventwatch sync`'s summary lines). */
  onPolled?: PollerGroupOptions['onPolled']
  /** On a team's PostgreSQL database: how long a lease lasts and how often it is renewed (default
   *  30 s and 10 s). Shorter ones are for tests, and for operators who know why (`serve`'s hidden
   *  --lease-seconds). */
  leaseTiming?: Partial<LeaseTiming>
  /** Where the links in alerts (webhook bodies) and reports lead: a team server's own page
   *  (`serve`: its --public-url, or the address it listens on, known once it listens), or the
   *  desk's eventwatch:// link (the desktop app, `sync`, `report`) when absent. Asked each time. */
  linkBase?: () => LinkBase
}

/**
 * A core polling on this machine (startAppCore's), as the headless face drives it besides the app
 * API: `eventwatch sync --once` asks for one pass, then sends what it queued before it ends.
 */
export interface LocalAppCore extends AppCore {
  /** One complete pass of every connection polled, each judged as it ends; `signal` stops them. */
  completePasses(options: { signal?: AbortSignal; onProgress?: (progress: SyncProgress) => void }): Promise<CompletedPass[]>
  /** Sends the webhook deliveries due now, until they are sent or retried later, or `signal`;
   *  says how many webhooks still have one waiting in the outbox (sent by the next run). */
  deliverDue(signal: AbortSignal): Promise<{ waiting: number }>
}
