// A webhook receiver on loopback: records every delivery (headers, body, the answer it gave)
// and answers as the test says (refuse the first N, or everything, or hold a request open and
// answer nothing until the test releases it). It counts the requests it holds open at once, on
// its own and, given a shared gauge, with other receivers.
import { createServer, type ServerResponse, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  /** The path and query the request was sent to ("/hook?sig=…"). */
  path: string
  key: string
  event: string
  signature: string | undefined
  timestamp: string | undefined
  /** The Authorization header (Opsgenie's GenieKey), if any. */
  authorization: string | undefined
  body: string
  /** The answer given; 0 while a held request has not been answered. */
  status: number
}

/** Requests open at once across the receivers sharing it, and the most seen. */
export interface OpenGauge {
  open: number
  max: number
}

/** An answer: a status, a status with a JSON body (an on-call tool's refusal), or 'hang' to hold
 *  the request open until `release` (or `close`). */
export type Answer = number | { status: number; json: unknown } | 'hang'

export async function webhookReceiver(options: { gauge?: OpenGauge } = {}): Promise<{
  url: string
  received: Received[]
  /** The answers to the next deliveries (default 200), one per delivery, then 200. */
  answer: (...answers: Answer[]) => void
  /** Requests open right now (held, or not yet answered), and the most at once. */
  readonly open: number
  readonly maxOpen: number
  /** Answers every held request with `status`. */
  release: (status?: number) => void
  close: () => Promise<void>
}> {
  const received: Received[] = []
  const held: { record: Received; res: ServerResponse }[] = []
  const own: OpenGauge = { open: 0, max: 0 }
  const gauges = options.gauge ? [own, options.gauge] : [own]
  let answers: Answer[] = []
  const reply = (record: Received, res: ServerResponse, answer: number | { status: number; json: unknown }): void => {
    if (typeof answer !== 'number') {
      record.status = answer.status
      return void res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json))
    }
    record.status = answer
    res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'ok' : 'busy')
  }
  const server: Server = createServer((req, res) => {
    for (const g of gauges) g.max = Math.max(g.max, ++g.open)
    res.on('close', () => {
      for (const g of gauges) g.open--
    })
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const next = answers.shift() ?? 200
      const record: Received = {
        path: req.url ?? '',
        key: String(req.headers['idempotency-key'] ?? ''),
        event: String(req.headers['x-eventwatch-event'] ?? ''),
        signature: req.headers['x-eventwatch-signature'] as string | undefined,
        timestamp: req.headers['x-eventwatch-timestamp'] as string | undefined,
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
        status: 0
      }
      received.push(record)
      if (next === 'hang') held.push({ record, res })
      else reply(record, res, next)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer: (...next) => {
      answers = next
    },
    get open() {
      return own.open
    },
    get maxOpen() {
      return own.max
    },
    release: (status = 200) => {
      for (const { record, res } of held.splice(0)) reply(record, res, status)
    },
    close: () =>
      new Promise((resolve) => {
        held.length = 0
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
