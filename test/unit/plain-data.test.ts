import { describe, expect, it } from 'vitest'
import { findNonPlainData } from '../../src/main/core/app/plain-data'

describe('findNonPlainData', () => {
  it('accepts primitives, plain and prototype-less objects, arrays and nothing', () => {
    for (const value of [undefined, null, 0, NaN, 'text', true, 1n, {}, Object.create(null), [1, [2, { a: 'b' }]], { a: { b: [null] } }]) {
      expect(findNonPlainData(value)).toBeNull()
    }
  })

  it('names the first Date, Map, Set, typed array or boxed value and where it is', () => {
    expect(findNonPlainData(new Date())).toEqual({ path: '', type: 'Date' })
    expect(findNonPlainData({ filter: new Map() })).toEqual({ path: 'filter', type: 'Map' })
    expect(findNonPlainData({ a: [1, { b: new Set() }] })).toEqual({ path: 'a.1.b', type: 'Set' })
    expect(findNonPlainData({ bytes: new Uint8Array(2) })).toEqual({ path: 'bytes', type: 'Uint8Array' })
    expect(findNonPlainData({ flag: new Boolean(false) })).toEqual({ path: 'flag', type: 'Boolean' })
  })

  it('survives cycles and nesting deeper than the stack', () => {
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    expect(findNonPlainData(cyclic)).toBeNull()

    let deep: unknown = new Date()
    for (let i = 0; i < 100_000; i++) deep = { x: deep }
    expect(findNonPlainData(deep)?.type).toBe('Date')
  })
})
