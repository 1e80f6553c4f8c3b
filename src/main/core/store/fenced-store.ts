// The Store as a lease holder writes through it (docs/scaling-plan.md section 2): every unit of
// work that writes is fenced with the lease it writes under, so a holder that stalled past its
// lease and woke without it writes nothing (the unit rejects with LeaseLostError). Reads and
// read-only units go through untouched: anyone may read.
import type { Fence } from './interface/leases'
import type { Store } from './interface/store'

/**
 * `store`, with each writing unit fenced with `fence()` as it begins. Null means this server holds
 * no such lease (it never took it, or gave it up): the unit is refused at once with `notHeld()`'s
 * error. Closing it closes nothing: the store is its owner's.
 */
export function fencedStore(store: Store, fence: () => Fence | null, notHeld: () => Error): Store {
  return {
    read: store.read,
    ...(store.leases ? { leases: store.leases } : {}),
    withTransaction(work, options = {}) {
      if (options.readOnly) return store.withTransaction(work, options)
      const held = fence()
      if (held === null) return Promise.reject(notHeld())
      return store.withTransaction(work, { ...options, fence: held })
    },
    schema: () => store.schema(),
    close: async () => undefined
  }
}
