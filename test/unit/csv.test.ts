// CSV for exports: nested values flattened into columns, RFC 4180 quoting, stable columns.
import { describe, expect, it } from 'vitest'
import { csvCell, csvColumns, csvLines, flattenRecord, toCsv } from '../../src/main/cli/csv'
import { parseCsv } from '../support/parse-csv'

describe('flattenRecord', () => {
  it('turns objects into dotted columns and joins arrays of scalars with ";"', () => {
    const row = flattenRecord({ id: 'v1', type: { kind: 'wifi', band: { ghz: 5 } }, proxy: ['a:1', 'b:2'], ok: true })
    expect([...row]).toEqual([
      ['id', 'v1'],
      ['type.kind', 'wifi'],
      ['type.band.ghz', 5],
      ['proxy', 'a:1;b:2'],
      ['ok', true]
    ])
  })

  it('gives arrays of objects indexed columns', () => {
    const row = flattenRecord({
      networkConnections: [
        { publicIp: '203.0.113.1', type: { kind: 'wired' }, proxy: [] },
        { publicIp: '203.0.113.2', proxy: ['p:8080'] }
      ]
    })
    expect(Object.fromEntries(row)).toEqual({
      'networkConnections.0.publicIp': '203.0.113.1',
      'networkConnections.0.type.kind': 'wired',
      'networkConnections.0.proxy': '',
      'networkConnections.1.publicIp': '203.0.113.2',
      'networkConnections.1.proxy': 'p:8080'
    })
  })

  it('keeps null as an empty cell and drops undefined and empty objects', () => {
    const row = flattenRecord({ a: null, b: undefined, c: {}, d: [null, 'x'] })
    expect(Object.fromEntries(row)).toEqual({ a: null, d: ';x' })
  })
})

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    [' spaced ', ' spaced '],
    [42.5, '42.5'],
    [false, 'false'],
    [null, ''],
    [undefined, '']
  ])('%j → %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected)
  })
})

describe('columns', () => {
  it('are in first-seen order, with new nested columns next to their siblings', () => {
    const columns = csvColumns([
      { viewerId: 'a', networkConnections: [{ publicIp: '1', siteCode: 1 }], cdnErrors: 0 },
      { viewerId: 'b', networkConnections: [{ publicIp: '2' }, { publicIp: '3', privateIp: '10.0.0.3' }], extra: 'x' },
      { viewerId: 'c', networkConnections: [{ publicIp: '4', type: { kind: 'wifi' } }], cdnErrors: 1 }
    ])
    expect(columns).toEqual([
      'viewerId',
      'networkConnections.0.publicIp',
      'networkConnections.0.siteCode',
      'networkConnections.0.type.kind',
      'networkConnections.1.publicIp',
      'networkConnections.1.privateIp',
      'cdnErrors',
      'extra'
    ])
  })

  it('put an object column next to a scalar column of the same name', () => {
    expect(csvColumns([{ type: 'wired', b: 1 }, { type: { kind: 'wifi' } }])).toEqual(['type', 'type.kind', 'b'])
  })

  it('fall back to the given header when there are no records', () => {
    expect(csvColumns([], ['time', 'viewersCount'])).toEqual(['time', 'viewersCount'])
    expect(toCsv([], ['time', 'viewersCount'])).toBe('time,viewersCount\r\n')
  })
})

describe('toCsv / csvLines', () => {
  it('writes a header row and one CRLF line per record that parse back to the values', () => {
    const records = [
      { id: 'a', name: 'Town hall, Q3', note: 'said "hello"\nthen left', n: 1 },
      { id: 'b', n: 2.5, extra: true },
      { id: 'c', name: null }
    ]
    const text = toCsv(records)
    expect(text.endsWith('\r\n')).toBe(true)
    expect(parseCsv(text)).toEqual([
      ['id', 'name', 'note', 'n', 'extra'],
      ['a', 'Town hall, Q3', 'said "hello"\nthen left', '1', ''],
      ['b', '', '', '2.5', 'true'],
      ['c', '', '', '', '']
    ])
  })

  it('streams: the header first, then a line per record as it is pulled', () => {
    const pulled: string[] = []
    function* source() {
      for (const id of ['x', 'y']) {
        pulled.push(id)
        yield { id }
      }
    }
    const lines = csvLines(source(), ['id'])
    expect(lines.next().value).toBe('id\r\n')
    expect(pulled).toEqual([])
    expect(lines.next().value).toBe('x\r\n')
    expect(pulled).toEqual(['x'])
    expect([...lines]).toEqual(['y\r\n'])
  })

  it('quotes header cells too', () => {
    expect(toCsv([{ 'a,b': 1 }])).toBe('"a,b"\r\n1\r\n')
  })
})
