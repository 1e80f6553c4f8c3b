// Names as a hostile service, a careless colleague or an attacker might give them, for every test
// of a text that leaves Eventwatch (webhook bodies, notifications, the tray, terminal lines), and
// one check of what no such text may carry, written out code point by code point (not with the
// Unicode classes src/shared/plain-text.ts uses, so a mistake there is not repeated here).

/** The explicit bidirectional formatting characters: embeddings and overrides, isolates, marks. */
export const BIDI_CONTROLS = [
  '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', // LRE RLE PDF LRO RLO
  '\u2066', '\u2067', '\u2068', '\u2069', // LRI RLI FSI PDI
  '\u200e', '\u200f', '\u061c' // LRM RLM ALM
]

/** Characters that show nothing: zero-width space, word joiner, byte-order mark, a tag character. */
export const INVISIBLES = ['\u200b', '\u2060', '\ufeff', '\u{e0041}']

export const HOSTILE_NAMES: { what: string; name: string }[] = [
  { what: 'a Markdown link', name: '[click](http://evil.example)' },
  { what: 'a Markdown image', name: '![logo](http://evil.example/track.png)' },
  { what: 'a Markdown reference link', name: '[click][1] [1]: http://evil.example' },
  { what: 'an autolink', name: '<http://evil.example>' },
  { what: 'Markdown emphasis and code', name: '**bold** __bold__ *it* _it_ ~~struck~~ `code`' },
  { what: 'a bulleted list start', name: '- item' },
  { what: 'a numbered list start', name: '1. first' },
  { what: 'a heading start', name: '# Heading' },
  { what: 'a quote start', name: '> quoted' },
  { what: 'HTML', name: '<b>bold</b><img src=x onerror=alert(1)><script>alert(1)</script>' },
  { what: 'an HTML entity', name: '&lt;b&gt; &amp; &#91;x&#93;' },
  { what: 'a Teams mention', name: '<at>General</at>' },
  { what: 'Slack mentions', name: '<!channel> <!here> <!everyone> <@U024BE7LH> @channel @here' },
  { what: 'a Slack link', name: '<http://evil.example|click here>' },
  { what: 'a right-to-left override', name: 'Town hall \u202eexe.gnp' },
  ...BIDI_CONTROLS.map((c) => ({ what: `the bidi control U+${code(c)}`, name: `Town ${c}hall` })),
  ...INVISIBLES.map((c) => ({ what: `the invisible U+${code(c)}`, name: `ad${c}min` })),
  { what: 'C0 controls and a terminal escape', name: 'a\u0000b\u0007c \u001b[31mred\u001b[0m \u001b]8;;http://evil.example\u0007link\u001b]8;;\u0007' },
  { what: 'a line break and a tab', name: 'first\r\nALERT critical\tforged column' },
  { what: 'DEL and C1 controls', name: 'a\u007fb\u0085c\u009b31md' },
  { what: 'line and paragraph separators', name: 'a\u2028b\u2029c' },
  { what: 'a lone surrogate', name: 'a\ud800b' },
  { what: 'a very long name', name: `${'Town hall '.repeat(600)}end` }
]

function code(c: string): string {
  return c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')
}

/**
 * The characters in `text` that no text for people may carry, as "U+202E" words (none: []).
 * `allowed` lists those the format itself uses (a terminal list's tabs and line ends).
 */
export function unsafeCharacters(text: string, allowed: readonly string[] = []): string[] {
  const found: string[] = []
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      const pair = text.slice(i, i + 2)
      if (INVISIBLES.includes(pair)) found.push(`U+${code(pair)}`)
      i++
      continue
    }
    const c = text[i]!
    if (allowed.includes(c)) continue
    const unsafe =
      unit < 0x20 || (unit >= 0x7f && unit <= 0x9f) || unit === 0x2028 || unit === 0x2029 ||
      (unit >= 0xd800 && unit <= 0xdfff) || BIDI_CONTROLS.includes(c) || INVISIBLES.includes(c)
    if (unsafe) found.push(`U+${code(c)}`)
  }
  return found
}
