// A page's rows as they cross to the cache writer's thread: for each row array, a kind per slot,
// the numbers, and every string end to end. Typed arrays move rather than copy, and the rows are
// written straight into them as the records are read (viewer-rows.ts), never built as arrays of
// mixed values first: structured cloning such arrays cost about 1 µs a viewer on each side, and
// an encoding pass after building them as much again (measured on 84,618 viewers).
import type { ViewerListRows } from './viewer-rows'

/** One row array, encoded: a type per slot, the numbers, and the strings end to end. */
export interface EncodedValues {
  /** 0: null, 1: number, 2: string. */
  kinds: Uint8Array
  numbers: Float64Array
  /** Every string's length, in order; the strings themselves are `text`, end to end. */
  lengths: Uint32Array
  text: string
}

export interface EncodedRows {
  count: number
  viewers: EncodedValues
  connections: EncodedValues
}

// Kinds; a slot left at 0 is null.
const NUMBER = 1
const STRING = 2

/** Fills a row array of a known number of slots, one value after the other. */
export class ValuesWriter {
  private readonly kinds: Uint8Array
  private readonly numbers: Float64Array
  private readonly strings: string[] = []
  private at = 0

  constructor(private readonly slots: number) {
    this.kinds = new Uint8Array(slots)
    this.numbers = new Float64Array(slots)
  }

  number(value: number | null | undefined): void {
    if (value !== null && value !== undefined) {
      if (typeof value !== 'number') throw new TypeError(`a viewer row holds a ${typeof value} where a number belongs`)
      this.kinds[this.at] = NUMBER
      this.numbers[this.at] = value
    }
    this.at++
  }

  string(value: string | null | undefined): void {
    if (value !== null && value !== undefined) {
      if (typeof value !== 'string') throw new TypeError(`a viewer row holds a ${typeof value} where text belongs`)
      this.kinds[this.at] = STRING
      this.strings.push(value)
    }
    this.at++
  }

  finish(): EncodedValues {
    if (this.at !== this.slots) throw new Error(`a row array was given ${this.at} values for ${this.slots} slots`)
    const { strings } = this
    const lengths = new Uint32Array(strings.length)
    for (let i = 0; i < strings.length; i++) lengths[i] = (strings[i] as string).length
    return { kinds: this.kinds, numbers: this.numbers, lengths, text: strings.join('') }
  }
}

function decodeValues(encoded: EncodedValues): unknown[] {
  const { kinds, numbers, lengths, text } = encoded
  const values: unknown[] = new Array(kinds.length)
  let string = 0
  let at = 0
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i]
    if (kind === NUMBER) values[i] = numbers[i]
    else if (kind === STRING) {
      const length = lengths[string++] as number
      values[i] = text.slice(at, at + length)
      at += length
    } else values[i] = null // kind 0
  }
  return values
}

/** The buffers to move (not copy) with encoded rows. */
export function transferList(encoded: EncodedRows): ArrayBuffer[] {
  return [encoded.viewers, encoded.connections].flatMap((v) => [v.kinds.buffer, v.numbers.buffer, v.lengths.buffer]) as ArrayBuffer[]
}

export function decodeRows(encoded: EncodedRows): ViewerListRows {
  return { count: encoded.count, viewers: decodeValues(encoded.viewers), connections: decodeValues(encoded.connections) }
}
