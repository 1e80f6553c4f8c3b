// The team server's small pure parts: what each role may ask, the names a server answers to, the
// event-stream reader, and the one rule every face weighs revisions by (the guess limiter:
// guess-limiter.test.ts).
import { describe, expect, it } from 'vitest'
import { readServerSentEvents } from '../../src/main/core/net/sse-reader'
import { teamHosts } from '../../src/main/web/team-hosts'
import { requestNames } from '../../src/shared/contract'
import { boardPushStep, standingOf, takesAnswer, takesPush } from '../../src/shared/revisions'
import { mayRequest, needOf } from '../../src/shared/permissions'

describe('roles', () => {
  it('lets a viewer make every read and nothing else', () => {
    for (const name of requestNames) {
      expect(mayRequest('viewer', name, {}).allowed, name).toBe(needOf(name, {}) === 'read')
    }
  })

  it('keeps connections, webhooks and global settings for the administrator', () => {
    for (const name of ['saveConnection', 'deleteConnection', 'setConnectionEnabled', 'testConnection', 'listWebhooks', 'addWebhook', 'setPaused'] as const) {
      expect(mayRequest('operator', name, {}).allowed, name).toBe(false)
      expect(mayRequest('admin', name, {}).allowed, name).toBe(true)
    }
    expect(mayRequest('operator', 'saveSettings', { thresholds: {}, alertRules: {} }).allowed).toBe(true)
    expect(mayRequest('operator', 'saveSettings', { thresholds: {}, cadences: {} }).allowed).toBe(false)
    // A person's own display (issue 25): time zone, theme and sound, for anyone signed in; the units are global.
    expect(mayRequest('viewer', 'saveSettings', { display: { timeZone: 'utc', theme: 'light', alertSound: 'off' } }).allowed).toBe(true)
    expect(mayRequest('operator', 'saveSettings', { display: { theme: 'light', viewerTimeUnit: 'seconds' } }).allowed).toBe(false)
    expect(mayRequest('operator', 'acknowledgeAlert', {}).allowed).toBe(true)
  })

  it('says a refusal in words: the action as a person knows it and the role it needs, never the request name (issue 24, item 7)', () => {
    expect(mayRequest('viewer', 'refreshSession', {})).toEqual({
      allowed: false,
      message: 'Refreshing a session needs the operator role; you are signed in as a viewer.'
    })
    expect(mayRequest('operator', 'saveSettings', { display: { trafficUnit: 'bytes' }, cadences: {} })).toEqual({
      allowed: false,
      message: "Saving the display unit and polling settings is for the server's administrator (on the server, with the eventwatch command); you are signed in as an operator."
    })
    // Only what the role may not save is named: her own theme is hers, the polling is not.
    expect(mayRequest('viewer', 'saveSettings', { display: { theme: 'light' }, cadences: {} })).toEqual({
      allowed: false,
      message: "Saving the polling settings is for the server's administrator (on the server, with the eventwatch command); you are signed in as a viewer."
    })
    for (const name of requestNames) {
      for (const role of ['viewer', 'operator'] as const) {
        const verdict = mayRequest(role, name, {})
        if (!verdict.allowed) expect(verdict.message, name).not.toContain(name)
        if (!verdict.allowed) expect(verdict.message, name).toMatch(/^[A-Z][a-z]+ [^;]+; you are signed in as an? (viewer|operator)\.$/)
      }
    }
  })
})

describe('team hosts', () => {
  it('answers to the listen address and the certificate names, with the port, and bare on 443', () => {
    expect(teamHosts('10.0.0.5', 8443, ['noc.example.com', '10.0.0.5'], true)).toEqual(['10.0.0.5:8443', 'noc.example.com:8443'])
    expect(teamHosts('0.0.0.0', 443, ['NOC.example.com', '::1'], true)).toEqual(['noc.example.com:443', 'noc.example.com', '[::1]:443', '[::1]'])
    expect(teamHosts('127.0.0.1', 4781, [], false)).toEqual(['127.0.0.1:4781', 'localhost:4781'])
    // Host headers are compared in lower case: so is every name.
    expect(teamHosts('NOC.Example.com', 8443, [], true)).toEqual(['noc.example.com:8443'])
  })
})

const streamOf = (...chunks: string[]): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
      controller.close()
    }
  })

describe('server-sent events reader', () => {
  it('reads events across chunks, CRLF split included, skipping comments', async () => {
    const seen: unknown[] = []
    let chunks = 0
    for await (const e of readServerSentEvents(streamOf(': connected\n\nevent: a\nda', 'ta: {"x":1}\r', '\n\r\nevent: b\ndata: one\ndata: two\n\n: heartbeat\n\n'), () => chunks++)) {
      seen.push(e)
    }
    expect(seen).toEqual([{ event: 'a', data: '{"x":1}' }, { event: 'b', data: 'one\ntwo' }])
    expect(chunks).toBe(3)
  })
})

describe('revisions and epochs (shared/revisions.ts)', () => {
  const at = (revision: number, epoch = 'e1') => ({ revision, epoch })

  it('compares revisions within one epoch only: a new epoch is taken whole, whatever its count', () => {
    expect(standingOf(null, at(0))).toBe('new-epoch')
    expect(standingOf(at(5), at(6))).toBe('newer')
    expect(standingOf(at(5), at(5))).toBe('same')
    expect(standingOf(at(5), at(4))).toBe('older')
    expect(standingOf(at(1_700_000_000_000), at(1, 'e2'))).toBe('new-epoch')
    expect(takesPush(at(5), at(1, 'e2'))).toBe(true)
    expect(takesPush(at(5), at(5))).toBe(false)
    expect(takesAnswer(at(5), at(5))).toBe(true)
    expect(takesAnswer(at(5), at(4))).toBe(false)
  })

  it('applies a board push next in line, ignores an old one, and reads the board again after a gap or in a new epoch', () => {
    expect(boardPushStep(at(5), at(6))).toBe('apply')
    expect(boardPushStep(at(5), at(5))).toBe('ignore')
    expect(boardPushStep(at(5), at(3))).toBe('ignore')
    expect(boardPushStep(at(5), at(8))).toBe('reread')
    expect(boardPushStep(at(5), at(0, 'e2'))).toBe('reread')
    expect(boardPushStep(undefined, at(6))).toBe('reread')
  })
})
