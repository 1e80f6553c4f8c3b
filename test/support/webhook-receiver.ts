// A webhook receiver on loopback: records every delivery (headers, body, the answer it gave)
// and answers as the test says (refuse the first N, or everything, or nothing at all).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  key: string
  event: string
  signature: string | undefined
  timestamp: string | undefined
  body: string
  status: number
}

export async function webhookReceiver(): Promise<{
  url: string
  received: Received[]
  /** The status to answer the next deliveries with (default 200), one per delivery, then 200. */
  answer: (...statuses: number[]) => void
  close: () => Promise<void>
}> {
  const received: Received[] = []
  let answers: number[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const status = answers.shift() ?? 200
      received.push({
        key: String(req.headers['idempotency-key'] ?? ''),
        event: String(req.headers['x-eventwatch-event'] ?? ''),
        signature: req.headers['x-eventwatch-signature'] as string | undefined,
        timestamp: req.headers['x-eventwatch-timestamp'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
        status
      })
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'busy')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer: (...statuses) => {
      answers = statuses
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
