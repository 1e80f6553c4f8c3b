// The secrets concern on SQLite: refused, every call. No secret ever touches SQLite (DESIGN.md):
// a SQLite cache keeps its connections' and webhooks' secrets in the OS keychain, and only a
// postgres:// database shared by several servers keeps them, sealed (store/sealed-secrets.ts).
import type { SecretRowStore } from '../interface/secrets'

export const SQLITE_KEEPS_NO_SECRETS =
  'a SQLite cache keeps no secret: its secrets stay in the OS keychain, and only a postgres:// database keeps them, encrypted (docs/secrets.md)'

const refused = (): Promise<never> => Promise.reject(new Error(SQLITE_KEEPS_NO_SECRETS))

export function secretTable(): SecretRowStore {
  return { get: refused, count: refused, put: refused, remove: refused }
}
