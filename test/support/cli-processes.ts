// The `eventwatch` command as real child processes: one-shot runs, and long-running ones (serve,
// sync --interval) whose output a test can wait on and which it stops as a service manager does.
import { spawn, type ChildProcess } from 'node:child_process'
import { CLI_BIN, cliEnv, ROOT } from './cli'

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `eventwatch ARGS` to its end. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env: cliEnv(env), stdio: ['pipe', 'pipe', 'pipe'] })
  const output = collect(child)
  child.stdin?.end(input)
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, ...output() })))
}

export interface RunningCli {
  child: ChildProcess
  pid: number
  output(): { stdout: string; stderr: string }
  /** Resolves with the first match of `pattern` in stdout; rejects if the process ends first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>
  /** SIGTERM, then the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Starts `eventwatch ARGS` and leaves it running. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): RunningCli {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  const output = collect(child)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal }))
  )
  let ended = false
  void exited.then(() => (ended = true))
  return {
    child,
    pid: child.pid ?? -1,
    output,
    async waitFor(pattern, timeoutMs = 30_000) {
      const started = Date.now()
      for (;;) {
        const match = pattern.exec(output().stdout)
        if (match) return match
        if (ended) throw new Error(`eventwatch ${args[0]} ended before printing ${pattern}:\n${output().stderr}`)
        if (Date.now() - started > timeoutMs) throw new Error(`eventwatch ${args[0]} did not print ${pattern} within ${timeoutMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    async stop() {
      if (!ended) child.kill('SIGTERM')
      return exited
    }
  }
}

function collect(child: ChildProcess): () => { stdout: string; stderr: string } {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return () => ({ stdout, stderr })
}
