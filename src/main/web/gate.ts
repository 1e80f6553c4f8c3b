// Who may come in, decided before any route runs. The loopback host admits the page opened from
// the printed address (local-gate.ts); a team server admits its users (team-gate.ts).
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestContext } from '../../shared/contract'

export interface Admitted {
  url: URL
  context: RequestContext
  /** Still allowed in (a long-lived event stream asks again now and then): false once signed out,
   *  rotated or removed. */
  stillValid(): Promise<boolean>
}

export interface Gate {
  /** The request's place and author, or null when the gate has already answered it. */
  admit(req: IncomingMessage, res: ServerResponse): Promise<Admitted | null>
}
