// CSV column discovery: the same order as the first (quadratic) version, in linear time.
import { describe, expect, it } from 'vitest'
import { CsvColumns, csvColumns, csvLines, flattenRecord } from '../../src/shared/csv'

/** The first version, kept here as the definition of the order: scan every column for each new one. */
function referenceColumns(records: Record<string, unknown>[]): string[] {
  const columns: string[] = []
  const known = new Set<string>()
  const sharedParents = (added: string[], existing: string[]): number => {
    let n = 0
    while (n < added.length - 1 && n < existing.length && added[n] === existing[n]) n++
    return n
  }
  for (const record of records) {
    for (const column of flattenRecord(record).keys()) {
      if (known.has(column)) continue
      known.add(column)
      const path = column.split('.')
      let at = columns.length
      let best = 0
      columns.forEach((existing, i) => {
        const shared = sharedParents(path, existing.split('.'))
        if (shared > 0 && shared >= best) {
          best = shared
          at = i + 1
        }
      })
      columns.splice(at, 0, column)
    }
  }
  return columns
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Records whose keys collide across records: a scalar here, an object or an array there. */
function randomRecord(next: () => number, depth = 0): Record<string, unknown> {
  const record: Record<string, unknown> = {}
  const keys = ['a', 'b', 'c', 'd', 'type', 'networkConnections']
  const width = 1 + Math.floor(next() * 4)
  for (let i = 0; i < width; i++) {
    const key = keys[Math.floor(next() * keys.length)]!
    const pick = next()
    if (depth >= 3 || pick < 0.45) record[key] = Math.floor(next() * 10)
    else if (pick < 0.75) record[key] = randomRecord(next, depth + 1)
    else if (pick < 0.85) record[key] = ['x', 'y'].slice(0, Math.floor(next() * 3))
    else record[key] = Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomRecord(next, depth + 1))
  }
  return record
}

describe('CSV column order', () => {
  it('is exactly the first version on 3,000 random sequences of colliding records', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed)
      const records = Array.from({ length: 1 + Math.floor(next() * 6) }, () => randomRecord(next))
      expect(csvColumns(records), `seed ${seed}`).toEqual(referenceColumns(records))
    }
  })

  it('places a column after the columns it shares the longest parent path with', () => {
    const columns = new CsvColumns()
    columns.add({ a: { x: 1 }, b: 1 })
    columns.add({ a: 1 }) // a column of its own, not under itself: at the end
    columns.add({ a: { y: 1 } }) // under "a": after the last column there, which is now "a"
    columns.add({ b: { z: { w: 1 } } })
    columns.add({ b: { z: { v: 1 }, u: 1 } })
    expect(columns.list()).toEqual(['a.x', 'b', 'b.z.w', 'b.z.v', 'b.u', 'a', 'a.y'])
    expect(columns.list()).toEqual(referenceColumns([{ a: { x: 1 }, b: 1 }, { a: 1 }, { a: { y: 1 } }, { b: { z: { w: 1 } } }, { b: { z: { v: 1 }, u: 1 } }]))
  })

  it('handles a viewer with 10,000 network connections: columns found and the CSV written (the first version took 450 s)', () => {
    const started = performance.now()
    const viewer = {
      viewerId: 'v-many',
      os: 'Windows 11',
      networkConnections: Array.from({ length: 10_000 }, (_, i) => ({
        connectionStarted: '2025-03-10T09:00:00.000Z',
        publicIp: `203.0.113.${i % 250}`,
        privateIp: `10.0.${i % 250}.1`,
        type: { kind: 'wifi', ssid: `corp-${i}` },
        proxy: ['proxy-a:8080'],
        siteCode: i
      })),
      reliabilityScore: 97
    }
    const records = [{ viewerId: 'v-first', reliabilityScore: 99 }, viewer]
    const columns = csvColumns(records)
    expect(columns).toHaveLength(2 + 1 + 10_000 * 7)
    expect(columns.slice(0, 3)).toEqual(['viewerId', 'reliabilityScore', 'os'])
    expect(columns[3]).toBe('networkConnections.0.connectionStarted')
    expect(columns[10]).toBe('networkConnections.1.connectionStarted')
    expect(columns.at(-1)).toBe('networkConnections.9999.siteCode')
    const [header, first, second] = [...csvLines(records, columns)].map((line) => line.replace(/\r\n$/, '').split(','))
    expect(header).toEqual(columns)
    expect(first).toHaveLength(columns.length)
    expect(second!.at(-1)).toBe('9999')
    expect(second![columns.indexOf('networkConnections.4321.type.ssid')]).toBe('corp-4321')
    // A bound far above the real time (well under a second) so it never flakes, and far below 450 s.
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})
