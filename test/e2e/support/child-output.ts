// A server started as a child process by a spec: what it printed, and stopping it.
import type { ChildProcess } from 'node:child_process'

/** The first group of `pattern` once the child has printed it (stdout or stderr); fails with
 *  everything it printed if it exits first or a minute passes. */
export function printedMatch(child: ChildProcess, pattern: RegExp, what: string): Promise<string> {
  let output = ''
  return new Promise<string>((resolveMatch, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${output}`)), 60_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = pattern.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolveMatch(match[1])
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${what} exited (${code}):\n${output}`))
    })
  })
}

/** Stops the child with SIGTERM, if it still runs, and waits until it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await exited
}
