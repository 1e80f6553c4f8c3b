// A cache's value as PostgreSQL takes it. SQLite's integers (BigInt: none past 2^53 changes),
// reals and texts go as pg writes them into an array parameter; 0/1 go into boolean columns as
// PostgreSQL reads '0' and '1'. Two things SQLite keeps and PostgreSQL cannot:
// - a NUL in text (the service's data is hostile): written as U+FFFD, as the viewer list writer
//   writes it (postgres/viewer-copy.ts), rather than leave the whole cache uncopyable;
// - in JSON text, the escape \u0000 (jsonb refuses it): written as \ufffd, for the same reason.
import { nulFree, nulFreeJson } from '../postgres/nul-free'
import { CopyFailedError } from './copy-errors'

export function targetValue(value: unknown, type: string, table: string, column: string): unknown {
  if (typeof value === 'string') return type === 'jsonb' ? nulFreeJson(value) : nulFree(value)
  // A sealed secret's bytes (keychain-secrets.ts) go as bytea; a blob of the cache has no place in
  // any column of the schema, and pg would write it as text.
  if (Buffer.isBuffer(value) && type === 'bytea') return value
  if (typeof value === 'object' && value !== null) {
    throw new CopyFailedError(`${table}.${column} holds a blob in the cache, where only text or numbers belong; the copy was rolled back and the target is empty as before`)
  }
  return value
}
