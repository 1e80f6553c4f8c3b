// CSV injection: text a spreadsheet would run as a formula is written with a leading ', in data
// cells and header cells alike; numbers stay numbers; RFC 4180 quoting still applies after it.
import { describe, expect, it } from 'vitest'
import { csvCell, neutralise, toCsv } from '../../src/shared/csv'

describe('neutralise', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', `'=HYPERLINK("http://evil.example","x")`],
    ['+1+1', `'+1+1`],
    ['-2+3', `'-2+3`],
    ['@SUM(1)', `'@SUM(1)`],
    ['\tcmd', `'\tcmd`],
    ['\rcmd', `'\rcmd`]
  ])('prefixes %j', (text, expected) => {
    expect(neutralise(text)).toBe(expected)
  })

  it.each(['plain', 'a=b', 'x-1', ' =spaced', "'already", '', 'Windows 11', '\ntext'])('leaves %j alone', (text) => {
    expect(neutralise(text)).toBe(text)
  })
})

describe('csvCell', () => {
  it.each([
    ['=1+1', `'=1+1`],
    ['-3', `'-3`], // text that looks like a number is still text from the service
    ['@SUM(A1:A9)', `'@SUM(A1:A9)`],
    ['=A1,B1', `"'=A1,B1"`], // neutralised, then quoted for the comma
    ['=say "hi"', `"'=say ""hi"""`],
    ['\r\nrest', `"'\r\nrest"`], // neutralised, then quoted for the CR and LF
    ['\tindented', `'\tindented`]
  ])('writes the text %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected)
  })

  it('writes numbers and booleans as they are, negative ones included', () => {
    expect(csvCell(-3)).toBe('-3')
    expect(csvCell(-0.5)).toBe('-0.5')
    expect(csvCell(-1e21)).toBe('-1e+21')
    expect(csvCell(true)).toBe('true')
  })
})

describe('toCsv', () => {
  it('neutralises every text cell: fields, nested fields, joined arrays and header cells', () => {
    const text = toCsv([
      {
        eventName: '=HYPERLINK("http://evil.example","Q4")',
        viewersCount: -3,
        os: '@SUM(1)',
        networkConnections: [{ type: { kind: '+wifi' }, proxy: ['-p:1', 'q:2'] }],
        '=bad': 'x',
        ports: [-1, 2]
      }
    ])
    const [header, row] = text.split('\r\n')
    expect(header).toBe("eventName,viewersCount,os,networkConnections.0.type.kind,networkConnections.0.proxy,'=bad,ports")
    expect(row).toBe(`"'=HYPERLINK(""http://evil.example"",""Q4"")",-3,'@SUM(1),'+wifi,'-p:1;q:2,x,'-1;2`)
  })

  it('leaves safe text and numbers byte for byte as before', () => {
    expect(toCsv([{ id: 'a', name: 'Town hall, Q3', n: -2.5, ok: false, none: null }])).toBe('id,name,n,ok,none\r\na,"Town hall, Q3",-2.5,false,\r\n')
  })
})
