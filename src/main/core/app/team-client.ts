// The core as a team server's client (issue 17): the desktop polls nothing of the team's itself;
// every request goes to the server over HTTPS with this desk's operator token, and the server's
// pushes come back over its event stream and are re-emitted here, so the window, the tray and
// the notifications follow the server exactly as they would follow a local core. Losing the
// server is said plainly — the status turns offline since that moment, the tray blind — and the
// stream comes back by itself, with the situation read afresh.
//
// Every answer and every push is checked against the contract before anything of it is used
// (shared/contract-check.ts): one that does not fit (a server of another version, a proxy between
// the two) is refused by name and field, and the desk shows the team server as failing with that
// cause until the stream is taken up again. Revisions pass as the server counts them, with its
// epoch; the desk's own words (offline, failing) carry an epoch of their own (shared/revisions.ts).
import { fetch as undiciFetch, type Dispatcher } from 'undici'
import type { AlertsChanged, AlertSituation } from '../../../shared/alerts'
import { isEventName, isRequestName, requests, type EventName, type EventPayload, type RequestName, type RequestResult } from '../../../shared/contract'
import { checkAnswer, checkPush } from '../../../shared/contract-check'
import { DESK_REQUESTS } from '../../../shared/team'
import type { DeskHandlers } from './desk-handlers'
import { localContext } from '../team/local-actor'
import type { Status } from '../../../shared/domain'
import { fail, ok, type Result } from '../../../shared/result'
import { realTimers, type Timers } from '../../../shared/timers'
import { pinnedAgent } from '../net/pinned-agent'
import { readServerSentEvents } from '../net/sse-reader'
import { EventHub } from './event-hub'
import { lostServerPush, lostServerStatus, situationPush, type LostServer } from './team-lost-words'
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
  /** The server's origin, as this desk reaches it: where its pages (a session's link) are. */
  readonly origin: string
  /** Whether the event stream is up now. */
  readonly online: boolean
  /** After the stream came back (the server restarted, the network returned): a window reloads. */
  onReconnected(listener: () => void): () => void
}

const DEFAULT_BACKOFF = [1000, 2000, 5000, 10_000, 15_000]

/** The server said something outside the contract: the stream is dropped, the desk says why. */
class ContractFault extends Error {}

