// The Store's reads on a connection its owner holds, in whatever transaction the owner keeps open:
// a command that reads one snapshot of the cache (store/read-snapshot.ts) hands these to code
// written against the Store. Writes are refused, as through `store.read`.
import type { Db } from '../db'
import type { ReadTx } from '../interface/store'
import { answerNow, refusing } from './runners'
import { sqliteTables } from './tables'
import { notInUnit } from './unit-of-work-error'

export function heldReads(db: Db): ReadTx {
  return sqliteTables(db, { read: (call) => answerNow(call, db.name), write: refusing(notInUnit) })
}
