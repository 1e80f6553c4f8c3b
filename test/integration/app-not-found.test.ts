// An unknown id through the app API answers 'not-found' (not 'internal'), keeping the message:
// one rule in dispatch for every handler whose error is of that kind.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import type { SecretStore } from '../../src/main/core/secrets/keychain'

let dir: string
let core: AppCore
// No keychain is asked about an unknown id; an empty store keeps the test off D-Bus.
const noSecrets: SecretStore = { save: async () => undefined, read: async () => null, remove: async () => false }

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-not-found-'))
  core = await startAppCore({
    db: join(dir, 'cache.db'),
    cadences: { discoveryMs: 60_000, detailMs: 60_000, viewersMs: 60_000 },
    secrets: noSecrets
  })
})

afterAll(async () => {
  await core?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('unknown ids through the app API', () => {
  it.each([
    ['acknowledgeAlert', { id: 987654 }, 'Acknowledging an alert failed: there is no alert 987654'],
    ['snoozeAlert', { id: 987654, until: '15m' }, 'Snoozing an alert failed: there is no alert 987654'],
    ['setConnectionEnabled', { id: 'no-such-connection', enabled: false }, 'Enabling or disabling a connection failed: no connection with id no-such-connection'],
    ['testConnection', { id: 'no-such-connection' }, 'Testing a connection failed: no connection with id no-such-connection'],
    [
      'setSessionAlertOverride',
      { connectionId: 'no-such-connection', eventSessionId: 's-1', muted: true },
      'Muting a session or setting its own levels failed: there is no connection no-such-connection'
    ]
  ])('%s answers not-found with the reason, the action in words', async (name, args, message) => {
    const result = await core.dispatch(name, args)
    expect(result).toEqual({ ok: false, error: { code: 'not-found', message } })
  })
})
