// Connection settings validation: https everywhere, plain http only to this machine.
import { describe, expect, it } from 'vitest'
import { ConnectionInputSchema, serviceUrlProblem } from '../../src/shared/connections'

describe('service URLs', () => {
  it.each([
    'https://api.example.com',
    'https://api.example.com:8443/reporting',
    'http://127.0.0.1:8080',
    'http://127.1.2.3',
    'http://localhost:3000/api',
    'http://[::1]:9000'
  ])('accepts %s', (url) => {
    expect(serviceUrlProblem(url)).toBeNull()
  })

  it.each([
    ['http://api.example.com', /must use https: \(plain http: is allowed only for this machine\)/],
    ['http://10.0.0.5', /must use https:/],
    ['http://localhost.example.com', /must use https:/],
    ['ftp://files.example.com', /^must use https:$/],
    ['https://user:secret@api.example.com', /must not contain a user name or password/],
    ['https://api.example.com/?key=1', /must not contain a query/],
    ['not a url', /not a valid URL/],
    ['', /not a valid URL/]
  ])('rejects %s with a message', (url, message) => {
    expect(serviceUrlProblem(url)).toMatch(message)
  })

  it('reports the field in the schema', () => {
    const result = ConnectionInputSchema.safeParse({
      name: 'x',
      baseUrl: 'https://api.example.com',
      authUrl: 'http://auth.example.com',
      platformId: 'p',
      tenantId: 't',
      clientId: 'c'
    })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual(['authUrl'])
  })
})
