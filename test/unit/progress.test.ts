// The sync progress reporter: a redrawn bar on a terminal, rate-limited plain lines elsewhere.
import { describe, expect, it } from 'vitest'
import { createProgress } from '../../src/main/cli/progress'
import { fakeClock } from '../support/fake-clock'
import { HOSTILE_NAMES, unsafeCharacters } from '../support/hostile-names'

function fakeStream(isTTY: boolean, columns?: number) {
  const writes: string[] = []
  return {
    writes,
    isTTY,
    columns,
    write(chunk: string): boolean {
      writes.push(chunk)
      return true
    },
    /** What a terminal would show: \r returns to the line start, ESC[K clears the rest. */
    screen(): string[] {
      const lines: string[] = []
      let current = ''
      const text = writes.join('')
      for (let i = 0; i < text.length; i++) {
        if (text.startsWith('\r\x1b[K', i)) {
          current = ''
          i += 3
        } else if (text[i] === '\n') {
          lines.push(current)
          current = ''
        } else current += text[i]
      }
      return [...lines, current]
    }
  }
}

describe('on a terminal', () => {
  it('redraws one line with the counters, a bar and the percentage of the phase last reported', () => {
    const stream = fakeStream(true, 120)
    const clock = fakeClock()
    const progress = createProgress(stream, clock.now, { barWidth: 10 })
    progress.update({ phase: 'sessions', done: 3, total: 20 })
    progress.update({ phase: 'viewers', done: 12_500, total: 48_000, detail: 'Town hall' })
    expect(stream.writes.every((w) => w.startsWith('\r\x1b[K') && !w.includes('\n'))).toBe(true)
    expect(stream.screen()).toEqual(['sessions 3/20  viewers 12,500/48,000  ▕██░░░░░░░░▏ 26%  Town hall'])
  })

  it('redraws at most once per interval, but at once for a new or finished phase', () => {
    const stream = fakeStream(true, 120)
    const clock = fakeClock()
    const progress = createProgress(stream, clock.now, { redrawIntervalMs: 100 })
    progress.update({ phase: 'viewers', done: 0, total: 1000 })
    for (let i = 1; i < 1000; i++) {
      clock.advance(1)
      progress.update({ phase: 'viewers', done: i, total: 1000 })
    }
    expect(stream.writes.length).toBeGreaterThanOrEqual(9)
    expect(stream.writes.length).toBeLessThanOrEqual(11)
    progress.update({ phase: 'viewers', done: 1000, total: 1000 })
    expect(stream.screen().at(-1)).toContain('viewers 1,000/1,000')
    expect(stream.screen().at(-1)).toContain('100%')
  })

  it('prints log lines above the bar without garbling it', () => {
    const stream = fakeStream(true, 120)
    const progress = createProgress(stream, fakeClock().now)
    progress.update({ phase: 'sessions', done: 1, total: 4 })
    progress.log('warning: session x skipped')
    expect(stream.screen()).toEqual(['warning: session x skipped', expect.stringMatching(/^sessions 1\/4 .* 25%$/)])
  })

  it('clears the bar and leaves only the summary when done', () => {
    const stream = fakeStream(true, 120)
    const progress = createProgress(stream, fakeClock().now)
    progress.update({ phase: 'sessions', done: 2, total: 4 })
    progress.done('20 sessions, 8,197 viewers')
    expect(stream.screen()).toEqual(['20 sessions, 8,197 viewers', ''])
    expect(stream.writes.join('')).toContain('\r\x1b[K20 sessions')
  })

  it('fits the terminal width, shortening the detail first', () => {
    const stream = fakeStream(true, 50)
    const progress = createProgress(stream, fakeClock().now, { barWidth: 10 })
    progress.update({ phase: 'viewers', done: 5, total: 10, detail: 'A very long event name that will not fit' })
    const line = stream.screen()[0]!
    expect(line.length).toBeLessThanOrEqual(49)
    expect(line).toMatch(/^viewers 5\/10 {2}▕█████░░░░░▏ 50% {2}A very.*…$/)
  })

  it('shows a bare count when the total is unknown', () => {
    const stream = fakeStream(true, 80)
    const progress = createProgress(stream, fakeClock().now)
    progress.update({ phase: 'sessions', done: 42 })
    expect(stream.screen()).toEqual(['sessions 42'])
  })
})

describe('not on a terminal', () => {
  it('prints plain lines, at most one per interval, then the summary', () => {
    const stream = fakeStream(false)
    const clock = fakeClock()
    const progress = createProgress(stream, clock.now, { lineIntervalMs: 1000 })
    for (let i = 0; i <= 5000; i += 10) {
      progress.update({ phase: 'viewers', done: i, total: 5000 })
      clock.advance(20) // 10 seconds in all
    }
    progress.done('done: 5,000 viewers')
    expect(stream.writes.every((w) => w.endsWith('\n') && !w.includes('\r') && !w.includes('\x1b'))).toBe(true)
    expect(stream.writes.length).toBeGreaterThanOrEqual(10)
    expect(stream.writes.length).toBeLessThanOrEqual(12)
    expect(stream.writes[0]).toBe('viewers 0/5,000  (0%)\n')
    expect(stream.writes.at(-1)).toBe('done: 5,000 viewers\n')
    expect(stream.writes.join('')).not.toContain('▕')
  })

  it('does not repeat a line when nothing changed', () => {
    const stream = fakeStream(false)
    const clock = fakeClock()
    const progress = createProgress(stream, clock.now)
    progress.update({ phase: 'sessions', done: 1, total: 2 })
    clock.advance(5000)
    progress.update({ phase: 'sessions', done: 1, total: 2 })
    expect(stream.writes).toEqual(['sessions 1/2  (50%)\n'])
  })

  it('passes log lines straight through and starts afresh after done', () => {
    const stream = fakeStream(false)
    const clock = fakeClock()
    const progress = createProgress(stream, clock.now)
    progress.update({ phase: 'sessions', done: 1, total: 2, detail: 'Town hall' })
    progress.log('a warning')
    progress.done('pass 1 done')
    progress.update({ phase: 'sessions', done: 0, total: 3 })
    expect(stream.writes).toEqual(['sessions 1/2  (50%)  Town hall\n', 'a warning\n', 'pass 1 done\n', 'sessions 0/3  (0%)\n'])
  })

  it('treats a stream without isTTY as not a terminal', () => {
    const writes: string[] = []
    const progress = createProgress({ write: (s: string) => writes.push(s) > 0 })
    progress.update({ phase: 'sessions', done: 1 })
    progress.done('ok')
    expect(writes).toEqual(['sessions 1\n', 'ok\n'])
  })
})

describe('hostile names in what the sync prints', () => {
  it.each(HOSTILE_NAMES)('$what: plain on the terminal and in a log, one line each', ({ name }) => {
    for (const tty of [true, false]) {
      const stream = fakeStream(tty, 10_000)
      const progress = createProgress(stream, fakeClock().now)
      progress.update({ phase: 'sessions', done: 1, total: 2, detail: name })
      progress.log(`2026-11-25T10:00:00Z ALERT critical [reliability-below] Reliability 86.2 — ${name} / ${name} (s-1)`)
      progress.done(`2026-11-25T10:00:00Z ${name}: 2 sessions`)
      // Only the reporter's own redraws remain once they are taken away.
      const shown = stream.writes.join('').split('\r\x1b[K').join('')
      expect(unsafeCharacters(shown, ['\n'])).toEqual([])
      expect(stream.screen().filter((line) => line !== '')).toHaveLength(tty ? 2 : 3)
    }
  })
})
