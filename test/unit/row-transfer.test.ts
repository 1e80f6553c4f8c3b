// A page's rows cross to the cache writer encoded into typed arrays and one string: what arrives
// (through a real structured clone that moves the buffers) is exactly what was built, hostile
// text included.
import { describe, expect, it } from 'vitest'
import { decodeRows, transferList, ValuesWriter } from '../../src/main/core/store/row-transfer'
import { encodedViewerRows, VIEWER_ROW_WIDTH } from '../../src/main/core/store/viewer-rows'

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
    const encoded = encodedViewerRows(page as never)
    const expected = decodeRows(encodedViewerRows(page as never))
    const moved = structuredClone(encoded, { transfer: transferList(encoded) })
    expect(transferList(encoded).every((buffer) => buffer.byteLength === 0)).toBe(true) // moved, not copied
    expect(decodeRows(moved)).toEqual(expected)
    // Each value in its slot: the fourth viewer's index, list slot, id (an emoji), missing device type, os.
    const fourth = expected.viewers.slice(3 * VIEWER_ROW_WIDTH, 4 * VIEWER_ROW_WIDTH)
    expect(fourth.slice(0, 5)).toEqual([3, 0, '\u{1F600}3', null, 'Windows'])
    expect(expected.viewers[VIEWER_ROW_WIDTH + 3]).toBe('Desktop')
    expect(expected.viewers[2]).toBe('v0')
    expect(expected.viewers[3]).toBeNull() // i % 3 === 0: no device type
    expect(expected.connections.length).toBe(45 * 8) // 45 of the 60 have one connection
  })

  it('refuses a value of the wrong type, and a row array left short', () => {
    const writer = new ValuesWriter(2)
    writer.number(1)
    expect(() => writer.number('2' as never)).toThrow(/string where a number belongs/)
    expect(() => new ValuesWriter(2).finish()).toThrow(/0 values for 2 slots/)
  })
})
