// Parsers for option values: a bad value is a clear error before anything runs.
import { InvalidArgumentError } from 'commander'

export function integerOption(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value)
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}, got "${value}".`)
    }
    return n
  }
}

export function secondsOption(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value)
    if (!Number.isFinite(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected seconds from ${min} to ${max}, got "${value}".`)
    }
    return n
  }
}

/** Resolves when the user presses Ctrl-C or the process is asked to stop. */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve())
    process.once('SIGTERM', () => resolve())
  })
}
