// The app core as the tests drive it, through its contract like every face: requests that must
// succeed, pushes recorded as they come, simulators saved as connections (their secrets in a
// keychain of the test's own), and waits on what the core says — never on a set time.
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore, AppCoreOptions } from '../../src/main/core/app/types'
import { ConnectionService } from '../../src/main/core/connections/service'
import { osKeychain, type SecretStore } from '../../src/main/core/secrets/keychain'
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/main/core/simulator/server'
import { openCache } from '../../src/main/core/store/open-cache'
import type { ConnectionInput } from '../../src/shared/connections'
import type { EventName, EventPayload, RequestName } from '../../src/shared/contract'
import type { Status } from '../../src/shared/domain'

/** Work to undo after a test (or a file): run last-in, first-out by `runAll`. */
export class Cleanups {
  private readonly undo: (() => Promise<unknown> | unknown)[] = []
  add(fn: () => Promise<unknown> | unknown): void {
    this.undo.push(fn)
  }
  async runAll(): Promise<void> {
    for (const fn of this.undo.splice(0).reverse()) await fn()
  }
}

/** Cleanups run after the file's last test: call at a test file's top level. */
export function cleanupsAfterAll(): Cleanups {
  const cleanups = new Cleanups()
  afterAll(() => cleanups.runAll())
  return cleanups
}

/** A request that must succeed: its value, or a thrown error naming the request. */
export async function value<T>(core: AppCore, name: RequestName, args: unknown = {}): Promise<T> {
  const result = await core.dispatch(name, args)
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
  return result.value as T
}

/** Every push of a core from now on, in order, and waits for the next one that passes a test. */
export class Pushes {
  private readonly seen: { name: EventName; payload: unknown }[] = []
  private readonly waiting = new Set<(name: EventName, payload: unknown) => void>()

  constructor(core: AppCore) {
    core.onEvent((name, payload) => {
      this.seen.push({ name, payload })
      for (const waiter of [...this.waiting]) waiter(name, payload)
    })
  }

  of<E extends EventName>(name: E): EventPayload<E>[] {
    return this.seen.filter((p) => p.name === name).map((p) => p.payload as EventPayload<E>)
  }

  /** How many pushes of this name so far: `since(name, mark)` gives the ones after. */
  count(name: EventName): number {
    return this.of(name).length
  }

  since<E extends EventName>(name: E, mark: number): EventPayload<E>[] {
    return this.of(name).slice(mark)
  }

  /** The next push of `name` (after this call) that passes `test`. */
  next<E extends EventName>(name: E, test: (payload: EventPayload<E>) => boolean = () => true, timeoutMs = 15_000): Promise<EventPayload<E>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(waiter)
        reject(new Error(`no ${name} push passed the test within ${timeoutMs} ms`))
      }, timeoutMs)
      const waiter = (pushed: EventName, payload: unknown): void => {
        if (pushed !== name || !test(payload as EventPayload<E>)) return
        clearTimeout(timer)
        this.waiting.delete(waiter)
        resolve(payload as EventPayload<E>)
      }
      this.waiting.add(waiter)
    })
  }
}

