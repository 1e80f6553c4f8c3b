// People's text in a Teams Adaptive Card (src/main/core/webhooks/teams-text.ts): every character
// that starts Markdown is escaped with CommonMark's backslash, so the card shows it as typed.
import { describe, expect, it } from 'vitest'
import { teamsText } from '../../src/main/core/webhooks/teams-text'

describe('teamsText', () => {
  it.each([
    ['a link', '[click](http://evil.example)', '\\[click\\](http://evil.example)'],
    ['an image', '![x](http://evil.example/p.png)', '!\\[x\\](http://evil.example/p.png)'],
    ['emphasis, strike-through and code', '**a** _b_ ~~c~~ `d`', '\\*\\*a\\*\\* \\_b\\_ \\~\\~c\\~\\~ \\`d\\`'],
    ['HTML and an autolink', '<b>x</b> <http://e>', '\\<b\\>x\\</b\\> \\<http://e\\>'],
    ['an entity', '&lt;', '\\&lt;'],
    ['a backslash', 'a\\b', 'a\\\\b'],
    ['a bulleted list', '- item', '\\- item'],
    ['a numbered list', '12. item', '12\\. item'],
    ['a heading', '# Title', '\\# Title'],
    ['a quote', '> quoted', '\\> quoted'],
    ['a hyphen inside a name', 'Town hall - Q4 2026.1', 'Town hall - Q4 2026.1'],
    ['a right-to-left override (plain first)', 'a\u202eb', 'ab']
  ])('%s', (_what, input, expected) => {
    expect(teamsText(input, 500)).toBe(expected)
  })

  it('cuts before escaping, so no escape is cut in half', () => {
    expect(teamsText('[[[[[[', 4)).toBe('\\[\\[\\[…')
  })
})
