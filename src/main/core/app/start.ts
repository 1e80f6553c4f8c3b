// Composition of the core: the cache, the connections (the demo simulator while none is
// enabled), one poller each, the event hub and the request handlers. Every face starts here.
import { randomUUID } from 'node:crypto'
import { realTimers } from '../../../shared/timers'
import type { LinkBase } from '../../../shared/session-link'
import { RequestLimiter } from '../api/limiter'
import { ConnectionService } from '../connections/service'
import { osKeychain, type SecretStore } from '../secrets/keychain'
import type { SecretsOn } from '../store/sealed-secrets'
import { WebhookService } from '../webhooks/service'
import { startWebhookDeliveries } from '../webhooks/wiring'
import { WebhookOutbox } from '../webhooks/outbox'
import { openCache } from '../store/open-cache'
import type { Store } from '../store/interface/store'
import { RetentionJob } from '../store/retention-job'
import { alertHandlers } from '../alerts/handlers'
import type { Cadences } from '../sync/poller'
import { recordDiagnosticAside } from '../sync/pending-diagnostics'
import type { CadenceSettings } from '../../../shared/settings'
import { startDemoSource, type DataSource } from './demo-source'
import { createDispatch } from './dispatch'
import { EventHub } from './event-hub'
import { PollerGroup } from './pollers'
import { screenHandlers } from './screen-handlers'
import { enabledSavedSources } from './saved-sources'
import type { AppCoreOptions, LocalAppCore } from './types'
import { auditEntryOf } from '../team/audit-entry'
import { TeamUsers } from '../team/users'
import { teamStoreOn } from '../team/team-store'
import { teamConfigFile } from '../team/team-config'
import { teamHandlers } from '../team/team-handlers'
import { deskHandlers } from './desk-handlers'
import { settingsHandlers } from './settings-handlers'
import { pollingHandlers } from './polling-handlers'
import { connectionHandlers } from './connection-handlers'
import { webhookHandlers } from './webhook-handlers'
import { maintenanceHandlers } from './maintenance-handlers'
import { windowsInForce } from '../alerts/maintenance-in-force'
import { typedFace } from './typed-face'
import { CoreMetrics } from '../metrics/metrics'
import { observability } from './observability'
import { ConnectionLeases } from './connection-leases'
import { PassLeases } from './pass-leases'
import { leaseHolderId } from '../sync/lease-keeper'
import { fencedStore } from '../store/fenced-store'
import { ServerRelay } from '../fanout/server-relay'
import { PollAsker } from './poll-request-asker'
import { PollAnswerer } from './poll-request-answerer'
import { followOtherServersSettings } from '../fanout/settings-follower'


const toCadences = (s: CadenceSettings): Cadences => ({
  discoveryMs: s.discoverySeconds * 1000,
  detailMs: s.detailSeconds * 1000,
  viewersMs: s.viewersSeconds * 1000
})

/** The jobs of a team that one server runs at a time, by lease. */
const LEASED_JOBS = ['retention', 'repeats'] as const

const RETENTION_INTERVAL_MS = 60 * 60_000
/** Not at start-up, when the first polls want the disk. */
const RETENTION_FIRST_DELAY_MS = 5 * 60_000

/**
 * `secrets`: the keychain of every secret (a test's stand-in; default the OS keychain).
 * `secretsOn`: where the connections' and webhooks' secrets are kept instead, chosen from the
 * configuration once the store is open (`chooseSecrets`, store/sealed-secrets.ts: sealed in a
 * postgres:// database under the key file). A desk's own (its team token) stay in `secrets`.
 */
