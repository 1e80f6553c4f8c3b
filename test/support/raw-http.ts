// One raw HTTP request to a loopback server, on its own connection, with the path sent as
// written (fetch would normalise `..` and `//` away) and only the headers given. An event
// stream that opens is read up to its first comment and then dropped, so it answers without hanging.
import { request, type IncomingMessage } from 'node:http'

export interface RawAnswer {
  status: number
  headers: IncomingMessage['headers']
  body: string
}

export interface RawRequest {
  method?: string
  headers?: Record<string, string>
  body?: string
}

export function rawRequest(port: number, path: string, options: RawRequest = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        agent: false, // no reuse of a socket the server chose to close
        headers: options.headers ?? {}
      },
      (res) => {
        let body = ''
        const done = (): void => resolve({ status: res.statusCode ?? 0, headers: res.headers, body })
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          body += chunk
          if ((res.headers['content-type'] ?? '').startsWith('text/event-stream') && body.includes(': connected')) {
            done()
            req.destroy()
          }
        })
        res.on('end', done)
      }
    )
    req.on('error', reject)
    req.end(options.body)
  })
}
