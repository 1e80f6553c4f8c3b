// The core as a team server's client (issue 17): the desktop polls nothing of the team's itself;
// every request goes to the server over HTTPS with this desk's operator token, and the server's
// pushes come back over its event stream and are re-emitted here, so the window, the tray and
// the notifications follow the server exactly as they would follow a local core. Losing the
// server is said plainly — the status turns offline since that moment, the tray blind — and the
// stream comes back by itself, with the situation read afresh.
import { fetch as undiciFetch, type Dispatcher } from 'undici'
import type { AlertSituation, AlertsPage } from '../../../shared/alerts'
import { isEventName, isRequestName, requests, type EventName, type RequestName } from '../../../shared/contract'
import { DESK_REQUESTS } from '../../../shared/team'
import type { DeskHandlers } from './desk-handlers'
import { localContext } from '../team/local-actor'
import type { Status } from '../../../shared/domain'
import { fail, ok, type Result } from '../../../shared/result'
import { realTimers, type Timers } from '../../../shared/timers'
import { pinnedAgent } from '../net/pinned-agent'
import { readServerSentEvents } from '../net/sse-reader'
import { decideConnectionStatuses, decidePollSummary } from '../sync/connection-status'
import { EventHub } from './event-hub'
import { shiftSituationRevision } from './team-revisions'
import type { AppCore } from './types'
import { typedFace } from './typed-face'

export interface TeamServerTarget {
  /** The server's origin, e.g. https://noc.example.com:8443 */
  url: string
  /** This desk's operator (or viewer) token. */
  token: string
  /** SHA-256 fingerprint of the server's certificate, when it is trusted by pin instead of a CA. */
  pinnedSha256?: string | null
}

export interface TeamClientOptions {
  timers?: Timers
  clock?: () => number
  requestTimeoutMs?: number
  /** With no byte for this long (the server sends a heartbeat every 15 s), the stream is dead. */
  silenceMs?: number
  /** Waits between reconnection attempts, the last one repeated. */
  backoffMs?: readonly number[]
  /** This desk's own requests (Settings → Team server), answered here, not by the server. */
  desk?: DeskHandlers
}

export interface TeamClient extends AppCore {
  /** Whether the event stream is up now. */
  readonly online: boolean
  /** After the stream came back (the server restarted, the network returned): a window reloads. */
  onReconnected(listener: () => void): () => void
}

const DEFAULT_BACKOFF = [1000, 2000, 5000, 10_000, 15_000]

