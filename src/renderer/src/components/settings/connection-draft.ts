// The connection form's text boxes and the settings they stand for. The secret is never part of
// a draft made from a saved connection: the UI cannot read it back, only replace it.
import type { ConnectionInput, ConnectionView } from '../../../../shared/connections'
import type { ReliabilityScaleSetting } from '../../../../shared/reliability'
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
  /** The connection's own proxy, user name allowed; its password apart, like the secret. */
  proxyUrl: string
  proxyPassword: string
  caCertificate: string
  lookbackDays: string
  reliabilityScale: ReliabilityScaleSetting
  enabled: boolean
  secret: string
}

export function emptyDraft(): ConnectionDraft {
  return {
    name: '', baseUrl: 'https://', authUrl: 'https://', platformId: '', tenantId: '', clientId: '',
    origin: '', referer: '', proxyUrl: '', proxyPassword: '', caCertificate: '', lookbackDays: '7', reliabilityScale: 'auto', enabled: true, secret: ''
  }
}

export function draftOf(c: ConnectionView): ConnectionDraft {
  return {
    name: c.name, baseUrl: c.baseUrl, authUrl: c.authUrl, platformId: c.platformId, tenantId: c.tenantId,
    clientId: c.clientId, origin: c.origin ?? '', referer: c.referer ?? '', proxyUrl: c.proxyUrl ?? '',
    proxyPassword: '', caCertificate: c.caCertificate ?? '', lookbackDays: String(c.lookbackDays),
    reliabilityScale: c.reliabilityScale.setting, enabled: c.enabled, secret: ''
  }
}

/** What saveConnection takes; empty optional values are left out. A typed proxy password rides
 *  in the proxy URL, which the core splits before anything is stored. */
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
    ...(d.proxyUrl.trim() ? { proxyUrl: withPassword(d.proxyUrl, d.proxyPassword) } : {}),
    ...(d.caCertificate.trim() ? { caCertificate: d.caCertificate } : {}),
    enabled: d.enabled,
    lookbackDays: numberFromInput(d.lookbackDays) as number,
    reliabilityScale: d.reliabilityScale
  }
}

function withPassword(proxyUrl: string, password: string): string {
  if (!password) return proxyUrl
  try {
    const url = new URL(proxyUrl.trim())
    if (!url.username) return proxyUrl // no user to go with it: the schema speaks of the URL
    url.password = password
    return url.href
  } catch {
    return proxyUrl
  }
}

const SCALE_WORD = { '0-1': '0–1', '0-100': '0–100' } as const
const SCALE_SOURCE_WORD = { setting: 'set', detected: 'detected', default: 'assumed' } as const

/** The scale a connection's scores are read on now, and how it was decided: "0–1, detected". */
export function scaleInUse(scale: ConnectionView['reliabilityScale']): string {
  return `${SCALE_WORD[scale.value]}, ${SCALE_SOURCE_WORD[scale.source]}`
}
