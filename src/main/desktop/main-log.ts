// The desktop main process's log file (issue 15): what it says on the console (start, quit,
// a window that crashed, a tray that could not be made, a core that failed to close) also goes
// to <logs>/main.log, so an unattended desk can be diagnosed after the fact. Rotated by size by
// rotating-file-stream: main.log, then main.1.log … main.4.log, the oldest dropped.
import { format } from 'node:util'
import { createStream, type RotatingFileStream } from 'rotating-file-stream'
import { redact } from '../core/net/redact'

export interface MainLogOptions {
  /** Rotate past this size (rotating-file-stream's notation: '2M', '500K'). */
  size?: string
  /** Old files kept besides the current one. */
  keep?: number
  now?: () => Date
}

export interface MainLog {
  write(level: string, message: string): void
  /** Stops copying the console and closes the file. */
  close(): Promise<void>
}

type ConsoleLevel = 'log' | 'info' | 'warn' | 'error'
const LEVELS: readonly ConsoleLevel[] = ['log', 'info', 'warn', 'error']

/** main.log, then main.1.log (newest) to main.<keep>.log: in classic rotation the generator is
 *  given the old file's number, or null for the current one. */
function fileName(index: number | Date | null): string {
  return typeof index === 'number' && index > 0 ? `main.${index}.log` : 'main.log'
}

export function startMainLog(dir: string, options: MainLogOptions = {}): MainLog {
  const now = options.now ?? (() => new Date())
  const stream: RotatingFileStream = createStream(fileName, {
    path: dir,
    size: options.size ?? '2M',
    // Classic logrotate: the names above, shifted at each rotation, at most `keep` old ones.
    rotate: options.keep ?? 4
  })
  // A log that cannot be written (disk full, folder gone) must never take the app down.
  stream.on('error', () => undefined)
  const write = (level: string, message: string): void => {
    const line = redact(message).replace(/\s*\n\s*/g, ' ⏎ ')
    stream.write(`${now().toISOString()} ${level.toUpperCase()} ${line}\n`)
  }
  const originals = new Map<ConsoleLevel, (...args: unknown[]) => void>()
  for (const level of LEVELS) {
    const original = console[level].bind(console)
    originals.set(level, original)
    console[level] = (...args: unknown[]) => {
      original(...args)
      write(level === 'log' ? 'info' : level, format(...args))
    }
  }
  return {
    write,
    close: () =>
      new Promise((resolve) => {
        for (const [level, original] of originals) console[level] = original
        stream.end(() => resolve())
      })
  }
}
