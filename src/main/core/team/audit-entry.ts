// What the audit log keeps of a change: who, which request, about what, and its arguments with
// every secret taken out (a connection's client secret and proxy password, a webhook's signing
// secret and its URL's query).
import type { RequestContext, RequestName } from '../../../shared/contract'
import { hideUrlQueries } from '../../../shared/webhooks'
import type { AuditRecord } from '../store/audit'

const SECRET_KEYS = new Set(['secret', 'password', 'proxyPassword', 'token'])
const MAX_DETAIL = 1000

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, SECRET_KEYS.has(key) ? '(hidden)' : hiddenQuery(key, inner) ?? withoutSecrets(inner)])
  )
}

/** A webhook's URL without its query (a Teams Workflows sig is a secret), a proxy's without its
 *  password (the connection form sends it there, for the keychain); undefined for anything else. */
function hiddenQuery(key: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  if (key === 'url') return hideUrlQueries(value)
  if (key === 'proxyUrl') return withoutPassword(value)
  return undefined
}

function withoutPassword(address: string): string {
  try {
    const url = new URL(address)
    if (!url.password) return address
    url.password = 'hidden'
    return url.href
  } catch {
    return '(unreadable address hidden)'
  }
}

/** "alert 12", "session <connection>/<session>", "connection <id>", or null. */
function subjectOf(name: RequestName, args: Record<string, unknown>): string | null {
  if (typeof args['connectionId'] === 'string' && typeof args['eventSessionId'] === 'string') {
    return `session ${args['connectionId']}/${args['eventSessionId']}`
  }
  if (typeof args['connectionId'] === 'string') return `connection ${args['connectionId']}`
  if (args['id'] === undefined) return null
  const kind = /Alert/.test(name) ? 'alert' : /Maintenance/.test(name) ? 'maintenance window' : /Webhook/.test(name) ? 'webhook' : 'connection'
  return `${kind} ${String(args['id'])}`
}

export function auditEntryOf(name: RequestName, args: unknown, context: RequestContext): AuditRecord {
  const plain = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>
  const detail = JSON.stringify(withoutSecrets(plain))
  return {
    actor: context.actor.name,
    action: name,
    subject: subjectOf(name, plain),
    detail: detail === '{}' ? null : detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL - 1)}…` : detail
  }
}
