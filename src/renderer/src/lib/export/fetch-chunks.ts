// Every record of an export, fetched a chunk at a time so a large one shows progress and can be
// cancelled between chunks.

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
 * Reads chunks until `total` records are in (or a chunk comes back empty: the list shrank).
 * `onProgress(done, total)` after each chunk; `signal` stops it before the next one.
 */
export async function fetchAllChunks(
  fetchChunk: FetchChunk,
  onProgress: (done: number, total: number) => void,
  signal?: AbortSignal,
  chunkSize = CHUNK_SIZE
): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = []
  let total = Infinity
  while (records.length < total) {
    if (signal?.aborted) throw new ExportCancelled()
    const chunk = await fetchChunk(records.length, chunkSize)
    if (signal?.aborted) throw new ExportCancelled()
    total = chunk.total
    for (const record of chunk.records) records.push(record)
    onProgress(records.length, Math.max(total, records.length))
    if (chunk.records.length === 0) break
  }
  return records
}
