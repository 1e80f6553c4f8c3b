// The real OS keychain (Secret Service over D-Bus on Linux; `npm test` starts one if needed).
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { KeychainUnavailableError, osKeychain } from '../../src/main/core/secrets/keychain'

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
