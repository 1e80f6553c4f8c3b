// Server-sent events: the core's pushes, one `event:` per contract event name.
import type { ServerResponse } from 'node:http'
import type { AppCore } from '../core/app/types'

const HEARTBEAT_MS = 15_000

export function openEventStream(core: AppCore, res: ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive'
  })
  res.write(': connected\n\n')
  const unsubscribe = core.onEvent((name, payload) => {
    res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)
  })
  // Comments keep proxies and idle timers from closing a quiet stream.
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS)
  res.on('close', () => {
    clearInterval(heartbeat)
    unsubscribe()
  })
}
