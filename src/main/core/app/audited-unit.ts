// A change and its audit row as one unit of work: both commit, or neither does
// (docs/units-of-work.md). The dispatcher gives a change's context `auditIn`; the row it writes
// goes through the unit's own `tx.team.audit`.
import type { RequestContext } from '../../../shared/contract'
import type { Store, Tx } from '../store/interface/store'

export function auditedUnit<T>(store: Store, context: RequestContext, work: (tx: Tx) => Promise<T>): Promise<T> {
  return store.withTransaction(async (tx) => {
    const value = await work(tx)
    await context.auditIn?.(tx.team.audit)
    return value
  })
}