/** Asks getStatus until it passes `test`. */
export async function waitForStatus(core: AppCore, test: (s: Status) => boolean, timeoutMs = 15_000): Promise<Status> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const status = await value<Status>(core, 'getStatus')
    if (test(status)) return status
    if (Date.now() > until) throw new Error(`the status never matched: ${JSON.stringify(status)}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/**
 * Waits until every polled connection has finished a unit of work that ended at or after `since`
 * (the status's last update is the oldest of theirs) and none is in trouble. The pushes of that
 * work were sent before its status said so.
 */
export function settled(core: AppCore, since: number): Promise<Status> {
  return waitForStatus(core, (s) => s.pollState === 'ok' && s.lastUpdateAt !== null && Date.parse(s.lastUpdateAt) >= since)
}

/** A full pass of every polled connection now, judged and pushed before this resolves. */
export async function pollAll(core: AppCore): Promise<Status> {
  const since = Date.now()
  await value(core, 'refreshNow')
  return settled(core, since)
}

/**
 * A simulator named `name` (its own tenant and secret) whose world stands still — its clock is
 * frozen at the real now — so every poll reads the same values and only what the test changes
 * (an incident) changes. No random incidents, no sessions coming or going. Closed by `cleanups`.
 */
export async function frozenSimulator(cleanups: Cleanups, name: string, options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const frozenAt = Date.now()
  const sim = await startSimulator({
    clock: () => frozenAt,
    liveSessions: 3,
    endedSessions: 2,
    viewersPerSession: 20,
    churnSessions: false,
    randomIncidents: false,
    credentials: { clientId: `client-${name}`, clientSecret: `secret-${name}-${randomUUID()}`, platformId: `platform-${name}`, tenantId: `tenant-${name}` },
    ...options
  })
  cleanups.add(() => sim.close())
  return sim
}

/** The settings of a connection to `sim`, named `name`. */
export function simulatorSettings(sim: RunningSimulator, name: string, extra: Partial<ConnectionInput> = {}): ConnectionInput {
  const { platformId, tenantId, clientId } = sim.credentials
  return { name, baseUrl: sim.baseUrl, authUrl: sim.authUrl, platformId, tenantId, clientId, ...extra }
}

/** The OS keychain under a service name of the test's own; every account it saved is removed by `cleanups`. */
export function testKeychain(cleanups: Cleanups): SecretStore {
  const keychain = osKeychain(`eventwatch-test-${randomUUID()}`)
  const accounts = new Set<string>()
  cleanups.add(async () => {
    for (const account of accounts) await keychain.remove(account).catch(() => undefined)
  })
  return {
    save: async (account, secret) => {
      accounts.add(account)
      await keychain.save(account, secret)
    },
    read: (account) => keychain.read(account),
    remove: (account) => keychain.remove(account)
  }
}

export interface SavedSimulator {
  sim: RunningSimulator
  name: string
  extra?: Partial<ConnectionInput>
}

/** Saves simulators as connections of the cache `db` (a file or a postgres:// URL; secrets to
 *  `secrets`) before any core opens it, as an operator's earlier session would have; answers
 *  their ids by name. */
export async function saveConnections(db: string, secrets: SecretStore, saved: SavedSimulator[]): Promise<Record<string, string>> {
  const { store } = await openCache(db)
  try {
    const service = new ConnectionService(store, secrets)
    const ids: Record<string, string> = {}
    for (const { sim, name, extra } of saved) {
      ids[name] = (await service.save(simulatorSettings(sim, name, extra), sim.credentials.clientSecret)).id
    }
    return ids
  } finally {
    await store.close()
  }
}

/** An app core on `dbFile`, closed by `cleanups`. Cadences of an hour unless told: polls happen
 *  when the test asks (pollAll), not behind its back. */
export async function startCore(cleanups: Cleanups, options: AppCoreOptions & { secrets?: SecretStore }): Promise<AppCore> {
  const core = await startAppCore({ cadences: { discoveryMs: 3_600_000, detailMs: 3_600_000, viewersMs: 3_600_000 }, ...options })
  cleanups.add(() => core.close())
  return core
}

/** An app core (see startCore) whose pushes are recorded from its start, once every connection
 *  it polls has finished its first unit of work. */
export async function startSettled(
  cleanups: Cleanups,
  options: AppCoreOptions & { secrets?: SecretStore }
): Promise<{ core: AppCore; pushes: Pushes }> {
  const started = Date.now()
  const core = await startCore(cleanups, options)
  const pushes = new Pushes(core)
  await settled(core, started)
  return { core, pushes }
}

/** A new cache in `dir` with these simulators saved as connections, and a settled core on it. */
export async function coreWithConnections(
  cleanups: Cleanups,
  dir: string,
  saved: SavedSimulator[],
  options: Partial<AppCoreOptions> = {}
): Promise<{ core: AppCore; pushes: Pushes; ids: Record<string, string>; dbFile: string; secrets: SecretStore }> {
  const dbFile = join(dir, 'cache.db')
  const secrets = testKeychain(cleanups)
  const ids = await saveConnections(dbFile, secrets, saved)
  return { ids, dbFile, secrets, ...(await startSettled(cleanups, { db: dbFile, secrets, ...options })) }
}
