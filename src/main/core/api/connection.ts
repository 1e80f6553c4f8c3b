// What the client needs to reach one tenant of the reporting API.

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
}

export interface Credentials {
  clientId: string
  clientSecret: string
}
