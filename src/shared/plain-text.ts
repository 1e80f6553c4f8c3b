// Text from the service or from people (event, connection, site, user and window names, notes,
// summaries, a receiver's answer) as it leaves Eventwatch for a person: a webhook body, an OS or
// browser notification, the tray, a terminal line, the HTML report. Such text is hostile:
//
//   - control characters (C0, DEL, C1) and line or paragraph separators become a space, so a
//     name cannot start a new line, a new tab-separated column or a terminal escape sequence,
//     and the words on either side stay apart;
//   - format characters are removed: the bidirectional controls (U+202A–U+202E, U+2066–U+2069,
//     U+200E, U+200F, U+061C), which reorder what follows them on the line, and the invisible
//     ones (zero-width space U+200B, word joiner U+2060, U+FEFF, tag characters), which hide or
//     smuggle text. Kept: the zero-width joiner and non-joiner (U+200D, U+200C), which Persian,
//     the Indic scripts and emoji sequences need and which move nothing;
//   - a lone UTF-16 surrogate becomes U+FFFD (it is not text, and some receivers refuse it).
//
// Ids are data, not words for people: where an id is used as a key it is never passed through
// here; where it is shown to a person, it is text like any other.
//
// Pure, with no Node, DOM or Electron: the core, the desktop, the CLI and the renderer share it.

const BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]/gu
const INVISIBLE = /(?![\u200c\u200d])\p{Cf}/gu
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** The text with nothing that could act on the screen it reaches: see the top of this file. */
export function plainText(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd').replace(INVISIBLE, '').replace(BREAKING, ' ')
}

/** At most `max` UTF-16 code units (JavaScript's length, and what Windows and most receivers
 *  count), the last an ellipsis when it was longer: never half of a surrogate pair. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text
  let end = Math.max(0, max - 1)
  if (end > 0 && /[\ud800-\udbff]/.test(text[end - 1]!)) end-- // a pair's first half
  return `${text.slice(0, end)}…`
}

/** Characters JSON.stringify writes as they are though no screen should act on them. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029]|(?![\u200c\u200d])\p{Cf}/gu

/** One UTF-16 code unit as JSON writes it escaped: \u202e. */
const unicodeEscape = (unit: string): string => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`

/**
 * JSON.stringify, with DEL, C1 controls, line separators and format characters (bidirectional
 * controls, zero-width characters) inside strings written as \u escapes: the very same data for
 * whoever parses it (ids stay exact), and nothing a terminal or a log viewer acts on. (JSON itself
 * already escapes C0 controls; lone surrogates are escaped by well-formed JSON.stringify.)
 */
export function jsonWithEscapedControls(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, (c) => c.split('').map(unicodeEscape).join(''))
}

/** U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE: plain text's <bdi>. */
const FSI = '\u2068'
const PDI = '\u2069'
const ISOLATED = /\u2068([^\u2068\u2069]*)\u2069/g

/**
 * A name for a line of words made elsewhere (the alert situation's headline): plain, between an
 * isolate's two marks, so a right-to-left name (Hebrew, Arabic) keeps to itself instead of taking
 * the words or numbers beside it into its direction. A screen shows each isolated name as an
 * element of its own (isolatedParts); plainText removes the marks where a line cannot keep them.
 */
export function isolatedName(name: string): string {
  return `${FSI}${plainText(name)}${PDI}`
}

/** A line holding isolatedName()s, in order: its words and its names, each plain, the names marked. */
export function isolatedParts(line: string): { text: string; isolated: boolean }[] {
  const parts: { text: string; isolated: boolean }[] = []
  let from = 0
  const words = (to: number): void => {
    if (to > from) parts.push({ text: plainText(line.slice(from, to)), isolated: false })
  }
  for (const match of line.matchAll(ISOLATED)) {
    words(match.index)
    parts.push({ text: plainText(match[1]!), isolated: true })
    from = match.index + match[0].length
  }
  words(line.length)
  return parts
}
