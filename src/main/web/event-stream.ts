// Server-sent events: the core's pushes, one `event:` per contract event name.
import type { ServerResponse } from 'node:http'
import type { RequestContext } from '../../shared/contract'
import type { AppCore } from '../core/app/types'

export const HEARTBEAT_MS = 15_000

/** `stillValid` is asked at every heartbeat: a user signed out, rotated or removed loses the stream.
 *  The pushes are the core's as `context` (the page's user) sees them. */
export function openEventStream(
  core: AppCore,
  res: ServerResponse,
  stillValid: () => Promise<boolean> = async () => true,
  heartbeatMs = HEARTBEAT_MS,
  context?: RequestContext
): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive'
  })
  res.write(': connected\n\n')
  // Ended by the server, the response still waits for its flush before 'close': a push in
  // between would be a write after end, an uncaught error that stops the server.
  let open = true
  const send = (text: string): void => {
    if (open) res.write(text)
  }
  const stop = (): void => {
    open = false
    clearInterval(heartbeat)
    unsubscribe()
  }
  const end = (): void => {
    stop()
    res.end()
  }
  const unsubscribe = core.onEvent((name, payload) => send(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`), context)
  // Comments keep proxies and idle timers from closing a quiet stream.
  const heartbeat = setInterval(() => {
    stillValid().then(
      (valid) => (valid ? send(': heartbeat\n\n') : end()),
      end // the store could not say: better a reconnect than a stream nobody vouches for
    )
  }, heartbeatMs)
  res.on('close', stop)
}
