// A page's rows cross to the cache writer with their repeating strings in a dictionary: what
// arrives (through a real structured clone) is exactly what was built.
import { describe, expect, it } from 'vitest'
import { packRows, unpackRows, type PackedRows } from '../../src/main/core/store/page-transfer'
import { viewerListRows } from '../../src/main/core/store/viewer-rows'

const page = Array.from({ length: 40 }, (_, i) => ({
  viewerId: `v-${i}`,
  deviceType: i % 3 ? 'Desktop' : 'Mobile',
  os: i % 2 ? 'Windows' : null,
  app: undefined,
  reliabilityScore: i,
  extraField: i % 5 === 0 ? '=1+1' : undefined, // a record with extras keeps its raw JSON
  networkConnections: i % 4 ? [{ siteCode: 100 + (i % 3), type: { kind: 'wired' }, proxy: i % 2 ? [] : ['p.example'] }] : []
}))

describe('a page packed for the cache writer', () => {
  it('arrives as the rows it was built from, strings and nulls in their slots', () => {
    const expected = viewerListRows(page as never)
    const packed = structuredClone(packRows(viewerListRows(page as never))) as PackedRows
    // 220 string slots (4 per viewer, 2 per connection); each repeat sent once.
    expect(packed.dictionary.length).toBeLessThan(60)
    expect(unpackRows(packed)).toEqual(expected)
  })
})
