// A page's rows as they cross to the cache writer's thread. Structured cloning copies every
// string on both sides, and most of a page's strings repeat (device type, OS, app, the raw JSON
// "{}", a connection's type and proxy list): those go over once per page, in a dictionary, and
// the rows carry their index instead. The ids and addresses, all different, go as they are.
import { CONNECTION_ROW_WIDTH, VIEWER_ROW_WIDTH, type ViewerListRows } from './viewer-rows'

/** Slots of VIEWER_COLUMNS / CONNECTION_COLUMNS whose values repeat across a page. */
const VIEWER_REPEATING = [3, 4, 5, 16] // device_type, os, app, raw_json
const CONNECTION_REPEATING = [5, 6] // type_json, proxy_json

export interface PackedRows extends ViewerListRows {
  dictionary: string[]
}

function replace(values: unknown[], width: number, slots: readonly number[], map: (value: unknown) => unknown): void {
  for (let row = 0; row < values.length; row += width) {
    for (const slot of slots) values[row + slot] = map(values[row + slot])
  }
}

/** Packs `rows` in place (the arrays are handed over, not kept). */
export function packRows(rows: ViewerListRows): PackedRows {
  const dictionary: string[] = []
  const index = new Map<string, number>()
  const intern = (value: unknown): unknown => {
    if (typeof value !== 'string') return value // null stays null
    let at = index.get(value)
    if (at === undefined) {
      at = dictionary.push(value) - 1
      index.set(value, at)
    }
    return at
  }
  replace(rows.viewers, VIEWER_ROW_WIDTH, VIEWER_REPEATING, intern)
  replace(rows.connections, CONNECTION_ROW_WIDTH, CONNECTION_REPEATING, intern)
  return { ...rows, dictionary }
}

/** The rows as viewerListRows built them. */
export function unpackRows(packed: PackedRows): ViewerListRows {
  const { dictionary } = packed
  const lookup = (value: unknown): unknown => (typeof value === 'number' ? dictionary[value] : value)
  replace(packed.viewers, VIEWER_ROW_WIDTH, VIEWER_REPEATING, lookup)
  replace(packed.connections, CONNECTION_ROW_WIDTH, CONNECTION_REPEATING, lookup)
  return { count: packed.count, viewers: packed.viewers, connections: packed.connections }
}
