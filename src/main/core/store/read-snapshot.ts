// One consistent read of a cache file for a command that only reads it (export, report): the file
// opened through SQLite, every read of `body` in one read transaction, so a sync writing meanwhile
// changes nothing it sees; closed after, whatever `body` did.
import { openDatabase, type Db } from './db'

export async function withReadSnapshot<T>(file: string, body: (db: Db) => Promise<T>): Promise<T> {
  const db = openDatabase(file)
  try {
    db.exec('BEGIN')
    try {
      return await body(db)
    } finally {
      db.exec('COMMIT')
    }
  } finally {
    db.close()
  }
}
