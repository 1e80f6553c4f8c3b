// The Prometheus text format (0.0.4) read back strictly, as Prometheus reads it: what the tests of
// GET /metrics parse a server's answer with.
import { expect } from 'vitest'

export interface ParsedSample {
  name: string
  labels: Record<string, string>
  value: number
}

export interface Parsed {
  types: Map<string, string>
  samples: ParsedSample[]
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/

/** Parses the text format 0.0.4 as Prometheus does, refusing anything it would refuse: a label
 *  value with an unknown escape or a bare line break, a sample of a family whose TYPE is not
 *  said first, a value that is no number. */
export function parseExposition(text: string): Parsed {
  expect(text.endsWith('\n')).toBe(true)
  const types = new Map<string, string>()
  const samples: ParsedSample[] = []
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.startsWith('# HELP ') || line === '') continue
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line)
    if (type) {
      types.set(type[1]!, type[2]!)
      continue
    }
    if (line.startsWith('#')) throw new Error(`a comment the format does not know: ${line}`)
    let rest = line
    const name = METRIC_NAME.exec(rest)?.[0]
    if (!name) throw new Error(`no metric name: ${JSON.stringify(line)}`)
    rest = rest.slice(name.length)
    const labels: Record<string, string> = {}
    if (rest.startsWith('{')) {
      rest = rest.slice(1)
      while (!rest.startsWith('}')) {
        const label = LABEL_NAME.exec(rest)?.[0]
        if (!label || rest[label.length] !== '=' || rest[label.length + 1] !== '"') throw new Error(`bad label in ${JSON.stringify(line)}`)
        rest = rest.slice(label.length + 2)
        let value = ''
        for (;;) {
          const c = rest[0]
          if (c === undefined) throw new Error(`unterminated label value in ${JSON.stringify(line)}`)
          rest = rest.slice(1)
          if (c === '"') break
          if (c === '\\') {
            const e = rest[0]
            rest = rest.slice(1)
            if (e === '\\') value += '\\'
            else if (e === '"') value += '"'
            else if (e === 'n') value += '\n'
            else throw new Error(`unknown escape \\${e} in ${JSON.stringify(line)}`)
          } else value += c
        }
        labels[label] = value
        if (rest.startsWith(',')) rest = rest.slice(1)
        else if (!rest.startsWith('}')) throw new Error(`labels not separated in ${JSON.stringify(line)}`)
      }
      rest = rest.slice(1)
    }
    const value = /^ (NaN|[+-]Inf|-?\d+(\.\d+)?([eE][+-]?\d+)?)$/.exec(rest)?.[1]
    if (value === undefined) throw new Error(`no value in ${JSON.stringify(line)}`)
    const family = name.replace(/_(bucket|sum|count)$/, '')
    if (!types.has(name) && !(types.get(family) === 'histogram')) throw new Error(`${name} has no TYPE before it`)
    samples.push({ name, labels, value: value === '+Inf' ? Infinity : value === '-Inf' ? -Infinity : Number(value) })
  }
  return { types, samples }
}

/** The value of the one sample named `name` whose labels include `labels`. */
export function valueOf(parsed: Parsed, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = parsed.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`)
  return found[0]?.value
}