export function connectTeamServer(target: TeamServerTarget, options: TeamClientOptions = {}): TeamClient {
  const timers = options.timers ?? realTimers
  const clock = options.clock ?? Date.now
  const origin = new URL(target.url).origin
  const dispatcher: Dispatcher | undefined = target.pinnedSha256 ? pinnedAgent(target.pinnedSha256) : undefined
  const hub = new EventHub()
  const reconnected = new Set<() => void>()
  const closing = new AbortController()
  const auth = { Authorization: `Bearer ${target.token}` }
  const backoff = options.backoffMs ?? DEFAULT_BACKOFF

  let online = false
  let everOnline = false
  /** Since when the stream is down (null while it is up, and before it first came). */
  let offlineSince: number | null = null
  /** Why the stream is down, and whether because the server said something outside the contract. */
  let lost: { reason: string; failing: boolean } | null = null
  let lastStatus: Status | null = null
  /** The server's last situation, as the server said it. */
  let lastSituation: AlertSituation | null = null
  /** The stream followed now: dropped as soon as the server says something outside the contract. */
  let stream: AbortController | null = null

  const fetchFromServer = (path: string, init: RequestInit & { signal: AbortSignal }): Promise<Response> =>
    undiciFetch(`${origin}${path}`, { ...init, ...(dispatcher ? { dispatcher } : {}) } as never) as unknown as Promise<Response>

  const reasonOf = (error: unknown): string => {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
  }

  /** The server said something outside the contract: nothing of it is used, and the stream is
   *  dropped with that cause (the desk then shows the team server failing). */
  const refuse = (problem: string): ContractFault => {
    const fault = new ContractFault(problem)
    stream?.abort(fault)
    return fault
  }
  const refusal = (fault: ContractFault): Result<never> =>
    fail('unreadable', `The team server ${origin} ${fault.message}. Is it running another version of Eventwatch?`)

  /** The server's answer, checked against the contract. */
  const request = async <N extends RequestName>(name: N, args: unknown): Promise<Result<RequestResult<N>>> => {
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
    // Read whole first: a network failure while reading is no fault of the contract.
    const text = await response.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return refusal(refuse(`answered ${name} with something that is not JSON`))
    }
    const checked = checkAnswer(name, body)
    return checked.ok ? checked.value : refusal(refuse(checked.problem))
  }

  const lostNow = (): LostServer => ({ origin, since: offlineSince ?? clock(), reason: lost?.reason ?? 'no answer', failing: lost?.failing ?? false })

  /** The stream is down: said once (again only when the cause changes in kind), with the cause. */
  const lose = (reason: string, failing: boolean): void => {
    const said = !online && offlineSince !== null && lost?.failing === failing
    lost = { reason, failing }
    if (said) return
    online = false
    offlineSince ??= clock()
    hub.emit('statusChanged', lostServerStatus(lostNow(), lastStatus, clock()))
    if (lastSituation) hub.emit('alertsChanged', lostServerPush(lostNow(), lastSituation))
  }

  const comeBack = async (current: AbortController): Promise<void> => {
    const wasDown = offlineSince !== null || !everOnline
    online = true
    offlineSince = null
    lost = null
    if (!wasDown) return
    const returning = everOnline
    everOnline = true
    // Read afresh what may have changed while the stream was down; nothing of it is announced
    // again (fired and resolved stay empty: those were the server's to say at the time).
    const [status, alerts] = await Promise.all([request('getStatus', {}), request('listAlerts', { limit: 1 })])
    // An answer outside the contract dropped the stream already: the desk says that instead.
    if (current.signal.aborted) return
    if (status.ok) hub.emit('statusChanged', (lastStatus = status.value))
    if (alerts.ok) hub.emit('alertsChanged', situationPush((lastSituation = alerts.value.situation)))
    if (returning) for (const listener of reconnected) listener()
  }

  /** One push, checked against the contract; throws (and drops the stream) when it does not fit. */
  const pushOf = (event: EventName, data: string): EventPayload<EventName> => {
    let payload: unknown
    try {
      payload = JSON.parse(data)
    } catch {
      throw refuse(`pushed ${event} with something that is not JSON`)
    }
    const checked = checkPush(event, payload)
    if (!checked.ok) throw refuse(checked.problem)
    return checked.value
  }

  const follow = async (): Promise<void> => {
    let attempt = 0
    while (!closing.signal.aborted) {
      const silence = new AbortController()
      const current = (stream = new AbortController())
      let timer: unknown
      const alive = (): void => {
        timers.clearTimeout(timer)
        timer = timers.setTimeout(() => silence.abort(new Error('the event stream fell silent')), options.silenceMs ?? 45_000)
      }
      try {
        alive()
        const response = await fetchFromServer('/api/events', {
          headers: { ...auth, Accept: 'text/event-stream' },
          signal: AbortSignal.any([closing.signal, silence.signal, current.signal])
        })
        if (response.status === 401) throw new Error("this desk's token was refused (rotated or removed?)")
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`)
        attempt = 0
        await comeBack(current)
        for await (const { event, data } of readServerSentEvents(response.body, alive)) {
          // An event this desk does not know (a newer server's) is not for it.
          if (!isEventName(event)) continue
          const payload = pushOf(event, data)
          remember(event, payload)
          hub.emit(event, payload)
        }
        throw new Error('the server closed the event stream')
      } catch (error) {
        if (closing.signal.aborted) break
        const fault = current.signal.reason instanceof ContractFault ? current.signal.reason : null
        // A server of another version does not change in a second: the longest wait before asking again.
        if (fault) attempt = backoff.length - 1
        lose(fault ? fault.message : silence.signal.aborted ? 'no heartbeat for a while' : reasonOf(error), fault !== null)
      } finally {
        timers.clearTimeout(timer)
        stream = null
      }
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

  const remember = (event: EventName, payload: EventPayload<EventName>): void => {
    if (event === 'statusChanged') lastStatus = payload as Status
    if (event === 'alertsChanged') lastSituation = (payload as AlertsChanged).situation
  }

  const following = follow()

  const client: Omit<TeamClient, 'request' | 'on'> = {
    origin,
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
      // With the stream down, the status is this desk's own: since when, and why.
      if (name === 'getStatus' && !online && offlineSince !== null) return ok(lostServerStatus(lostNow(), lastStatus, clock()))
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
