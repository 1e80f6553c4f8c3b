// The fast path must agree with the schema: same output for the records it takes, and it must
// leave to the schema every record that needs parsing.
import { describe, expect, it } from 'vitest'
import { ViewerSchema } from '../../src/main/core/api/schemas'
import { viewerAsIs } from '../../src/main/core/api/viewer-fast-path'

const clean = {
  viewerId: 'v1',
  deviceType: 'desktop',
  os: 'Windows 11',
  app: 'Teams',
  networkConnections: [
    { connectionStarted: '2026-11-21T10:00:00Z', publicIp: '203.0.113.5', privateIp: '10.0.0.5', type: { kind: 'wired' }, proxy: ['p1'], siteCode: 101, x_asn: 64500 }
  ],
  reliabilityScore: 97.5,
  rebufferingEvents: 1,
  rebufferingTime: 2.5,
  viewingTime: 600,
  startedAt: '2026-11-21T10:00:00Z',
  cdnTraffic: 1000,
  ecdnTraffic: 2000,
  cdnResponses: 300,
  cdnErrors: 0,
  x_extra: { kept: true }
}

describe('viewer fast path', () => {
  it('takes a clean record as it is, exactly as the schema would output it', () => {
    expect(viewerAsIs(clean)).toBe(clean)
    expect(viewerAsIs(clean)).toEqual(ViewerSchema.parse(clean))
    expect(viewerAsIs({ viewerId: 'bare' })).toEqual(ViewerSchema.parse({ viewerId: 'bare' }))
  })

  it.each([
    ['a numeric string', { ...clean, cdnTraffic: '1000' }],
    ['a numeric viewerId', { ...clean, viewerId: 42 }],
    ['no viewerId', { ...clean, viewerId: undefined }],
    ['an unreadable date', { ...clean, startedAt: 'yesterday' }],
    ['a connection with a string siteCode', { ...clean, networkConnections: [{ siteCode: '101' }] }],
    ['a non-array proxy', { ...clean, networkConnections: [{ proxy: 'p1' }] }],
    ['a null field', { ...clean, os: null }],
    ['an infinite number', { ...clean, viewingTime: Number.POSITIVE_INFINITY }]
  ])('leaves %s to the schema', (_what, record) => {
    expect(viewerAsIs(record)).toBeNull()
  })

  it('is not fooled by non-objects', () => {
    for (const item of [null, 'v1', 42, ['v1']]) expect(viewerAsIs(item)).toBeNull()
  })
})
