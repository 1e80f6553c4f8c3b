// A server's lease keeper alone, as a process a test can SIGKILL (a server that dies without
// releasing anything): it keeps its share of the connections of the database at URL and prints a
// line for each lease it starts or loses.
//   node --import tsx lease-keeper-server.ts URL LENGTH_MS RENEW_EVERY_MS
import { openPgStore } from '../../../src/main/core/store/postgres/pg-store'
import { LeaseKeeper, leaseHolderId } from '../../../src/main/core/sync/lease-keeper'

const [url, length, renewEvery] = process.argv.slice(2)
if (!url || !length || !renewEvery) throw new Error('usage: lease-keeper-server.ts URL LENGTH_MS RENEW_EVERY_MS')
const store = await openPgStore(url, { poolSize: 3 })
const holder = leaseHolderId()
const keeper = new LeaseKeeper({
  leases: store.leases,
  holder,
  lengthMs: Number(length),
  renewEveryMs: Number(renewEvery),
  started: (connectionId, lease) => process.stdout.write(`started ${connectionId} ${lease.fence}\n`),
  lost: (connectionId, why) => process.stdout.write(`lost ${connectionId}: ${why}\n`),
  onError: (error) => process.stderr.write(`${String(error)}\n`)
})
process.stdout.write(`holder ${holder}\n`)
keeper.start()
