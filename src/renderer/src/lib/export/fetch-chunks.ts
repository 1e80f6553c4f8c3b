// Every record of an export, fetched a chunk at a time so a large one shows progress and can be
// cancelled between chunks. Each chunk goes straight on to the assembler: the page keeps none.

export const CHUNK_SIZE = 5000

export interface Chunk {
  records: Record<string, unknown>[]
  total: number
}

export type FetchChunk = (offset: number, limit: number) => Promise<Chunk>

export class ExportCancelled extends Error {
  constructor() {
    super('export cancelled')
  }
}

/**
 * Reads chunks until `total` records are in (or a chunk comes back empty: the list shrank), and
 * returns how many came. `onChunk(records, done, total)` after each chunk; `signal` stops it
 * before the next one.
 */
export async function fetchAllChunks(
  fetchChunk: FetchChunk,
  onChunk: (records: Record<string, unknown>[], done: number, total: number) => void,
  signal?: AbortSignal,
  chunkSize = CHUNK_SIZE
): Promise<number> {
  let done = 0
  let total = Infinity
  while (done < total) {
    if (signal?.aborted) throw new ExportCancelled()
    const chunk = await fetchChunk(done, chunkSize)
    if (signal?.aborted) throw new ExportCancelled()
    total = chunk.total
    done += chunk.records.length
    onChunk(chunk.records, done, Math.max(total, done))
    if (chunk.records.length === 0) break
  }
  return done
}
