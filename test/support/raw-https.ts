// One request written byte for byte over TLS to a loopback server, on its own connection: for
// what no HTTP client will send, such as two Host headers. The answer is read to its end.
import { connect } from 'node:tls'

export interface RawTlsAnswer {
  status: number
  /** Header lines as sent, names in lower case, in order (a repeated one appears twice). */
  headers: [string, string][]
  body: string
}

/** `head` is the request line and header lines, without the blank line; `Connection: close` is added. */
export function rawTlsRequest(port: number, ca: string, head: string[], body = ''): Promise<RawTlsAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername: 'noc.eventwatch.test' }, () => {
      socket.end([...head, 'Connection: close', '', body].join('\r\n'))
    })
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (text += chunk))
    socket.on('error', reject)
    socket.on('end', () => {
      const split = text.indexOf('\r\n\r\n')
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n')
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0),
        headers: lines.map((line) => {
          const at = line.indexOf(':')
          return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()]
        }),
        body: text.slice(split + 4)
      })
    })
  })
}
