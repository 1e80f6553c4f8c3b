// Who acts when nobody signed in: the person at this machine (desktop, CLI, `serve` on loopback),
// the administrator. Their OS account names them in the audit log.
import { userInfo } from 'node:os'
import type { RequestContext } from '../../../shared/contract'

function osUserName(): string {
  try {
    return userInfo().username || 'local'
  } catch {
    return 'local' // no passwd entry (a container's arbitrary uid)
  }
}

const LOCAL: RequestContext = { actor: { name: osUserName(), role: 'admin' }, team: false }

export const localContext = (): RequestContext => LOCAL
