// The loopback host's gate: the per-launch token (access.ts), for the machine's own administrator.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { fail } from '../../shared/result'
import { localContext } from '../core/team/local-actor'
import { decideAccess } from './access'
import type { Gate } from './gate'
import { header, redirect, sendJson, sendText } from './respond'

export function localGate(token: string, port: () => number): Gate {
  return {
    admit: async (req: IncomingMessage, res: ServerResponse) => {
      const decision = decideAccess(
        {
          method: req.method ?? 'GET',
          target: req.url ?? '',
          headers: {
            host: req.headers.host,
            origin: req.headers.origin,
            'sec-fetch-site': header(req, 'sec-fetch-site'),
            cookie: req.headers.cookie,
            authorization: req.headers.authorization
          }
        },
        { token, port: port() }
      )
      if (decision.kind === 'allow') return { url: decision.url, context: localContext(), stillValid: async () => true }
      req.resume() // an unread body would hold the connection
      if (decision.kind === 'enter') redirect(res, decision.location, decision.cookie)
      else if (decision.api) sendJson(res, decision.status, fail(decision.code, decision.message))
      else sendText(res, decision.status, `Eventwatch: ${decision.message}\n`)
      return null
    }
  }
}
