// A process that opens (and so migrates) a cache file at a given instant, as a second Eventwatch
// would: several of these started together race on one new file. Prints the schema version.
//   node --import tsx open-cache-at.ts FILE AT_EPOCH_MS
import { openDatabase } from '../../../src/main/core/store/db'
import { schemaVersion } from '../../../src/main/core/store/migrate'

const [file, at] = process.argv.slice(2)
if (!file || !at) throw new Error('usage: open-cache-at.ts FILE AT_EPOCH_MS')
// Spin rather than sleep for the last stretch: a timer is late by milliseconds, the race is not.
while (Date.now() < Number(at)) {
  if (Number(at) - Date.now() > 20) await new Promise((resolve) => setTimeout(resolve, 5))
}
const db = openDatabase(file)
process.stdout.write(`${schemaVersion(db)}\n`)
db.close()
