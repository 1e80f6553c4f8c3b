// What the client needs to reach one tenant of the reporting API.

export interface ConnectionTarget {
  id: string
  name: string
  baseUrl: string
  authUrl: string
  platformId: string
  tenantId: string
  clientId: string
}

export interface Credentials {
  clientId: string
  clientSecret: string
}
