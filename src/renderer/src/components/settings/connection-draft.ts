// The connection form's text boxes and the settings they stand for. The secret is never part of
// a draft made from a saved connection: the UI cannot read it back, only replace it.
import type { ConnectionInput, ConnectionView } from '../../../../shared/connections'
import { numberFromInput } from './field-issues'

export interface ConnectionDraft {
  name: string
  baseUrl: string
  authUrl: string
  platformId: string
  tenantId: string
  clientId: string
  origin: string
  referer: string
  lookbackDays: string
  enabled: boolean
  secret: string
}

export function emptyDraft(): ConnectionDraft {
  return {
    name: '', baseUrl: 'https://', authUrl: 'https://', platformId: '', tenantId: '', clientId: '',
    origin: '', referer: '', lookbackDays: '7', enabled: true, secret: ''
  }
}

export function draftOf(c: ConnectionView): ConnectionDraft {
  return {
    name: c.name, baseUrl: c.baseUrl, authUrl: c.authUrl, platformId: c.platformId, tenantId: c.tenantId,
    clientId: c.clientId, origin: c.origin ?? '', referer: c.referer ?? '', lookbackDays: String(c.lookbackDays),
    enabled: c.enabled, secret: ''
  }
}

/** What saveConnection takes; empty optional headers are left out. */
export function inputOf(d: ConnectionDraft): ConnectionInput {
  return {
    name: d.name,
    baseUrl: d.baseUrl,
    authUrl: d.authUrl,
    platformId: d.platformId,
    tenantId: d.tenantId,
    clientId: d.clientId,
    ...(d.origin.trim() ? { origin: d.origin } : {}),
    ...(d.referer.trim() ? { referer: d.referer } : {}),
    enabled: d.enabled,
    lookbackDays: numberFromInput(d.lookbackDays) as number
  }
}
