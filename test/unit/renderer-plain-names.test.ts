// Names on the renderer's screens (issue 23, item 6): the components every screen shows a name
// with, rendered by Svelte's own server renderer. Each hostile name comes out plain, in its own
// <bdi>, so neither an override nor a right-to-left script reorders the words around it; a line
// the core wrote around isolated names (the situation's headline) keeps its words as text.
import { render } from 'svelte/server'
import { describe, expect, it } from 'vitest'
import LineWithNames from '../../src/renderer/src/components/LineWithNames.svelte'
import PlainName from '../../src/renderer/src/components/PlainName.svelte'
import KeyLabel from '../../src/renderer/src/components/session/KeyLabel.svelte'
import { liveRow } from '../../src/renderer/src/components/live/live-rows'
import WallTile from '../../src/renderer/src/components/live/WallTile.svelte'
import { isolatedName, plainText } from '../../src/shared/plain-text'
import { liveSession, sessionAlert } from './desktop/alert-fixtures'
import { HOSTILE_NAMES, unsafeCharacters } from '../support/hostile-names'

/** The page's text: tags and Svelte's hydration comments gone, entities read back. */
const textOf = (html: string): string =>
  html
    .replace(/<!--[^]*?-->/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
const html = (result: { body: string }): string => result.body.replace(/<!--[^]*?-->/g, '')

describe('PlainName', () => {
  it.each(HOSTILE_NAMES)('shows $what plain, in a <bdi> of its own', ({ name }) => {
    const shown = html(render(PlainName, { props: { text: name } }))
    expect(shown.startsWith('<bdi>') && shown.endsWith('</bdi>')).toBe(true)
    expect(unsafeCharacters(textOf(shown))).toEqual([])
    expect(textOf(shown)).toBe(plainText(name))
  })

  it('keeps a right-to-left name as it is, isolated', () => {
    expect(html(render(PlainName, { props: { text: 'שלום עולם' } }))).toBe('<bdi>שלום עולם</bdi>')
  })
})

describe('LineWithNames', () => {
  it("puts each of the core's isolated names in a <bdi>, its words as text, no mark or control left", () => {
    const line = `Cannot reach ${isolatedName('שלום')}, ${isolatedName('Con\u202etoso\u001b[2J')} · 2 alerts firing`
    const shown = html(render(LineWithNames, { props: { line } }))
    expect(shown).toBe('Cannot reach <bdi>שלום</bdi>, <bdi>Contoso [2J</bdi> · 2 alerts firing')
    expect(unsafeCharacters(textOf(shown))).toEqual([])
  })

  it('shows a line without names as plain text', () => {
    expect(html(render(LineWithNames, { props: { line: 'Joined as x\u202e (admin).' } }))).toBe('Joined as x (admin).')
  })
})

describe('KeyLabel', () => {
  it('shows a site code and its name each isolated, and "unknown" for none', () => {
    expect(html(render(KeyLabel, { props: { key: '311', name: 'תל אביב\u202e' } }))).toBe('<bdi>311</bdi> · <bdi>תל אביב</bdi>')
    expect(html(render(KeyLabel, { props: { key: 'Windows\u0085 11' } }))).toBe('<bdi>Windows  11</bdi>')
    expect(html(render(KeyLabel, { props: { key: null } }))).toBe('unknown')
  })
})

describe('a wall tile', () => {
  it('shows a hostile event and connection name plain and isolated, in its text and its attributes', () => {
    const session = liveSession({
      eventName: 'Town hall \u202eexe.gnp\u001b[2J',
      connectionName: 'Con\u2067toso\u0085',
      alert: sessionAlert({ summary: 'Reliability 80\u202e, below' })
    })
    const shown = html(render(WallTile, { props: { row: liveRow(session, [], Date.parse(session.lastPolledAt!), 60), featured: false, compact: false } }))
    expect(unsafeCharacters(shown)).toEqual([])
    expect(shown).toMatch(/<h2[^>]*><bdi>Town hall exe.gnp \[2J<\/bdi>/)
    expect(shown).toContain('<bdi>Contoso </bdi>')
    expect(shown).toContain('aria-label="Town hall exe.gnp [2J"')
    expect(shown).toContain('Reliability 80, below')
  })
})

