// Reads a request body up to a size cap. A larger one is drained, not buffered, so the
// caller can still answer 413 on the same connection.
import type { IncomingMessage } from 'node:http'

export class BodyTooLargeError extends Error {
  constructor(limitBytes: number) {
    super(`request body larger than ${limitBytes} bytes`)
    this.name = 'BodyTooLargeError'
  }
}

export function readBody(req: IncomingMessage, limitBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size <= limitBytes) {
        chunks.push(chunk)
        return
      }
      chunks.length = 0
      req.off('data', onData)
      req.resume() // discard the rest
      reject(new BodyTooLargeError(limitBytes))
    }
    req.on('data', onData)
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}
