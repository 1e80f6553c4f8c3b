// The real OS keychain (Secret Service over D-Bus on Linux; `npm test` starts one if needed).
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConnectionService } from '../../src/main/core/connections/service'
import { KeychainUnavailableError, KeytarMissingError, osKeychain } from '../../src/main/core/secrets/keychain'
import { openSqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'

const service = `eventwatch-test-${randomUUID()}`
const keychain = osKeychain(service)
const accounts: string[] = []

afterEach(async () => {
  for (const account of accounts.splice(0)) await keychain.remove(account).catch(() => undefined)
})

describe('OS keychain', () => {
  it('stores, reads back and deletes a secret', async () => {
    const account = randomUUID()
    accounts.push(account)
    await keychain.save(account, 's3cr3t-value')
    expect(await keychain.read(account)).toBe('s3cr3t-value')
    expect(await keychain.remove(account)).toBe(true)
    expect(await keychain.read(account)).toBeNull()
  })

  it('keeps secrets of different accounts apart', async () => {
    const [a, b] = [randomUUID(), randomUUID()]
    accounts.push(a, b)
    await keychain.save(a, 'first')
    await keychain.save(b, 'second')
    expect(await keychain.read(a)).toBe('first')
    expect(await keychain.read(b)).toBe('second')
  })

  it('explains how to fix a missing keychain instead of falling back to clear text', () => {
    const error = new KeychainUnavailableError(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY\nmore'))
    expect(error.message).toContain('Cannot autolaunch D-Bus without X11 $DISPLAY')
    expect(error.message).not.toContain('more')
    expect(error.message).toContain('EVENTWATCH_CLIENT_SECRET')
  })
})

describe('without the keychain module (keytar not built: no libsecret headers at install)', () => {
  const missing = () => Promise.reject(Object.assign(new Error("Cannot find module 'keytar'"), { code: 'ERR_MODULE_NOT_FOUND' }))

  it('says in one line what to install, as an unavailable keychain, and tries to load it again next time', async () => {
    let attempts = 0
    const keychain = osKeychain(service, () => {
      attempts++
      return missing()
    })
    const failure = await keychain.save('account', 'secret').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(KeychainUnavailableError)
    expect(failure).toBeInstanceOf(KeytarMissingError)
    const message = (failure as Error).message
    expect(message).toMatch(/^the keychain module \(keytar\) is not installed: on Linux install libsecret-1-dev, then run npm install again \(npm removes an optional module whose build was skipped, and npm rebuild cannot bring it back\);/)
    expect(message).not.toContain('\n')
    await expect(keychain.read('account')).rejects.toBeInstanceOf(KeytarMissingError)
    expect(attempts).toBe(2)
  })

  it('a connection saved without it is refused as a configuration problem in those words, and nothing is kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventwatch-no-keytar-'))
    const store = openSqliteStore(join(dir, 'cache.db'))
    try {
      const connections = new ConnectionService(store, osKeychain(service, missing))
      const settings = { name: 'Tenant', baseUrl: 'https://api.example.com', authUrl: 'https://auth.example.com', platformId: 'p', tenantId: 't', clientId: 'c' }
      const refused = await connections.save(settings, 'the-secret').catch((error: unknown) => error)
      expect(refused).toMatchObject({ kind: 'configuration', message: expect.stringMatching(/^the keychain module \(keytar\) is not installed/) })
      expect((refused as Error).message).not.toContain('the-secret')
      expect(await connections.list()).toEqual([])
    } finally {
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
