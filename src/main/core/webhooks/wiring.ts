// The app's webhooks at work: alert changes queue their events in the outbox in their own
// transaction (outbox.ts, enqueue.ts) and wake the deliverer, which sends what is due and retries
// the rest (deliver.ts). What was queued before a crash is sent after the restart.
import type { Timers } from '../../../shared/timers'
import type { Store } from '../store/interface/store'
import { WebhookDeliverer } from './deliverer'
import type { WebhookOutbox } from './outbox'
import type { WebhookService } from './service'

export function startWebhookDeliveries(
  store: Store,
  outbox: WebhookOutbox,
  service: WebhookService,
  options: { clock: () => number; timers: Timers; parallel?: number }
): { deliverer: WebhookDeliverer; stop: () => Promise<void> } {
  const deliverer = new WebhookDeliverer(store, { ...options, secretOf: (id) => service.secretOf(id), urlOf: (hook) => service.urlOf(hook) })
  outbox.sendWith(deliverer)
  deliverer.start()
  return {
    deliverer,
    stop: async () => {
      outbox.sendWith(null)
      await deliverer.stop()
    }
  }
}
