// A FakeClient that also delivers the pushes a spec sends, as the host's event stream would.
import type { EventName, EventPayload } from '../../../src/shared/contract'
import { FakeClient } from './fake-client'

export class PushingClient extends FakeClient {
  private readonly listeners = new Map<string, Set<(payload: never) => void>>()

  override on: FakeClient['on'] = (name, listener) => {
    const set = this.listeners.get(name) ?? new Set()
    set.add(listener as (payload: never) => void)
    this.listeners.set(name, set)
    return () => set.delete(listener as (payload: never) => void)
  }

  push<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners.get(name) ?? []) listener(payload as never)
  }
}
