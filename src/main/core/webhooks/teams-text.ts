// Text for a Microsoft Teams Adaptive Card. Its TextBlock and FactSet render Markdown (emphasis,
// lists, links; Teams shows more), so a name such as "[click](http://evil.example)" would become a
// link whose words hide where it goes. Here every character that can start a Markdown construct
// is escaped with a backslash, CommonMark's escape, which the Adaptive Card renderers honour: the
// card shows the name as it was typed. A bare address in a name may still be shown as a link by
// Teams, but then its words are its address.
import { plainText, shorten } from '../../../shared/plain-text'

/** Inline Markdown: escapes, code, emphasis, strike-through, links and images, HTML and
 *  autolinks, entities. */
const INLINE = /[\\`*_~[\]<>&]/g
/** Block Markdown, which only counts at the start of a line (a text here is one line):
 *  a heading, a quote, a bulleted or a numbered list. */
const BLOCK_START = /^(\s*)([#>+=-]|\d+(?=[.)]))/

/** People's text as a Teams card shows it literally: plain (see plain-text.ts), at most `max`
 *  characters before escaping, Markdown escaped. */
export function teamsText(text: string, max: number): string {
  const escaped = shorten(plainText(text), max).replace(INLINE, '\\$&')
  return escaped.replace(BLOCK_START, (_, space: string, marker: string) =>
    /\d/.test(marker) ? `${space}${marker}\\` : `${space}\\${marker}`
  )
}
