// The one helper every text for people goes through on its way out (src/shared/plain-text.ts):
// what each hostile character becomes, what is kept, and that JSON keeps the data exact.
import { describe, expect, it } from 'vitest'
import { isolatedName, isolatedParts, jsonWithEscapedControls, plainText, shorten } from '../../src/shared/plain-text'
import { BIDI_CONTROLS, HOSTILE_NAMES, INVISIBLES, unsafeCharacters } from '../support/hostile-names'

describe('plainText', () => {
  it.each([
    ['a right-to-left override is removed', 'Town hall \u202eexe.gnp', 'Town hall exe.gnp'],
    ['every bidi control is removed', `a${BIDI_CONTROLS.join('')}b`, 'ab'],
    ['zero-width and invisible characters are removed', `ad${INVISIBLES.join('')}min`, 'admin'],
    ['a line break is a space: no forged line', 'first\r\nALERT', 'first  ALERT'],
    ['a tab is a space: no forged column', 'name\tforged', 'name forged'],
    ['C0 controls are spaces: no terminal escape', 'a\u0000b\u001b[31mred', 'a b [31mred'],
    ['DEL and C1 controls are spaces', 'a\u007fb\u0085c\u009b31m', 'a b c 31m'],
    ['line and paragraph separators are spaces', 'a\u2028b\u2029c', 'a b c'],
    ['a lone surrogate is U+FFFD', 'a\ud800b\udc00', 'a\ufffdb\ufffd'],
    ['Markdown, HTML and mentions are text, left to the format', '[x](http://e) <b> <!here> & @channel', '[x](http://e) <b> <!here> & @channel'],
    ['right-to-left scripts are kept', 'שלום עולם · مرحبا', 'שלום עולם · مرحبا'],
    ['joiners that scripts and emoji need are kept', 'می\u200cخواهم 👩\u200d💻', 'می\u200cخواهم 👩\u200d💻'],
    ['a surrogate pair (emoji) is kept', 'Launch 🚀', 'Launch 🚀'],
    ['plain text is unchanged', 'Town hall (s-42)', 'Town hall (s-42)']
  ])('%s', (_what, input, expected) => {
    expect(plainText(input)).toBe(expected)
  })

  it.each(HOSTILE_NAMES)('leaves nothing unsafe in $what', ({ name }) => {
    expect(unsafeCharacters(plainText(name))).toEqual([])
  })
})

describe('shorten', () => {
  it('cuts to at most max UTF-16 code units, the last an ellipsis', () => {
    expect(shorten('abcdef', 4)).toBe('abc…')
    expect(shorten('abcd', 4)).toBe('abcd')
    expect(shorten('x'.repeat(5000), 150)).toHaveLength(150)
  })

  it('never cuts a surrogate pair in half', () => {
    expect(shorten('🚀'.repeat(10), 6)).toBe('🚀🚀…')
    expect(shorten('a🚀🚀🚀🚀', 5)).toBe('a🚀…')
    for (let max = 1; max < 12; max++) expect(unsafeCharacters(shorten('🚀'.repeat(10), max))).toEqual([])
  })
})

describe('jsonWithEscapedControls', () => {
  it('writes bidi, invisible, C1 and separator characters as escapes, so the data parses back exact', () => {
    const value = { id: 's-\u202e42', name: `a${BIDI_CONTROLS.join('')}${INVISIBLES.join('')}\u0085\u2028\u007fz`, n: 1 }
    const json = jsonWithEscapedControls(value, 2)
    expect(unsafeCharacters(json, ['\n'])).toEqual([])
    expect(json).toContain('s-\\u202e42')
    expect(JSON.parse(json)).toEqual(value)
  })

  it('is JSON.stringify for ordinary data', () => {
    const value = [{ name: 'Town hall 🚀 שלום', at: '2026-11-25T10:00:00Z' }]
    expect(jsonWithEscapedControls(value, 2)).toBe(JSON.stringify(value, null, 2))
  })
})

describe('isolatedName and isolatedParts', () => {
  it('isolates a name, made plain, so its own marks cannot end the isolate early', () => {
    expect(isolatedName('Tel Aviv \u2069\u202e office')).toBe('\u2068Tel Aviv  office\u2069')
    expect(plainText(`Cannot reach ${isolatedName('שלום')} · 2 alerts firing`)).toBe('Cannot reach שלום · 2 alerts firing')
  })

  it('splits a line into its words and its isolated names, in order, each plain', () => {
    const line = `Cannot reach ${isolatedName('שלום')}, ${isolatedName('a\u001b[2Jb')} · 2 alerts firing`
    expect(isolatedParts(line)).toEqual([
      { text: 'Cannot reach ', isolated: false },
      { text: 'שלום', isolated: true },
      { text: ', ', isolated: false },
      { text: 'a [2Jb', isolated: true },
      { text: ' · 2 alerts firing', isolated: false }
    ])
    expect(isolatedParts(isolatedName('x'))).toEqual([{ text: 'x', isolated: true }])
    expect(isolatedParts('No alerts')).toEqual([{ text: 'No alerts', isolated: false }])
  })

  it('leaves no mark or control in the words of a line made elsewhere', () => {
    expect(isolatedParts('a\u2069b\u2068c\u202ed')).toEqual([{ text: 'abcd', isolated: false }])
  })
})
