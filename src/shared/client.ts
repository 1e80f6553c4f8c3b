// The shape of the app API as the renderer sees it, whatever carries it (IPC or HTTP).
import type { EventName, EventPayload, RequestArgs, RequestName, RequestResult } from './contract'
import type { Result } from './result'

export interface AppClient {
  request<N extends RequestName>(name: N, args: RequestArgs<N>): Promise<Result<RequestResult<N>>>
  /** Subscribes to a pushed event; returns the unsubscribe function. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void
}

/** What the preload exposes on `window.eventwatch` in the desktop app. */
export interface DesktopBridge {
  request(name: string, args: unknown): Promise<unknown>
  on(name: string, listener: (payload: unknown) => void): () => void
}
