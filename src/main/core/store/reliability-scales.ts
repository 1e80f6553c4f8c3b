// Each connection's reliability scale, decided from its own setting and its own cached scores
// (never from another tenant's): what every score the core hands out is normalised by.
import type { ConnectionScale, ReliabilityScale } from '../../../shared/reliability'
import { decideScale } from '../health/scale'
import { connectionScaleFacts, type ScaleFacts } from './connections'
import type { Db } from './db'

export type ScaleBook = ReadonlyMap<string, ConnectionScale>

export function connectionScales(db: Db): ScaleBook {
  return scaleBookOf(connectionScaleFacts(db))
}

/** The book from its facts, however they were read (the Store's `connections.scaleFacts`). */
export function scaleBookOf(all: readonly ScaleFacts[]): ScaleBook {
  const book = new Map<string, ConnectionScale>()
  for (const facts of all) {
    book.set(facts.id, {
      connectionId: facts.id,
      connectionName: facts.name,
      setting: facts.setting,
      ...decideScale(facts.setting, { count: facts.count, max: facts.max })
    })
  }
  return book
}

/** The scale in use for one connection; 0–100 for one the book does not know (deleted meanwhile). */
export function scaleOf(book: ScaleBook, connectionId: string): ReliabilityScale {
  return book.get(connectionId)?.value ?? '0-100'
}
