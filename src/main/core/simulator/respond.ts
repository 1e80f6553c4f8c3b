// How the simulator writes its answers: JSON as the spec says, and the broken answers of the
// fault modes (HTML pages, cut bodies, wrong content types, Retry-After).
import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { FailureReply, Mangle } from './faults'

const JSON_TYPE = 'application/json; charset=utf-8'

export function sendJson(res: ServerResponse, status: number, body: unknown, mangle?: Mangle): void {
  let text = JSON.stringify(body)
  let contentType = JSON_TYPE
  if (mangle?.type === 'truncate') text = text.slice(0, Math.floor(text.length / 2))
  if (mangle?.type === 'content-type') contentType = mangle.contentType
  send(res, status, contentType, text)
}

export function sendFailure(res: ServerResponse, failure: FailureReply, now: number): void {
  const reason = STATUS_CODES[failure.status] ?? 'Error'
  switch (failure.type) {
    case 'rate-limit': {
      const seconds = failure.retryAfterSeconds
      res.setHeader('Retry-After', failure.asHttpDate ? new Date(now + seconds * 1000).toUTCString() : String(seconds))
      return sendJson(res, failure.status, { error: 'rate_limited', message: 'Too many requests; slow down.' })
    }
    case 'server-error':
      return sendJson(res, failure.status, { error: 'server_error', message: `${reason} (simulated, transient)` })
    case 'html':
      return send(
        res,
        failure.status,
        'text/html; charset=utf-8',
        `<!DOCTYPE html><html><head><title>${failure.status} ${reason}</title><style>body{font:14px sans-serif}</style></head>` +
          `<body><h1>${reason}</h1><p>The upstream server did not answer &amp; the gateway gave up.</p><hr><address>nginx</address></body></html>`
      )
  }
}

function send(res: ServerResponse, status: number, contentType: string, text: string): void {
  if (res.destroyed || res.headersSent) return // the client gave up (a timeout): nobody to answer
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) })
  res.end(text)
}