export function connectTeamServer(target: TeamServerTarget, options: TeamClientOptions = {}): TeamClient {
  const timers = options.timers ?? realTimers
  const clock = options.clock ?? Date.now
  const origin = new URL(target.url).origin
  const dispatcher: Dispatcher | undefined = target.pinnedSha256 ? pinnedAgent(target.pinnedSha256) : undefined
  const hub = new EventHub()
  const reconnected = new Set<() => void>()
  const closing = new AbortController()
  const auth = { Authorization: `Bearer ${target.token}` }

  let online = false
  let everOnline = false
  let offlineSince: number | null = null
  let lastError: string | null = null
  let lastStatus: Status | null = null
  /** The server's last situation, as the server counts its revision (unshifted). */
  let lastSituation: AlertSituation | null = null
  // Added to every situation revision from the server: bumped when this desk says something of
  // its own (offline) and again on return, so each of those is newer than what came before.
  let shift = 0

  const fetchFromServer = (path: string, init: RequestInit & { signal: AbortSignal }): Promise<Response> =>
    undiciFetch(`${origin}${path}`, { ...init, ...(dispatcher ? { dispatcher } : {}) } as never) as unknown as Promise<Response>

  const reasonOf = (error: unknown): string => {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
  }

  /** Answers of the server as they are, but with this desk's revision shift (see above). */
  const shifted = <T>(value: T): T => shiftSituationRevision(value, shift)

  /** The server's answer; `raw` leaves its revisions as the server counts them. */
  const request = async (name: string, args: unknown, raw = false): Promise<Result<unknown>> => {
    const response = await fetchFromServer(`/api/request/${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(args ?? {}),
      signal: AbortSignal.any([closing.signal, AbortSignal.timeout(options.requestTimeoutMs ?? 30_000)])
    })
    if (response.status === 401) {
      return fail('unauthorized', `The team server ${origin} refused this desk's token (rotated or removed?): ask its administrator for a new one.`)
    }
    if (response.status === 429) return fail('too-many-attempts', `The team server ${origin} is refusing this address for a while (too many wrong tokens).`)
    if (!(response.headers.get('Content-Type') ?? '').startsWith('application/json')) {
      return fail('refused', `The team server ${origin} answered HTTP ${response.status}.`)
    }
    const answer = (await response.json()) as Result<unknown>
    return raw ? answer : shifted(answer)
  }

  /** Offline, this desk knows nothing of the server's connections: the team server is the one
   *  connection it has, offline since the stream broke, with the last update it had. */
  const offlineStatus = (): Status => {
    const since = offlineSince ?? clock()
    const lastUpdate = lastStatus?.summary.lastUpdateAt ?? null
    const facts = {
      connectionId: 'team-server',
      connectionName: `Team server ${new URL(origin).host}`,
      demo: false,
      disabled: false,
      paused: false,
      state: 'offline',
      lastUpdateAt: lastUpdate === null ? null : Date.parse(lastUpdate),
      lastError: `Team server ${origin} unreachable: ${lastError ?? 'no answer'}`,
      offlineSince: since,
      reason: lastError ?? 'no answer'
    } as const
    const connections = decideConnectionStatuses([facts], { now: clock(), pollIntervalSeconds: lastStatus?.pollIntervalSeconds ?? 15 })
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
      pollState: 'offline',
      offlineSince: new Date(since).toISOString(),
      lastError: facts.lastError
    }
  }

  const timeOfDay = (ms: number): string => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

  const goOffline = (reason: string): void => {
    lastError = reason
    if (!online && offlineSince !== null) return
    online = false
    offlineSince = clock()
    hub.emit('statusChanged', offlineStatus())
    if (lastSituation) {
      shift += 1
      hub.emit('alertsChanged', {
        situation: shifted({
          ...lastSituation,
          tone: 'blind',
          tray: 'blind',
          headline: `Team server offline since ${timeOfDay(offlineSince)} · ${lastSituation.headline}`
        }),
        changed: [],
        removed: [],
        fired: [],
        resolved: [],
        repeated: [],
        silenced: []
      })
    }
  }

  const comeBack = async (): Promise<void> => {
    const wasOffline = offlineSince !== null || !everOnline
    online = true
    offlineSince = null
    lastError = null
    if (!wasOffline) return
    const returning = everOnline
    if (returning) shift += 1
    everOnline = true
    // Read afresh what may have changed while the stream was down; nothing of it is announced
    // again (fired and resolved stay empty: those were the server's to say at the time).
    const [status, alerts] = await Promise.all([request('getStatus', {}), request('listAlerts', { limit: 1 }, true)])
    if (status.ok) hub.emit('statusChanged', (lastStatus = status.value as Status))
    if (alerts.ok) {
      lastSituation = (alerts.value as AlertsPage).situation
      hub.emit('alertsChanged', shifted({ situation: lastSituation, changed: [], removed: [], fired: [], resolved: [], repeated: [], silenced: [] }))
    }
    if (returning) for (const listener of reconnected) listener()
  }

  const follow = async (): Promise<void> => {
    let attempt = 0
    while (!closing.signal.aborted) {
      const silence = new AbortController()
      let timer: unknown
      const alive = (): void => {
        timers.clearTimeout(timer)
        timer = timers.setTimeout(() => silence.abort(new Error('the event stream fell silent')), options.silenceMs ?? 45_000)
      }
      try {
        alive()
        const response = await fetchFromServer('/api/events', {
          headers: { ...auth, Accept: 'text/event-stream' },
          signal: AbortSignal.any([closing.signal, silence.signal])
        })
        if (response.status === 401) throw new Error("this desk's token was refused (rotated or removed?)")
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`)
        attempt = 0
        await comeBack()
        for await (const { event, data } of readServerSentEvents(response.body, alive)) {
          if (!isEventName(event)) continue
          const payload = JSON.parse(data) as never
          remember(event, payload)
          hub.emit(event, shifted(payload))
        }
        throw new Error('the server closed the event stream')
      } catch (error) {
        if (closing.signal.aborted) break
        goOffline(silence.signal.aborted ? 'no heartbeat for a while' : reasonOf(error))
      } finally {
        timers.clearTimeout(timer)
      }
      const backoff = options.backoffMs ?? DEFAULT_BACKOFF
      const wait = backoff[Math.min(attempt++, backoff.length - 1)] ?? 15_000
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          timers.clearTimeout(handle)
          resolve()
        }
        const handle = timers.setTimeout(() => {
          closing.signal.removeEventListener('abort', stop)
          resolve()
        }, wait)
        closing.signal.addEventListener('abort', stop, { once: true })
      })
    }
  }

  const remember = (event: EventName, payload: unknown): void => {
    if (event === 'statusChanged') lastStatus = payload as Status
    if (event === 'alertsChanged') lastSituation = (payload as { situation: AlertSituation }).situation
  }

  const following = follow()

  const client: Omit<TeamClient, 'request' | 'on'> = {
    get online() {
      return online
    },
    onReconnected: (listener) => {
      reconnected.add(listener)
      return () => reconnected.delete(listener)
    },
    dispatch: async (name, args) => {
      if (!isRequestName(name)) return fail('unknown-request', 'Unknown request.')
      if (isDeskRequest(name)) return answerHere(options.desk, name, args)
      // Offline, the status is this desk's own: offline since when, and why.
      if (name === 'getStatus' && !online && offlineSince !== null) return { ok: true, value: offlineStatus() }
      try {
        return await request(name, args)
      } catch (error) {
        if (closing.signal.aborted) return fail('closed', 'Eventwatch is closing.')
        return fail('unreachable', `The team server ${origin} is not answering (${reasonOf(error)}).`)
      }
    },
    onEvent: (listener) => hub.subscribe(listener),
    // The server keeps its own diagnostics; a problem of this desk's window stays in its log.
    recordProblem: ({ endpoint, message }) => console.error(`eventwatch: ${endpoint}: ${message}`),
    close: async () => {
      closing.abort()
      await following.catch(() => undefined)
      await (dispatcher as { close?: () => Promise<void> } | undefined)?.close?.()
    }
  }
  // Assigned, not spread: `online` stays a getter.
  return Object.assign(client, typedFace(client.dispatch, client.onEvent))
}

const isDeskRequest = (name: RequestName): name is (typeof DESK_REQUESTS)[number] => (DESK_REQUESTS as readonly string[]).includes(name)

/** A desk request, checked against the contract like any other, answered by this desk. */
async function answerHere(desk: DeskHandlers | undefined, name: (typeof DESK_REQUESTS)[number], args: unknown): Promise<Result<unknown>> {
  if (!desk) return fail('unknown-request', `${name} is not available here.`)
  const parsed = requests[name].args.safeParse(args ?? {})
  if (!parsed.success) return fail('invalid-arguments', `${name}: ${parsed.error.issues[0]?.message ?? 'invalid arguments'}`)
  try {
    const handler = desk[name] as (a: unknown, c: ReturnType<typeof localContext>) => unknown
    return ok(await handler(parsed.data, localContext()))
  } catch (error) {
    return fail('internal', `${name} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}
