// The two answers a load balancer asks for without a token (docs/health-and-metrics.md):
// GET /healthz — the process is up and serving; GET /readyz — its database answers with this
// build's schema (the core decides: app/observability.ts), else 503 and why, in one line. They are
// answered before the gate (gate.ts): exactly these paths, GET or HEAD, and nothing else; neither
// says anything of the data, the users or the cache's path. Every other route still needs a token.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AppCore } from '../core/app/types'

export const PROBE_PATHS = ['/healthz', '/readyz'] as const

/** The probe a request asks for, if it is one: the path exactly, by GET or HEAD. */
export function probeOf(req: IncomingMessage): (typeof PROBE_PATHS)[number] | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null
  const target = req.url ?? ''
  const path = target.split('?', 1)[0]
  return (PROBE_PATHS as readonly string[]).includes(path ?? '') ? (path as (typeof PROBE_PATHS)[number]) : null
}

function answer(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(req.method === 'HEAD' ? undefined : text)
}

export async function answerProbe(core: AppCore, probe: (typeof PROBE_PATHS)[number], req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume()
  if (probe === '/healthz') return answer(req, res, 200, 'ok\n')
  if (!core.observe) return answer(req, res, 503, 'not ready: this server keeps no database of its own\n')
  const readiness = await core.observe.ready()
  if (readiness.ready) answer(req, res, 200, `ready: schema ${readiness.schema}\n`)
  else answer(req, res, 503, `not ready: ${readiness.reason}\n`)
}
