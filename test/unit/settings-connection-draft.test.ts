import { describe, expect, it } from 'vitest'
import { draftOf, emptyDraft, inputOf } from '../../src/renderer/src/components/settings/connection-draft'
import { fieldIssues } from '../../src/renderer/src/components/settings/field-issues'
import { ConnectionInputSchema, type ConnectionView } from '../../src/shared/connections'

const saved: ConnectionView = {
  id: 'c1', name: 'Tenant A', baseUrl: 'https://api.example.com', authUrl: 'https://auth.example.com',
  platformId: 'p', tenantId: 't', clientId: 'client', origin: null, referer: 'https://intranet.example.com', proxyUrl: null, proxyPasswordStored: false, caCertificate: null,
  enabled: false, lookbackDays: 14, isDemo: false, secretStored: true, polled: false,
  reliabilityScale: { setting: '0-1', value: '0-1', source: 'setting', reason: 'set for this connection' }
}

describe('connection form drafts', () => {
  it('never carries a saved secret into the form', () => {
    expect(draftOf(saved).secret).toBe('')
  })

  it('round-trips a saved connection into valid settings, leaving empty headers out', () => {
    const input = inputOf(draftOf(saved))
    expect(input).toEqual({
      name: 'Tenant A', baseUrl: 'https://api.example.com', authUrl: 'https://auth.example.com', platformId: 'p',
      tenantId: 't', clientId: 'client', referer: 'https://intranet.example.com', enabled: false, lookbackDays: 14,
      reliabilityScale: '0-1'
    })
    expect(ConnectionInputSchema.safeParse(input).success).toBe(true)
  })

  it('starts a new connection invalid until it is filled in', () => {
    expect(ConnectionInputSchema.safeParse(inputOf(emptyDraft())).success).toBe(false)
  })

  it('says what an empty form lacks in plain words: required, and what a full address looks like (issue 24, item 9)', () => {
    expect(fieldIssues(ConnectionInputSchema, inputOf(emptyDraft()))).toEqual({
      name: 'is required',
      baseUrl: 'must be a full address such as https://api.example.com',
      authUrl: 'must be a full address such as https://auth.example.com',
      platformId: 'is required',
      tenantId: 'is required',
      clientId: 'is required'
    })
    expect(fieldIssues(ConnectionInputSchema, inputOf({ ...emptyDraft(), authUrl: 'auth.example.com' })).authUrl).toBe(
      'must be a full address such as https://auth.example.com'
    )
  })

  it('starts a new connection on an automatic reliability scale, and keeps the setting (not the scale detected) of a saved one', () => {
    expect(emptyDraft().reliabilityScale).toBe('auto')
    const detected: ConnectionView = { ...saved, reliabilityScale: { setting: 'auto', value: '0-1', source: 'detected', reason: 'scores up to 0.99' } }
    expect(inputOf(draftOf(detected)).reliabilityScale).toBe('auto')
  })
})
