import { describe, expect, it } from 'vitest'
import { toCsv } from '../../src/shared/csv'
import { exportFileName, exportParts } from '../../src/renderer/src/lib/export/assemble'
import { ExportCancelled, fetchAllChunks } from '../../src/renderer/src/lib/export/fetch-chunks'

const viewers = [
  { viewerId: 'a', os: 'iOS', networkConnections: [{ publicIp: '203.0.113.1', type: { kind: 'wifi' }, proxy: ['p1', 'p2'] }] },
  { viewerId: 'b, "quoted"', os: null, networkConnections: [] }
]

describe('exportParts', () => {
  it('writes CSV exactly as the CLI flattens it', () => {
    const text = exportParts(viewers, 'csv').join('')
    expect(text).toBe(toCsv(viewers))
    const lines = text.split('\r\n')
    expect(lines[0]).toBe('viewerId,os,networkConnections.0.publicIp,networkConnections.0.type.kind,networkConnections.0.proxy,networkConnections')
    expect(lines[1]).toBe('a,iOS,203.0.113.1,wifi,p1;p2,')
    expect(lines[2]).toBe('"b, ""quoted""",,,,,')
    expect(lines).toHaveLength(4) // header, two rows, the final CRLF
  })

  it('writes JSON as JSON.stringify(array, null, 2) does', () => {
    expect(exportParts(viewers, 'json').join('')).toBe(`${JSON.stringify(viewers, null, 2)}\n`)
    expect(exportParts([], 'json').join('')).toBe('[]\n')
  })

  it('neutralises formula-looking text as the CLI does', () => {
    const hostile = [{ eventName: '=HYPERLINK("http://evil.example","x")', os: '@SUM(1)', viewersCount: -3 }]
    const lines = exportParts(hostile, 'csv').join('').split('\r\n')
    expect(lines[1]).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")",'@SUM(1),-3`)
  })

  it('starts a CSV with a byte-order mark when asked, and JSON never', async () => {
    const csv = new Blob(exportParts(viewers, 'csv', { bom: true }))
    const bytes = new Uint8Array(await csv.arrayBuffer())
    expect([...bytes.slice(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 'v'.charCodeAt(0)])
    expect(exportParts(viewers, 'csv', { bom: true }).slice(1).join('')).toBe(toCsv(viewers))
    expect(exportParts(viewers, 'csv')[0]!.charCodeAt(0)).toBe('v'.charCodeAt(0))
    expect(exportParts(viewers, 'json', { bom: true }).join('')).toBe(`${JSON.stringify(viewers, null, 2)}\n`)
  })
})

describe('exportFileName', () => {
  it('names the file after the event, the kind and the date', () => {
    const at = Date.parse('2026-11-21T14:05:00Z')
    expect(exportFileName('Town Hall: Q4 / Ünïcode!', 'viewers', at, 'csv')).toBe('town-hall-q4-unicode-viewers-2026-11-21.csv')
    expect(exportFileName(null, 'snapshots', at, 'json')).toBe('session-snapshots-2026-11-21.json')
  })
})

describe('fetchAllChunks', () => {
  const source = (total: number) => async (offset: number, limit: number) => ({
    records: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({ n: offset + i })),
    total
  })

  it('hands on every chunk, with the progress after each', async () => {
    const progress: [number, number][] = []
    const records: Record<string, unknown>[] = []
    const count = await fetchAllChunks(
      source(12),
      (chunk, d, t) => {
        records.push(...chunk)
        progress.push([d, t])
      },
      undefined,
      5
    )
    expect(count).toBe(12)
    expect(records.map((r) => r.n)).toEqual([...Array(12).keys()])
    expect(progress).toEqual([[5, 12], [10, 12], [12, 12]])
  })

  it('stops at an empty chunk (the list shrank) and on an empty export', async () => {
    expect(await fetchAllChunks(async () => ({ records: [], total: 10 }), () => {}, undefined, 5)).toBe(0)
    expect(await fetchAllChunks(source(0), () => {}, undefined, 5)).toBe(0)
  })

  it('stops between chunks when cancelled', async () => {
    const controller = new AbortController()
    const run = fetchAllChunks(source(100), (_chunk, done) => done >= 10 && controller.abort(), controller.signal, 5)
    await expect(run).rejects.toBeInstanceOf(ExportCancelled)
  })
})
