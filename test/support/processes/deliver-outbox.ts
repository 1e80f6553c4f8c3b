// A server's webhook deliverer on its own, on a PostgreSQL database: it sends what the outbox
// holds until it is killed. Tests kill it (SIGKILL) while it holds a claim, as a server dies.
// Prints "delivering" once it has started.
//   node --import tsx deliver-outbox.ts DATABASE_URL CLAIMER CLAIM_MS
import { openPgStore } from '../../../src/main/core/store/postgres/pg-store'
import { WebhookDeliverer } from '../../../src/main/core/webhooks/deliverer'
import { realTimers } from '../../../src/shared/timers'

const [url, claimer, claimMs] = process.argv.slice(2)
if (!url || !claimer || !claimMs) throw new Error('usage: deliver-outbox.ts DATABASE_URL CLAIMER CLAIM_MS')
const store = await openPgStore(url)
const deliverer = new WebhookDeliverer(store, {
  clock: Date.now,
  timers: realTimers,
  claimer,
  claimMs: Number(claimMs),
  secretOf: async () => null,
  urlOf: async (hook) => hook.url
})
deliverer.start()
process.stdout.write('delivering\n')
