// Site names: what an operator calls the service's site codes, named, renamed and forgotten.
import { expect, it } from 'vitest'
import { eachBackend } from './backends'

eachBackend('sites', (subject) => {
  it('names sites, replaces a name, and forgets one', async () => {
    const { store } = subject()
    expect(await store.read.sites.names()).toEqual([])
    await store.withTransaction(async (tx) => {
      await tx.sites.setName(312, 'Leeds')
      await tx.sites.setName(311, '  Main office ')
    })
    expect(await store.read.sites.names()).toEqual([{ code: 311, name: 'Main office' }, { code: 312, name: 'Leeds' }])
    await store.withTransaction((tx) => tx.sites.setName(312, 'Leeds, 2nd floor'))
    await store.withTransaction((tx) => tx.sites.setName(311, null))
    expect(await store.read.sites.names()).toEqual([{ code: 312, name: 'Leeds, 2nd floor' }])
  })

  it('refuses a name it cannot keep, saying why, and writes nothing of its unit', async () => {
    const { store } = subject()
    const unit = store.withTransaction(async (tx) => {
      await tx.sites.setName(311, 'Main office')
      await tx.sites.setName(312, 'two\nlines')
    })
    await expect(unit).rejects.toThrow('a site name is one line')
    await expect(store.withTransaction((tx) => tx.sites.setName(313, ' '))).rejects.toThrow('a site name cannot be empty')
    expect(await store.read.sites.names()).toEqual([])
  })
})