export async function startAppCore(options: AppCoreOptions & { secrets?: SecretStore; secretsOn?: SecretsOn }): Promise<LocalAppCore> {
  // The cache behind the async Store (docs/store.md): a SQLite file, or a PostgreSQL database.
  const cache = await openCache(options.db, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
  const { store } = cache
  const hub = new EventHub()
  const clock = options.clock ?? Date.now
  const polling = options.polling ?? true
  // Viewer lists are stored off this thread where the backend can (SQLite's cache writer): a list
  // of a million viewers never blocks this one (the main process, or the browser host's server).
  // A core without polling (one CLI change) stores none: no writer thread for it.
  // Several servers on one PostgreSQL database share the connections and the team's jobs by lease
  // (docs/scaling-plan.md section 2); SQLite has none: one core per file polls everything. A
  // one-shot pass (`sync --once`) takes no share: it polls what it was asked to, at once.
  const leased = store.leases !== undefined && polling && !options.passesOnRequest
  // A one-shot pass asked to (`sync --once`) takes the leases of what it polls, for its run alone.
  const passLeases =
    store.leases && polling && options.passesOnRequest && options.leasePasses ? new PassLeases(store.leases, leaseHolderId(), options.timers) : undefined
  const fenceOf = passLeases ? (connectionId: string) => passLeases.leaseOf(connectionId) : undefined
  const viewerStore = cache.viewerLists({
    offThread: polling,
    // Where servers share the connections: each list's writes fenced with its connection's lease.
    ...(leased ? { fenceOf: (connectionId: string) => leases?.leaseOf(connectionId) ?? null } : fenceOf ? { fenceOf } : {}),
    onFallback: (reason) =>
      recordDiagnosticAside(store, {
        connectionId: null,
        at: clock(),
        kind: 'storage',
        endpoint: 'cache writer',
        message: `${reason}; viewer lists are stored on the main thread from now on`
      })
  })
  // Every alert fired, resolved or acknowledged is queued here in the transaction that records it.
  // Where every alert's and report's link leads: decided once, here, for every face.
  const linkBase = options.linkBase ?? ((): LinkBase => ({ kind: 'desk' }))
  const outbox = new WebhookOutbox(linkBase)
  // What the process counts of itself: polls, their errors, open streams, push lag (GET /metrics).
  const metrics = new CoreMetrics()
  const closeOnFailure = async <T>(step: Promise<T>): Promise<T> => {
    try {
      return await step
    } catch (error) {
      await viewerStore.close()
      await store.close()
      throw error
    }
  }
  // Cadences from the command line hold for the run; otherwise the stored settings.
  const cadences = options.cadences ?? toCadences(await closeOnFailure(store.read.settings.get('cadences')))
  // Several servers on one database (PostgreSQL: the store has notifications) each push their own
  // diffs of the board: each counts its board's revisions alone. A SQLite core is its file's one server.
  const severalServers = store.notifications !== undefined
  const leases: ConnectionLeases | undefined =
    leased && store.leases
      ? new ConnectionLeases(store.leases, store, {
          holder: leaseHolderId(),
          ...(options.leaseTiming ? { timing: options.leaseTiming } : {}),
          metrics,
          clock,
          ...(options.timers ? { timers: options.timers } : {}),
          // The staged viewer lists its last holder was writing when it died or stalled.
          takenOver: async (connectionId) => viewerStore.dropAbandonedStagings?.(connectionId),
          // LEASED_JOBS: each run by one server of the team.
          jobs: {
            retention: {
              started: () => retention.start(RETENTION_INTERVAL_MS, RETENTION_FIRST_DELAY_MS),
              stopped: (): Promise<void> => retention.stop()
            },
            // Monitor.repeatTick runs while this server holds it (PollerGroup passes its lease).
            repeats: { started: () => undefined, stopped: () => undefined }
          }
        })
      : undefined
  // Where servers share the connections, a request that needs a poller another server runs is
  // asked of that server (poll_requests, docs/scaling-plan.md section 2), and this one answers
  // what the others ask of the connections it holds.
  const asker = leases ? await closeOnFailure(PollAsker.start(store, { holder: leases.holder, ...(options.timers ? { timers: options.timers } : {}) })) : undefined
  let answering: Awaited<ReturnType<typeof PollAnswerer.start>> | undefined
  // Its Monitor begins the alerts' and the board's epochs before anything is pushed.
  const pollers = await closeOnFailure(
    PollerGroup.open(store, hub, cadences, {
      // The headless face's (`eventwatch sync`): one pass when asked, its bound, its summary lines.
      passesOnRequest: options.passesOnRequest,
      passDeadlineMs: options.passDeadlineMs,
      onPolled: options.onPolled,
      clock,
      viewerStore,
      outbox,
      metrics,
      boardCountsAlone: severalServers,
      ...(options.timers ? { timers: options.timers } : {}),
      ...(leases ? { leases } : {}),
      ...(fenceOf ? { fenceOf } : {}),
      ...(asker ? { asker, pollerStarted: (connectionId: string) => answering?.answerer.pickUp(connectionId) } : {}),
      // Saved connections changed on another server of the team: choose the sources again here.
      ...(leases && !options.sources ? { sourcesStale: () => void reconcile() } : {})
    })
  )
  const polled = (): string[] => pollers.sources.map((s) => s.target.id)
  if (leases) answering = await closeOnFailure(PollAnswerer.start(store, pollers, { holder: leases.holder, leaseOf: (id) => leases.leaseOf(id) }))
  const { monitor } = pollers
  // What the other servers' units change reaches this one's faces too, from LISTEN/NOTIFY
  // (core/fanout/): started before the pollers, so its pushes and theirs go out in revision order.
  // A core for changes only (a CLI command) has no faces to push to.
  const relay =
    severalServers && polling
      ? await closeOnFailure(ServerRelay.start(store, monitor, { clock, ...(options.timers ? { timers: options.timers } : {}) }))
      : null
  const keptSecrets = options.secretsOn?.(store) ?? options.secrets ?? osKeychain()
  const connections = new ConnectionService(store, keptSecrets, { polled })
  // One gate for every connection: at most 4 requests in flight and 10 started per second.
  const limiter = new RequestLimiter({ maxInFlight: 4, perSecond: 10 })

  const chooseSources = async (): Promise<DataSource[]> => {
    if (options.sources) return options.sources(store)
    // What a client records (a retry, a skipped record) is fenced with its connection's lease too:
    // a server that stalled past it and woke writes nothing for it.
    const leaseOf = leases ? (id: string) => leases.leaseOf(id) : fenceOf
    const writesOf = (id: string): Store =>
      leaseOf ? fencedStore(store, () => leaseOf(id), () => new Error(`this server holds no lease of connection ${id}`)) : store
    const saved = await enabledSavedSources(store, connections, limiter, writesOf)
    if (saved.length > 0) return saved
    const incident = options.demoIncidentAfterSeconds
    const simulator = {
      seed: options.demoSeed ?? 42,
      ...(options.demoLiveSessions !== undefined ? { liveSessions: options.demoLiveSessions } : {}),
      ...(incident !== undefined ? { incident: { afterMs: incident * 1000 } } : {})
    }
    return [await startDemoSource(store, simulator, limiter)]
  }

  // Connections changed: stop every poller (each finishes its unit of work), start afresh.
  let reconciling: Promise<void> = Promise.resolve()
  const reconcile = (): Promise<void> => {
    if (!polling) return reconciling
    reconciling = reconciling.then(async () => {
      await pollers.stop()
      await pollers.start(await chooseSources())
      pollers.publishStatus()
    })
    return reconciling
  }

  // This core among the team's servers, when there are several (a settings save says who saved it).
  const origin = severalServers ? randomUUID() : undefined
  // The app's settings, and on a team server each user's own display over them.
  const settings = settingsHandlers({
    store,
    hub,
    cadencesSaved: async (cadences) => {
      if (options.cadences) return
      pollers.setCadences(toCadences(cadences))
      await reconcile()
    },
    levelsSaved: () => monitor.publishBoard(),
    // A rule switched off ends its alerts now, not at the next poll (the clock judges only time).
    // Each server judges the connections it polls: the team's others hear the save (ew_settings).
    alertRulesSaved: async () => {
      await Promise.all(polled().filter((id) => pollers.pollerOf(id) !== undefined).map((id) => pollers.reevaluate(id)))
    },
    ...(origin !== undefined ? { origin } : {})
  })
  // Settings saved on another server of the team take effect here too, and reach this one's pages.
  const stopFollowingSettings =
    origin !== undefined && polling
      ? await closeOnFailure(
          followOtherServersSettings(store, origin, settings).catch(async (error: unknown) => {
            await settings.stop()
            throw error
          })
        )
      : null

  if (polling) {
    // The first start is the first reconciliation: a save heard meanwhile restarts after it.
    const first = (async () => {
      const sources = await chooseSources()
      if (passLeases) {
        try {
          for (const source of sources) await passLeases.take(source.target.id, source.target.name)
        } catch (error) {
          await passLeases.release()
          await Promise.all(sources.map((source) => source.close().catch(() => undefined)))
          throw error
        }
      }
      return pollers.start(sources)
    })()
    reconciling = first.catch(() => undefined)
    await closeOnFailure(first)
  }
  // Old snapshots and viewer lists go in small batches, hourly, without holding up the UI; on a
  // team's database, by the one server holding the job's lease, each unit fenced with it.
  const retentionWrites: Store = leases
    ? fencedStore(store, () => leases.jobLease('retention'), () => new Error('this server no longer runs retention: another server of the team took the job over'))
    : store
  const retention: RetentionJob = new RetentionJob(retentionWrites, {
    clock,
    ...(cache.compaction ? { compaction: cache.compaction } : {}),
    ...(options.timers ? { timers: options.timers } : {})
  })
  // Webhooks: what the outbox holds goes out, also what an earlier run queued.
  const webhooks = new WebhookService(store, keptSecrets, clock, linkBase)
  const deliveries = polling ? startWebhookDeliveries(store, outbox, webhooks, { clock, timers: options.timers ?? realTimers }) : null
  if (leases) leases.start(pollers)
  else if (polling) retention.start(RETENTION_INTERVAL_MS, RETENTION_FIRST_DELAY_MS)

  // The team's users and audit log, behind the interface a shared store will implement too.
  const team = teamStoreOn(store)
  const users = new TeamUsers(team, clock)
  const dispatch = createDispatch({
    ...deskHandlers({ teamFile: options.teamFile ?? teamConfigFile(), secrets: options.secrets ?? osKeychain() }),
    ...teamHandlers(users, team.audit),
    ...screenHandlers(store, { polled, realConnectionPolled: () => pollers.sources.some((s) => !s.isDemo), linkBase }),
    ...alertHandlers(store, {
      clock,
      situation: () => monitor.situation(),
      changes: monitor.changes,
      publishAlerts: (change, announcement) => monitor.publishAlerts(change, announcement),
      publishBoard: () => monitor.publishBoard(),
      reevaluate: (connectionId) => pollers.reevaluate(connectionId)
    }),
    ...pollingHandlers({ store, pollers, monitor, connections, limiter }),
    ...connectionHandlers({ store, connections, monitor, reconcile }),
    ...webhookHandlers(webhooks),
    ...maintenanceHandlers({ store, monitor, clock, windowsInForce: (now) => windowsInForce(store.read.maintenance, now) }),
    ...settings.handlers
  }, {
    // Every change, whoever made it, with its author: the team's audit list.
    changed: (name, args, context) => team.audit.record(auditEntryOf(name, args, context), clock()),
    // The same row written by a handler's unit of work (an acknowledgement, a setting saved): it commits with the change.
    changedIn: (audit, name, args, context) => audit.record(auditEntryOf(name, args, context), clock())
  })

  let closed = false
  return {
    dispatch,
    ...typedFace(dispatch, (listener) => hub.subscribe(listener)),
    completePasses: (passOptions) => pollers.completePasses(passOptions),
    // A core without polling sends nothing: what waits is sent by the next one that polls.
    deliverDue: async (signal) => (deliveries ? deliveries.deliverer.deliverDue(signal) : { waiting: (await store.read.webhooks.outboxHeads()).length }),
    users,
    onEvent: (listener, context) => {
      // Each face's subscription is an open stream (a page's event stream) until it unsubscribes.
      const closed = metrics.streamOpened()
      const unsubscribe = hub.subscribe(context ? settings.pushesFor(listener, context) : listener)
      return () => {
        closed()
        unsubscribe()
      }
    },
    observe: observability({
      store,
      counters: metrics,
      connections: () => pollers.status().connections,
      clock,
      ...(leases ? { leases: { held: () => leases.heldNow(), heldHere: () => leases.heldHere(), jobs: LEASED_JOBS } } : {})
    }),
    recordProblem: ({ endpoint, message }) => {
      if (!closed) recordDiagnosticAside(store, { connectionId: null, at: clock(), kind: 'app', endpoint, message })
    },
    close: async () => {
      if (closed) return
      closed = true
      await stopFollowingSettings?.()
      await settings.stop()
      await reconciling.catch(() => undefined)
      // What this server waits for from others ends now, its requests withdrawn.
      await asker?.stop()
      // Every poller stopped and every lease released at once: a peer takes them over now, not
      // when they run out.
      await leases?.stop()
      // What others asked of its pollers answered (those cut short, with why).
      await answering?.stop()
      await relay?.stop()
      await retention.stop()
      await pollers.stop()
      await passLeases?.release()
      await deliveries?.stop()
      await viewerStore.close()
      await store.close()
    }
  }
}
