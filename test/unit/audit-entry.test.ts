// What the audit log keeps of a change: no secret, however it travelled in the arguments.
import { describe, expect, it } from 'vitest'
import { auditEntryOf } from '../../src/main/core/team/audit-entry'

describe('the audit log of a saved connection', () => {
  it('keeps its proxy without the password the form sent along for the keychain, and no client secret', () => {
    const args = { settings: { name: 'Tenant', proxyUrl: 'http://bob:hunter2@proxy.example.com:3128' }, secret: 'client-secret' }
    const entry = auditEntryOf('saveConnection', args, { actor: { name: 'admin', role: 'admin' }, team: false })
    expect(entry.detail).not.toContain('hunter2')
    expect(entry.detail).not.toContain('client-secret')
    expect(entry.detail).toContain('http://bob:hidden@proxy.example.com:3128')
  })

  it('keeps a proxy without a password as it is', () => {
    const entry = auditEntryOf('saveConnection', { settings: { proxyUrl: 'http://proxy.example.com:3128' } }, { actor: { name: 'admin', role: 'admin' }, team: false })
    expect(entry.detail).toContain('"proxyUrl":"http://proxy.example.com:3128"')
  })
})
