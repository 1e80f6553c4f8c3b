// `--json`: what a command prints as data for a script (docs/cli.md, "JSON output"). The service's
// text stays exact: JSON escapes what it must, and the characters a terminal or a log viewer would
// act on are written as \u escapes (shared/plain-text.ts) — the same data for whoever parses it.
// Long lists are written as they are read, a page at a time, so none sits in memory whole.
import { once } from 'node:events'
import type { Command } from 'commander'
import { jsonWithEscapedControls } from '../../shared/plain-text'
import { CliError } from './errors'

/** `--json` on `command`, saying what it prints. */
export function jsonOption<C extends Command>(command: C, what: string): C {
  command.option('--json', `print ${what} as JSON (docs/cli.md, "JSON output")`)
  return command
}

/** One JSON document on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${jsonWithEscapedControls(value, 2)}\n`)
}

/** One line of JSON Lines on stdout: a stream's record, whole on its line. */
export function printJsonLine(value: unknown): void {
  process.stdout.write(`${jsonWithEscapedControls(value)}\n`)
}

const CHUNK = 64 * 1024

/** Buffers small writes into chunks and waits when the stream says its buffer is full. */
export class ChunkedOutput {
  private buffer = ''

  constructor(private readonly stream: NodeJS.WritableStream = process.stdout) {}

  async write(text: string): Promise<void> {
    this.buffer += text
    if (this.buffer.length >= CHUNK) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.buffer === '') return
    const ok = this.stream.write(this.buffer)
    this.buffer = ''
    if (!ok) await once(this.stream, 'drain')
  }
}

/** Exactly what printJson(array) prints, one element at a time as the pages come. */
export async function writeJsonArray(out: ChunkedOutput, pages: AsyncIterable<readonly unknown[]>): Promise<void> {
  let first = true
  for await (const page of pages) {
    for (const record of page) {
      await out.write(`${first ? '[\n' : ',\n'}  ${jsonWithEscapedControls(record, 2).replace(/\n/g, '\n  ')}`)
      first = false
    }
  }
  await out.write(first ? '[]\n' : '\n]\n')
}

/**
 * `--json` beside `--format` (export, report): the same as `--format json`, which `--format`
 * then reads; with another format named, a refusal rather than a guess at which was meant.
 */
export function jsonMeansFormatJson<C extends Command>(command: C, what: string): C {
  jsonOption(command, what).hook('preAction', (_self, action) => {
    const { json, format } = action.opts<{ json?: boolean; format?: string }>()
    if (!json) return
    if (action.getOptionValueSource('format') === 'cli' && format !== 'json') {
      throw new CliError(`--json is --format json: give one of --json and --format ${format}, not both.`)
    }
    action.setOptionValue('format', 'json')
  })
  return command
}
