// One AppClient for both hosts: the preload's bridge in the desktop app, HTTP + server-sent
// events in the browser host. Screens never know which.
import type { AppClient, DesktopBridge } from '../../../shared/client'
import { eventNames, type EventName, type EventPayload } from '../../../shared/contract'
import { fail, type Result } from '../../../shared/result'

declare global {
  interface Window {
    eventwatch?: DesktopBridge
  }
}

export function createClient(): AppClient {
  return window.eventwatch ? bridgeClient(window.eventwatch) : httpClient()
}

function bridgeClient(bridge: DesktopBridge): AppClient {
  return {
    request: async (name, args) => (await bridge.request(name, args)) as Result<never>,
    on: (name, listener) => bridge.on(name, (payload) => listener(payload as EventPayload<typeof name>))
  }
}

const NOT_ADMITTED =
  'The Eventwatch host no longer accepts this page (it takes a new address on every launch). ' +
  'Open the address `eventwatch serve` printed — or, on a team server, reload and sign in again.'

const isJson = (response: Response): boolean =>
  (response.headers.get('Content-Type') ?? '').startsWith('application/json')

// Same-origin fetch and EventSource carry the host's HttpOnly session cookie by themselves.
function httpClient(): AppClient {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>()
  let source: EventSource | null = null

  const connect = (): void => {
    source = new EventSource('/api/events')
    for (const name of eventNames) {
      source.addEventListener(name, (event) => {
        let payload: unknown
        try {
          payload = JSON.parse((event as MessageEvent<string>).data)
        } catch {
          return
        }
        for (const listener of listeners.get(name) ?? []) listener(payload)
      })
    }
    // EventSource reconnects by itself; nothing to do on error but let it.
  }

  return {
    request: async (name, args) => {
      try {
        const response = await fetch(`/api/request/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(args ?? {})
        })
        // The host restarted (a new token each launch) or the page was opened without it.
        if (response.status === 401) return fail('unauthorized', NOT_ADMITTED)
        if (!isJson(response)) return fail('refused', `The Eventwatch host refused the request (HTTP ${response.status}).`)
        return (await response.json()) as Result<never>
      } catch {
        return fail('unreachable', 'The Eventwatch host is not answering.')
      }
    },
    on: (name, listener) => {
      if (!source) connect()
      const set = listeners.get(name) ?? new Set()
      const wrapped = listener as (payload: unknown) => void
      set.add(wrapped)
      listeners.set(name, set)
      return () => set.delete(wrapped)
    }
  }
}
