// A session's title away from its connection and a failing office's line (issue 24), as the
// renderer draws them: rendered by Svelte's own server renderer, each name plain and isolated in
// a <bdi> of its own, so a right-to-left event name cannot take the connection's with it.
import { render } from 'svelte/server'
import { describe, expect, it } from 'vitest'
import SiteAlertLine from '../../src/renderer/src/components/alerts/SiteAlertLine.svelte'
import { liveRow } from '../../src/renderer/src/components/live/live-rows'
import WallTile from '../../src/renderer/src/components/live/WallTile.svelte'
import SessionTitle from '../../src/renderer/src/components/SessionTitle.svelte'
import type { SiteAlert } from '../../src/shared/alerts'
import { sessionTitleParts } from '../../src/shared/session-name'
import { unsafeCharacters } from '../support/hostile-names'
import { liveSession } from './desktop/alert-fixtures'

const html = (result: { body: string }): string => result.body.replace(/<!--[^]*?-->/g, '').replace(/ class="[^"]*"/g, (c) => c.replace(/ ?svelte-[\w-]+/g, ''))
const textOf = (markup: string): string => markup.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&')

const OFFICE: SiteAlert = { site: '415', label: 'Leeds office', reliability: 31.1, severity: 'critical', state: 'firing' }

describe('SessionTitle', () => {
  it('names the connection beside the event when several are polled, each isolated', () => {
    const parts = sessionTitleParts(liveSession({ eventName: 'כנס שנתי', connectionName: 'Fabrikam' }), 3)
    const shown = html(render(SessionTitle, { props: { parts } }))
    expect(shown).toBe('<bdi>כנס שנתי</bdi> <span class="connection" data-testid="session-connection">(<bdi>Fabrikam</bdi>)</span>')
    expect(textOf(shown)).toBe('כנס שנתי (Fabrikam)')
  })

  it('shows the event alone with one connection, and no control or bidi character of a hostile name', () => {
    const parts = sessionTitleParts(liveSession({ eventName: 'Town\u202e hall\u001b[2J', connectionName: 'Fabrikam' }), 1)
    const shown = html(render(SessionTitle, { props: { parts } }))
    expect(shown).toBe('<bdi>Town hall [2J</bdi>')
    expect(unsafeCharacters(textOf(shown))).toEqual([])
  })
})

describe('SiteAlertLine', () => {
  it("says the office by its name and its figure, with the severity's icon and word, not colour alone", () => {
    const shown = html(render(SiteAlertLine, { props: { alert: { ...OFFICE, label: 'Leeds\u202e office' } } }))
    expect(shown).toContain('data-severity="critical"')
    expect(shown).toContain('<bdi>Leeds office</bdi>')
    expect(textOf(shown).replace(/\s+/g, ' ').trim()).toBe('✖ Critical site alert: Leeds office 31.1')
    expect(unsafeCharacters(textOf(shown))).toEqual([])
  })

  it('shows nothing when no site alert fires', () => {
    expect(html(render(SiteAlertLine, { props: { alert: null } }))).toBe('')
  })
})

describe('WallTile', () => {
  const tile = (over: Parameters<typeof liveSession>[0]): string =>
    html(render(WallTile, { props: { row: liveRow(liveSession(over), [], Date.parse('2025-03-10T09:00:00Z'), 15), featured: false, compact: false } }))

  it("carries the office's line while the session's own verdict stays good", () => {
    const shown = tile({ siteAlert: OFFICE })
    expect(shown).toContain('data-testid="site-alert"')
    expect(textOf(shown)).toContain('Leeds office')
    expect(tile({})).not.toContain('data-testid="site-alert"')
  })

  it('names an unnamed session as every face does', () => {
    expect(textOf(tile({ eventName: null, eventSessionId: '3f2a9c1b-77aa' }))).toContain('Untitled event 3f2a9c1b')
  })
})
