// What the client needs to reach one tenant of the reporting API.
import type { ConnectionNetwork } from '../net/connection-fetch'

export interface ConnectionTarget {
  id: string
  name: string
  baseUrl: string
  authUrl: string
  platformId: string
  tenantId: string
  clientId: string
  /** Optional request headers of the spec, sent on every data request when set. */
  origin?: string
  referer?: string
  /** Its own proxy and extra CA certificate, when it has them (net/connection-fetch.ts). */
  network?: ConnectionNetwork
}

export interface Credentials {
  clientId: string
  clientSecret: string
}
