// The asking side of poll requests (app/poll-request-asker.ts; docs/scaling-plan.md section 2) on
// a real PostgreSQL, the holder played by a second store as another server would be, the
// deadline moved by hand: every way a wait ends is one sentence that names who — the holder's
// error, a holder that took the request and went silent, a wait cut short by this server
// stopping, an answer that is not the kind's.
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PollAsker } from '../../src/main/core/app/poll-request-asker'
import { connectionLease, type Lease } from '../../src/main/core/store/interface/leases'
import type { PollOutcome } from '../../src/main/core/store/interface/poll-requests'
import { openPgStore, type PgStore } from '../../src/main/core/store/postgres/pg-store'
import { withConnection } from '../contract/store/fixtures'
import { ManualTimers } from '../support/manual-timers'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'

const ASKER = 'host-a:101:aaaa'
const HOLDER = 'host-b:202:bbbb'

let database: TestDatabase
let asking: PgStore
let holding: PgStore
let lease: Lease
let timers: ManualTimers
let asker: PollAsker

beforeEach(async () => {
  database = await freshDatabase()
  asking = await openPgStore(database.url)
  holding = await openPgStore(database.url)
  await withConnection(asking, 'X', 'Tenant X')
  lease = (await holding.leases.acquire(connectionLease('X'), HOLDER, 60_000))!
  timers = new ManualTimers(0)
  asker = await PollAsker.start(asking, { holder: ASKER, timers })
})

afterEach(async () => {
  await asker.stop()
  await asking.close()
  await holding.close()
  await database.drop()
})

/** Asks for a session of X to be refreshed; resolves once it is asked, with the wait's end. */
async function askRefresh(): Promise<{ ended: Promise<unknown> }> {
  let asked!: () => void
  const onRow = new Promise<void>((resolve) => (asked = resolve))
  const ended = asker
    .ask('refreshSession', 'X', { eventSessionId: 's1' }, { connectionName: 'Tenant X', holder: HOLDER, actor: 'alice', onAsked: asked })
    .then(
      (answer) => ({ answer }),
      (error: Error) => ({ error: error.message })
    )
  await onRow
  return { ended }
}

/** The holder takes what waits for X, and answers each with `outcome` (none: it goes silent). */
async function holderTakes(outcome?: PollOutcome): Promise<number[]> {
  const claimed = await holding.withTransaction((tx) => tx.pollRequests.claim('X', HOLDER), { fence: lease })
  for (const request of outcome ? claimed : []) {
    await holding.withTransaction(async (tx) => {
      await tx.pollRequests.answer(request.id, HOLDER, outcome!)
      await tx.notifications.send('ew_poll_answers', String(request.id))
    })
  }
  return claimed.map((r) => r.id)
}

const settle = () => sleep(50)

describe('a server asking the holder of a connection', () => {
  it('answers with the holder’s result, heard as soon as it is answered', async () => {
    const { ended } = await askRefresh()
    await holderTakes({ answer: { viewers: 20 } })
    expect(await ended).toEqual({ answer: { viewers: 20 } })
  })

  it('names the holder and its error when the holder could not run it', async () => {
    const { ended } = await askRefresh()
    await holderTakes({ error: 'the service answered 503 Service Unavailable' })
    expect(await ended).toEqual({ error: `${HOLDER} could not refresh a session of Tenant X: the service answered 503 Service Unavailable` })
  })

  it('says the holder went silent mid-request when it took the request and did not answer by the deadline', async () => {
    const { ended } = await askRefresh()
    const [id] = await holderTakes()
    await timers.advance(30_000, settle)
    expect(await ended).toEqual({
      error: `${HOLDER} took the request to refresh a session of Tenant X but did not answer within 30 s: it stopped answering mid-request (stalled or stopped), and the request will not run again`
    })
    // Taken, so not withdrawn: nobody takes it again.
    expect(await asking.read.pollRequests.get(id!)).toMatchObject({ claimedBy: HOLDER, answeredAt: null })
    expect(await holderTakes()).toEqual([])
  })

  it('withdraws the request when this server stops waiting, so it never runs', async () => {
    const { ended } = await askRefresh()
    await asker.stop()
    expect(await ended).toEqual({
      error: 'this server stopped waiting for the server polling Tenant X to refresh a session of Tenant X (this server is stopping); the request was withdrawn and will not run'
    })
    expect(await holderTakes()).toEqual([])
  })

  it('refuses an answer that is not the kind’s, in words', async () => {
    const { ended } = await askRefresh()
    await holderTakes({ answer: { viewers: 'all of them' } })
    expect(await ended).toEqual({ error: expect.stringMatching(new RegExp(`^${HOLDER} answered the request to refresh a session of Tenant X with something this server cannot read \\(.+\\)$`)) })
  })
})
