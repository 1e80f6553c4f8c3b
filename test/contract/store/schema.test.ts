// The schema a store serves, read afresh from the database: what a server's readiness (GET /readyz)
// asks on every probe. Another build may move it on under a running store.
import { expect, it } from 'vitest'
import { eachBackend } from './backends'

eachBackend('schema', (subject) => {
  it('says the schema the data carries and the one this build makes: the same, once opened', async () => {
    const { store } = subject()
    const check = await store.schema()
    expect(check.known).toBeGreaterThan(0)
    expect(check).toEqual({ found: check.known, known: check.known })
  })

  it('reads the version afresh: a newer build stamping the data is seen by the next call, by every store on it', async () => {
    const { store, openOther, stampSchema } = subject()
    const other = await openOther()
    const { known } = await store.schema()
    await stampSchema(known + 1)
    expect(await store.schema()).toEqual({ found: known + 1, known })
    expect(await other.schema()).toEqual({ found: known + 1, known })
    await stampSchema(known)
    expect(await store.schema()).toEqual({ found: known, known })
  })

  it('rejects once the store is closed', async () => {
    const { openOther } = subject()
    const other = await openOther()
    await other.close()
    await expect(other.schema()).rejects.toThrow()
  })
})
