// Sealed secrets: rows of bytes the store keeps and cannot read (the encrypted SecretStore seals
// and opens them, test/integration/store-postgres-secrets.test.ts). Written, replaced, removed; one
// row per service and account; committed with the unit or not at all; seen by another store on the
// data. A database several servers share only: not applicable to SQLite, which refuses the concern
// (a SQLite cache keeps its secrets in the OS keychain; backends.ts).
import { expect, it } from 'vitest'
import type { SealedSecret } from '../../../src/main/core/store/interface/secrets'
import { eachBackend } from './backends'

const sealed = (fill: number, keyId = 'k1'): SealedSecret => ({
  keyId,
  iv: Buffer.alloc(12, fill),
  ciphertext: Buffer.from([fill, 0, 255, fill]),
  authTag: Buffer.alloc(16, fill + 1)
})

eachBackend('secrets', (subject) => {
  it('keeps a row per service and account, replaces it, and removes it', async () => {
    const { store } = subject()
    expect(await store.read.secrets.get('eventwatch', 'conn-1')).toBeNull()
    await store.withTransaction(async (tx) => {
      await tx.secrets.put('eventwatch', 'conn-1', sealed(1), 1_000)
      await tx.secrets.put('eventwatch', 'conn-1:proxy', sealed(2), 1_000)
      await tx.secrets.put('other', 'conn-1', sealed(3), 1_000)
    })
    expect(await store.read.secrets.get('eventwatch', 'conn-1')).toEqual(sealed(1))
    expect(await store.read.secrets.get('other', 'conn-1')).toEqual(sealed(3))
    expect(await store.read.secrets.count('eventwatch')).toBe(2)

    await store.withTransaction((tx) => tx.secrets.put('eventwatch', 'conn-1', sealed(7, 'k2'), 2_000))
    expect(await store.read.secrets.get('eventwatch', 'conn-1')).toEqual(sealed(7, 'k2'))
    expect(await store.read.secrets.count('eventwatch')).toBe(2)

    expect(await store.withTransaction((tx) => tx.secrets.remove('eventwatch', 'conn-1'))).toBe(true)
    expect(await store.withTransaction((tx) => tx.secrets.remove('eventwatch', 'conn-1'))).toBe(false)
    expect(await store.read.secrets.get('eventwatch', 'conn-1')).toBeNull()
    expect(await store.read.secrets.get('eventwatch', 'conn-1:proxy')).toEqual(sealed(2))
  })

  it('keeps the bytes exactly: zero bytes, an empty ciphertext, every byte value', async () => {
    const { store } = subject()
    const every = { keyId: 'k', iv: Buffer.alloc(12, 0), ciphertext: Buffer.from(Array.from({ length: 256 }, (_, i) => i)), authTag: Buffer.alloc(16, 0) }
    const empty = { ...every, ciphertext: Buffer.alloc(0) }
    await store.withTransaction(async (tx) => {
      await tx.secrets.put('eventwatch', 'every', every, 1)
      await tx.secrets.put('eventwatch', 'empty', empty, 1)
    })
    expect(await store.read.secrets.get('eventwatch', 'every')).toEqual(every)
    expect(await store.read.secrets.get('eventwatch', 'empty')).toEqual(empty)
  })

  it('writes nothing of a unit that fails, and shows another store what was committed', async () => {
    const { store, openOther } = subject()
    const unit = store.withTransaction(async (tx) => {
      await tx.secrets.put('eventwatch', 'conn-1', sealed(1), 1)
      throw new Error('the row after it failed')
    })
    await expect(unit).rejects.toThrow('the row after it failed')
    expect(await store.read.secrets.get('eventwatch', 'conn-1')).toBeNull()

    await store.withTransaction((tx) => tx.secrets.put('eventwatch', 'conn-1', sealed(4), 1))
    const other = await openOther()
    expect(await other.read.secrets.get('eventwatch', 'conn-1')).toEqual(sealed(4))
  })

  it('refuses a write outside a unit', async () => {
    const { store } = subject()
    const read = store.read as unknown as { secrets: { put: (...args: unknown[]) => Promise<void> } }
    await expect(read.secrets.put('eventwatch', 'conn-1', sealed(1), 1)).rejects.toThrow()
    expect(await store.read.secrets.get('eventwatch', 'conn-1')).toBeNull()
  })
})
