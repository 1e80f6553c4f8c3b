// The PostgreSQL store's listening connection while the database cannot be reached: a listen
// waits, the connection is tried again and again with back-off, the outage is said once (not at
// every try), and closing the store ends the wait. A loopback server that hangs up on every
// connection stands for the unreachable database, and counts the tries (no timer is measured).
// (With the store contract's notifications, test/contract/store/notifications.test.ts.)
import { createServer, type Server, type Socket } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { PgListener } from '../../src/main/core/store/postgres/pg-listener'

let server: Server | undefined
const sockets = new Set<Socket>()

afterEach(async () => {
  for (const socket of sockets) socket.destroy()
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  server = undefined
})

/** A server that hangs up on every connection; `tries(n)` settles once it has had n. */
async function hangingUp(): Promise<{ url: string; tries(n: number): Promise<void> }> {
  let count = 0
  const waits: (() => void)[] = []
  server = createServer((socket) => {
    sockets.add(socket)
    count++
    socket.destroy()
    for (const wait of waits.splice(0)) wait()
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `postgres://eventwatch@127.0.0.1:${port}/eventwatch`,
    async tries(n) {
      while (count < n) await new Promise<void>((resolve) => waits.push(resolve))
    }
  }
}

it('waits to listen while the database cannot be reached, trying again, says so once, and stops waiting when closed', async () => {
  const database = await hangingUp()
  const listener = new PgListener(database.url, 'the test database', { firstDelayMs: 1, maxDelayMs: 2 })
  const drops: string[] = []
  let resumes = 0
  const listening = listener.listen('ew_alerts', {
    notified: () => undefined,
    resumed: () => resumes++,
    dropped: (cause) => drops.push(cause.message)
  })
  let settled = false
  void listening.then(
    () => (settled = true),
    () => (settled = true)
  )
  await database.tries(4)
  expect(settled).toBe(false)
  expect(drops).toEqual([expect.stringMatching(/^cannot listen for notifications on the test database \(.+\); trying again$/)])
  await listener.close()
  await expect(listening).rejects.toThrow(/the store is closed/)
  expect(resumes).toBe(0)
})
