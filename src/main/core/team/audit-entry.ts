// What the audit log keeps of a change: who, which request, about what, and its arguments with
// every secret taken out (a connection's client secret, a webhook's signing secret and its URL's query).
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

/** A webhook's URL without its query (a Teams Workflows sig is a secret); undefined for anything else. */
const hiddenQuery = (key: string, value: unknown): string | undefined => (key === 'url' && typeof value === 'string' ? hideUrlQueries(value) : undefined)

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
