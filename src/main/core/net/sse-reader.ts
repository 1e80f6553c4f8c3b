// Reads a text/event-stream body (server-sent events) into (event, data) pairs, as the browser's
// EventSource would: lines of "field: value", an empty line ends an event, ":" lines are comments.
export interface ServerSentEvent {
  event: string
  data: string
}

/** `onBytes` hears of every chunk, comments (heartbeats) included: the caller's sign of life. */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  onBytes: () => void = () => undefined,
  maxEventBytes = 64 * 1024 * 1024
): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder()
  let buffer = ''
  let event = 'message'
  let data: string[] = []
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    onBytes()
    buffer += decoder.decode(chunk, { stream: true })
    if (buffer.length > maxEventBytes) throw new Error(`an event of the stream is larger than ${maxEventBytes} bytes`)
    let newline: number
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A CR at the very end may be half of a CRLF split across chunks: wait for the next one.
      if (buffer[newline] === '\r' && newline === buffer.length - 1) break
      const line = buffer.slice(0, newline)
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1))
      if (line === '') {
        if (data.length > 0) yield { event, data: data.join('\n') }
        event = 'message'
        data = []
        continue
      }
      if (line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon < 0 ? line : line.slice(0, colon)
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'event') event = value
      else if (field === 'data') data.push(value)
    }
  }
}
