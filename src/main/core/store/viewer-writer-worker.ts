// The cache writer's thread (viewer-writer.ts): its own connection to the cache file, one
// transaction per viewer list, replies in the order the lists came.
import { parentPort, workerData } from 'node:worker_threads'
import { openDatabase } from './db'
import type { ViewerWriterOptions, WriterReply, WriterRequest } from './viewer-writer'
import { writeViewerRows } from './viewers'

const port = parentPort
if (!port) throw new Error('viewer-writer-worker runs as a worker thread only')
const options = workerData as ViewerWriterOptions
// An open failure throws here and reaches the caller as the worker's 'error' event.
const db = openDatabase(options.file, { nativeBinding: options.nativeBinding })

port.on('message', (request: WriterRequest) => {
  if (request.type === 'close') {
    db.close()
    port.close()
    return
  }
  let reply: WriterReply
  try {
    writeViewerRows(db, request.connectionId, request.eventSessionId, request.rows, request.fetchedAt, request.pages)
    reply = { id: request.id, ok: true }
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error))
    const code = (error as { code?: unknown }).code
    reply = { id: request.id, ok: false, error: { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) } }
  }
  port.postMessage(reply)
})
