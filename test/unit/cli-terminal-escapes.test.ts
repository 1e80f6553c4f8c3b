// Whether the CLI may send escape codes (cli/terminal.ts): a terminal only, and not one that says
// it takes none (TERM=dumb) or whose user asked for none (NO_COLOR, set to anything but empty).
import { describe, expect, it } from 'vitest'
import { createProgress } from '../../src/main/cli/progress'
import { escapesAllowed, progressStream } from '../../src/main/cli/terminal'

describe('escapesAllowed', () => {
  it.each([
    [true, {}, true],
    [true, { TERM: 'xterm-256color' }, true],
    [true, { TERM: 'dumb' }, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true], // empty means unset (no-color.org)
    [false, { TERM: 'xterm-256color' }, false],
    [undefined, {}, false]
  ])('a TTY %s with %j: %s', (isTTY, env, allowed) => {
    expect(escapesAllowed({ isTTY }, env)).toBe(allowed)
  })
})

describe('progressStream', () => {
  it('makes the progress on a TERM=dumb terminal plain lines, with no ESC byte', () => {
    const written: string[] = []
    const tty = { isTTY: true, columns: 80, write: (chunk: string) => written.push(chunk) > 0 } as unknown as NodeJS.WriteStream
    const progress = createProgress(progressStream(tty, { TERM: 'dumb' }), () => 0)
    progress.update({ phase: 'sessions', done: 1, total: 4 })
    progress.done('done')
    expect(written.join('')).toBe('sessions 1/4  (25%)\ndone\n')

    written.length = 0
    const redrawn = createProgress(progressStream(tty, { TERM: 'xterm' }), () => 0)
    redrawn.update({ phase: 'sessions', done: 1, total: 4 })
    expect(written.join('')).toContain('\u001b[K')
  })
})
