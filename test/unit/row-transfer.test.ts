// A page's rows cross to the cache writer encoded into typed arrays and one string: what arrives
// (through a real structured clone that moves the buffers) is exactly what was built, hostile
// text included.
import { describe, expect, it } from 'vitest'
import { decodeRows, encodeRows } from '../../src/main/core/store/row-transfer'
import { viewerListRows } from '../../src/main/core/store/viewer-rows'

const page = Array.from({ length: 60 }, (_, i) => ({
  viewerId: ['v', '', '=1+1', '\u{1F600}', 'a\uD800b', 'x'.repeat(300), '\0nul', 'é'][i % 8] + String(i),
  deviceType: i % 3 ? 'Desktop' : undefined,
  os: i % 2 ? 'Windows' : '',
  reliabilityScore: i % 7 ? i / 7 : undefined,
  viewingTime: -0.5 * i,
  startedAt: '2026-11-23T10:00:00.000Z',
  extra: i % 5 === 0 ? { nested: [1, 'two'] } : undefined,
  networkConnections: i % 4 ? [{ siteCode: 100 + (i % 3), publicIp: `203.0.113.${i}`, type: { kind: 'wired' }, proxy: [] }] : []
}))

describe('a page encoded for the cache writer', () => {
  it('arrives as the rows it was built from: numbers, strings of any text, nulls, in their slots', () => {
    const expected = viewerListRows(page as never)
    const { encoded, transfer } = encodeRows(viewerListRows(page as never))
    const moved = structuredClone(encoded, { transfer })
    expect(transfer.every((buffer) => buffer.byteLength === 0)).toBe(true) // moved, not copied
    expect(decodeRows(moved)).toEqual(expected)
  })

  it('refuses a value that is not a number, a string or null', () => {
    expect(() => encodeRows({ count: 1, viewers: [1, true], connections: [] })).toThrow(/boolean/)
  })
})
