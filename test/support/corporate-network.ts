// A company network on loopback, for the proxy and private-CA tests (issue 15): a private
// certificate authority (openssl), the service behind TLS with a certificate from it, and an
// HTTP CONNECT proxy that alone knows where the service's name leads.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { connect, type AddressInfo } from 'node:net'
import { join } from 'node:path'

export interface PrivateCa {
  caFile: string
  key: string
  cert: string
}

/** A CA and a server certificate for `name` (and 127.0.0.1) signed by it, in `dir`. */
export function privateCa(dir: string, name: string): PrivateCa {
  const at = (file: string): string => join(dir, file)
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'ignore' })
  }
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '2', '-subj', '/CN=Eventwatch Test CA')
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', `/CN=${name}`)
  writeFileSync(at('ext.cnf'), `subjectAltName=DNS:${name},IP:127.0.0.1\n`)
  openssl('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('server.pem'), '-days', '2', '-extfile', at('ext.cnf'))
  const read = (file: string): string => execFileSync('cat', [at(file)], { encoding: 'utf8' })
  return { caFile: at('ca.pem'), key: read('server.key'), cert: read('server.pem') }
}

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

const closing = (server: Server) => (): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections?.()
    server.close(() => resolve())
  })

/** HTTPS in front of an HTTP service on loopback: what the company's service looks like. */
export async function tlsFront(target: string, ca: PrivateCa): Promise<{ port: number; close: () => Promise<void> }> {
  const upstream = new URL(target)
  const server = createHttpsServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    forward.on('error', () => res.destroy())
    req.pipe(forward)
  })
  return { port: await listen(server), close: closing(server) }
}

/**
 * A CONNECT proxy that sends `host:port` wherever `routes` says, and refuses anything else;
 * with `auth`, only to a client giving that user and password (Basic), others get 407.
 */
export async function connectProxy(
  routes: Record<string, number>,
  auth?: { user: string; password: string }
): Promise<{ url: string; port: number; tunnels: string[]; close: () => Promise<void> }> {
  const tunnels: string[] = []
  const expected = auth ? `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` : undefined
  const server = createHttpServer((_req, res) => {
    res.writeHead(405).end('this proxy only tunnels')
  })
  server.on('connect', (req, client, head) => {
    const target = req.url ?? ''
    if (expected && req.headers['proxy-authorization'] !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\n\r\n')
      return
    }
    tunnels.push(target)
    const port = routes[target]
    if (port === undefined) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n')
      return
    }
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  const port = await listen(server)
  return { url: `http://127.0.0.1:${port}`, port, tunnels, close: closing(server) }
}
