// The app's webhooks at work: each alertsChanged push queues its events (enqueue.ts) and wakes
// the deliverer, which sends what is due and retries the rest (deliver.ts). A delivery that
// cannot even be queued (a full disk) is said in Diagnostics, and polling goes on.
import type { AlertsChanged } from '../../../shared/alerts'
import type { EventName, EventPayload } from '../../../shared/contract'
import type { Timers } from '../../../shared/timers'
import type { Db } from '../store/db'
import { recordDiagnostic } from '../store/diagnostics'
import { WebhookDeliverer } from './deliverer'
import { enqueueAlertEvents } from './enqueue'
import type { WebhookService } from './service'

/** The app's pushes (app/event-hub.ts), as the deliveries listen to them: webhooks rank below app. */
export interface PushedEvents {
  subscribe(listener: <E extends EventName>(name: E, payload: EventPayload<E>) => void): () => void
}

export function startWebhookDeliveries(
  db: Db,
  hub: PushedEvents,
  service: WebhookService,
  options: { clock: () => number; timers: Timers; parallel?: number }
): { deliverer: WebhookDeliverer; stop: () => Promise<void> } {
  const deliverer = new WebhookDeliverer(db, { ...options, secretOf: (id) => service.secretOf(id), urlOf: (hook) => service.urlOf(hook) })
  const off = hub.subscribe((name, payload) => {
    if (name !== 'alertsChanged') return
    try {
      if (enqueueAlertEvents(db, payload as AlertsChanged, options.clock()) > 0) deliverer.kick()
    } catch (error) {
      const message = `alert events could not be queued: ${error instanceof Error ? error.message : String(error)}`
      try {
        recordDiagnostic(db, { connectionId: null, at: options.clock(), kind: 'storage', endpoint: 'webhooks', message })
      } catch {
        // The disk that refused the queue refuses this too; the alert itself is already stored.
      }
    }
  })
  deliverer.start()
  return {
    deliverer,
    stop: async () => {
      off()
      await deliverer.stop()
    }
  }
}
