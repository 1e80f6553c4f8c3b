// Fan-out of pushed events to every face (IPC, SSE, CLI). A throwing listener hurts only itself.
import type { EventName, EventPayload } from '../../../shared/contract'
import type { EventListener } from './types'

export class EventHub {
  private readonly listeners = new Set<EventListener>()

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) {
      try {
        listener(name, payload)
      } catch {
        // A broken subscriber (a closed window, a dropped SSE client) must not stop the others.
      }
    }
  }
}
