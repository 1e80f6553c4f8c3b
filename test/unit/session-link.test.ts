// The link every alert carries back to its session, and the desk link's parsing: it arrives from
// outside the app (a browser, a chat message, another program), so anything but the one shape
// Eventwatch writes is refused.
import { describe, expect, it } from 'vitest'
import { deskLinkInArgs, parseDeskLink, sessionLink } from '../../src/shared/session-link'

describe('sessionLink', () => {
  it('links a desk to the eventwatch: scheme and a team server to its page, ids escaped', () => {
    const target = { connectionId: 'c/1', eventSessionId: 'e#2 ?x' }
    expect(sessionLink({ kind: 'desk' }, target)).toBe('eventwatch://session/c%2F1/e%232%20%3Fx')
    expect(sessionLink({ kind: 'server', origin: 'https://noc.example:4780' }, target)).toBe(
      'https://noc.example:4780/#session/c%2F1/e%232%20%3Fx'
    )
    expect(sessionLink({ kind: 'server', origin: 'https://proxy.example/eventwatch/' }, { connectionId: 'c', eventSessionId: 'e' })).toBe(
      'https://proxy.example/eventwatch/#session/c/e'
    )
  })

  it('reads back every link it writes, whatever the ids hold', () => {
    const ids = ['plain', 'a/b', '%2F', '=1+1', '<b>x</b>', '\u202Eevil', 'x'.repeat(200), '名前', '..', 'a b']
    for (const connectionId of ids)
      for (const eventSessionId of ids)
        expect(parseDeskLink(sessionLink({ kind: 'desk' }, { connectionId, eventSessionId }))).toEqual({ connectionId, eventSessionId })
  })
})

describe('parseDeskLink refuses hostile input', () => {
  const refused: [string, unknown][] = [
    ['another scheme', 'https://session/c/e'],
    ['a lookalike scheme', 'eventwatch2://session/c/e'],
    ['no slashes', 'eventwatch:session/c/e'],
    ['another view', 'eventwatch://live'],
    ['a view made to look like a session', 'eventwatch://sessions/c/e'],
    ['a missing session', 'eventwatch://session/c'],
    ['an empty session', 'eventwatch://session/c/'],
    ['an empty connection', 'eventwatch://session//e'],
    ['an extra segment', 'eventwatch://session/c/e/f'],
    ['a path climbing out', 'eventwatch://session/../../etc/passwd'],
    ['a query', 'eventwatch://session/c/e?x=1'],
    ['a fragment', 'eventwatch://session/c/e#live'],
    ['a raw space', 'eventwatch://session/c d/e'],
    ['a raw newline', 'eventwatch://session/c/e\nrm -rf'],
    ['an escaped newline', 'eventwatch://session/c/e%0A'],
    ['an escaped NUL', 'eventwatch://session/c%00/e'],
    ['a backslash', 'eventwatch://session/c\\e/f'],
    ['a malformed escape', 'eventwatch://session/c%E0%A4%A/e'],
    ['an id too long', `eventwatch://session/${'x'.repeat(201)}/e`],
    ['a link too long', `eventwatch://session/c/${'%41'.repeat(700)}`],
    ['two trailing slashes', 'eventwatch://session/c/e//'],
    ['not a string', 42],
    ['empty', '']
  ]
  it.each(refused)('%s', (_why, link) => {
    expect(parseDeskLink(link as string)).toBeUndefined()
  })

  it('accepts the scheme in any case and one trailing slash (Windows adds one)', () => {
    expect(parseDeskLink('EventWatch://session/c/e/')).toEqual({ connectionId: 'c', eventSessionId: 'e' })
  })

  it('finds the link among a process arguments, skipping flags and paths', () => {
    expect(deskLinkInArgs(['/opt/Eventwatch/eventwatch', '--no-sandbox', 'eventwatch://session/a/b'])).toEqual({
      connectionId: 'a',
      eventSessionId: 'b'
    })
    expect(deskLinkInArgs(['/opt/Eventwatch/eventwatch', 'eventwatch://live'])).toBeUndefined()
  })
})
