// Whether a stream may be sent escape codes (a progress line redrawn in place, colour, cursor
// movement): only a terminal that says it takes them. Not a pipe or a file, not TERM=dumb (an
// editor's shell, a serial console), not where NO_COLOR is set (no-color.org): there, plain lines.
import type { ProgressStream } from './progress'

export function escapesAllowed(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && env.TERM !== 'dumb' && !env.NO_COLOR
}

/** `stream` for createProgress: redrawn in place only where escapes are allowed, plain lines elsewhere. */
export function progressStream(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): ProgressStream {
  return {
    write: (chunk) => stream.write(chunk),
    isTTY: escapesAllowed(stream, env),
    get columns() {
      return stream.columns
    }
  }
}
