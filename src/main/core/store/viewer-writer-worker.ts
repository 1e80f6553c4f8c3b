// The cache writer's thread (viewer-writer.ts): its own connection to the cache file; staged
// pages, commits and abandons applied in the order asked, replies in that order.
import { parentPort, workerData } from 'node:worker_threads'
import { openDatabase } from './db'
import { decodeRows } from './row-transfer'
import type { ViewerWriterOptions, WriterReply, WriterRequest } from './viewer-writer'
import { dropAbandonedStagings, ViewerListStager } from './viewer-staging'

const port = parentPort
if (!port) throw new Error('viewer-writer-worker runs as a worker thread only')
const options = workerData as ViewerWriterOptions
// An open failure throws here and reaches the caller as the worker's 'error' event.
const db = openDatabase(options.file, { nativeBinding: options.nativeBinding })
// This connection only appends pages: a larger page cache and fewer, larger checkpoints cost it
// about a tenth less time per viewer (measured on 84,618 viewers).
db.pragma('cache_size = -32768')
db.pragma('wal_autocheckpoint = 4000')
dropAbandonedStagings(db, Date.now())
const stager = new ViewerListStager(db)

// Requests that arrive together are written in one transaction (each in a savepoint of its own,
// so one that fails costs only itself): a commit costs as much as writing a page, and pages
// come faster than they can be written one transaction each.
let batch: Extract<WriterRequest, { type: 'stage' }>[] = []
let closing = false

function writeBatch(): void {
  const requests = batch
  batch = []
  let replies: WriterReply[] = []
  try {
    db.transaction(() => {
      for (const request of requests) replies.push(apply(request))
    })()
  } catch (error) {
    // The commit itself failed (a full disk, say): nothing of the batch was written. Pages of a
    // list staged by earlier batches stay staged, unread, until the session is staged again.
    replies = requests.map((request) => failure(request.id, error))
  }
  for (const reply of replies) port?.postMessage(reply)
  if (closing) {
    db.close()
    port?.close()
  }
}

function apply(request: Extract<WriterRequest, { type: 'stage' }>): WriterReply {
  try {
    const { op } = request
    return { id: request.id, ok: true, value: stager.apply(op.type === 'page' ? { ...op, rows: decodeRows(op.rows) } : op) }
  } catch (error) {
    return failure(request.id, error)
  }
}

function failure(id: number, error: unknown): WriterReply {
  const e = error instanceof Error ? error : new Error(String(error))
  const code = (error as { code?: unknown }).code
  return { id, ok: false, error: { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) } }
}

port.on('message', (request: WriterRequest) => {
  if (request.type === 'close') {
    closing = true // after the requests already here
    if (batch.length === 0) writeBatch()
    return
  }
  if (batch.length === 0) setImmediate(writeBatch)
  batch.push(request)
})
