// The sealed secrets of a Tx, on one SQLite connection: the synchronous row functions, each
// answered as a promise.
import type { Db } from '../db'
import { countSealedSecrets, getSealedSecret, putSealedSecret, removeSealedSecret } from '../encrypted-secrets'
import type { SecretRowStore } from '../interface/secrets'
import type { Runners } from './runners'

export function secretTable(db: Db, { read, write }: Runners): SecretRowStore {
  return {
    get: (service, account) => read(() => getSealedSecret(db, service, account)),
    count: (service) => read(() => countSealedSecrets(db, service)),
    put: (service, account, sealed, now) => write(() => putSealedSecret(db, service, account, sealed, now)),
    remove: (service, account) => write(() => removeSealedSecret(db, service, account))
  }
}
