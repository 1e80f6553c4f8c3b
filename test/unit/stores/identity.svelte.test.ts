// identity.svelte.ts: who this page is, and which actions it may offer (the core's own table).
import { describe, expect, it } from 'vitest'
import { IdentityStore } from '../../../src/renderer/src/lib/stores/identity.svelte'
import { FakeClient } from './fake-client'

async function signedInAs(role: 'viewer' | 'operator' | 'admin'): Promise<IdentityStore> {
  const identity = new IdentityStore()
  await identity.load(new FakeClient().succeed('getIdentity', { name: 'val', role, team: role !== 'admin' }))
  return identity
}

describe('IdentityStore.may', () => {
  it('offers nothing that changes anything until the identity is known, reads included', () => {
    const identity = new IdentityStore()
    expect(identity.may('refreshSession')).toBe(false)
    expect(identity.may('listAlerts')).toBe(false)
  })

  it('lets a viewer read and nothing else (issue 24, item 7)', async () => {
    const viewer = await signedInAs('viewer')
    expect(viewer.readOnly).toBe(true)
    expect(viewer.may('listAlerts')).toBe(true)
    for (const name of ['refreshSession', 'refreshNow', 'acknowledgeAlert', 'snoozeAlert', 'setSessionAlertOverride', 'pauseNotifications', 'setSiteName', 'addMaintenance'] as const) {
      expect(viewer.may(name), name).toBe(false)
    }
    expect(viewer.may('saveSettings', { thresholds: {} })).toBe(false)
  })

  it('lets an operator act on alerts and levels, and leaves connections and global settings to the administrator', async () => {
    const operator = await signedInAs('operator')
    expect(operator.may('refreshSession')).toBe(true)
    expect(operator.may('saveSettings', { thresholds: {} })).toBe(true)
    expect(operator.may('saveSettings', { display: { trafficUnit: 'bytes' } })).toBe(false)
    // Their own time zone, theme and sound are theirs (issue 25).
    expect(operator.may('saveSettings', { display: { theme: 'light' } })).toBe(true)
    expect(operator.may('saveConnection')).toBe(false)
    const admin = await signedInAs('admin')
    expect(admin.may('saveConnection')).toBe(true)
    expect(admin.may('saveSettings', { display: { trafficUnit: 'bytes' } })).toBe(true)
  })

  it('stays unknown when the core does not answer', async () => {
    const identity = new IdentityStore()
    await identity.load(new FakeClient().refuse('getIdentity', 'The core did not answer.'))
    expect(identity.current).toBeNull()
    expect(identity.may('refreshSession')).toBe(false)
  })
})
