// Names a certificate problem exactly: which certificate (subject, issuer, validity) and why it
// is refused. fetch only says "UNABLE_TO_VERIFY_LEAF_SIGNATURE"; this opens one TLS connection
// of its own (through the same proxy, trusting the same CAs), reads the certificate the service
// presents without trusting it, and checks it as the request did. Used by "Test connection".
import { checkServerIdentity, connect as tlsConnect, type PeerCertificate, type TLSSocket } from 'node:tls'
import type { Duplex } from 'node:stream'
import { Client } from 'undici'
import { proxyUriWithPassword, trustedWith, type ConnectionNetwork } from '../net/connection-fetch'
import { envProxyFor } from '../net/env-proxy'
import { certificateWords } from '../api/network-errors'

const PROBE_TIMEOUT_MS = 10_000

/** Why the service's certificate is refused, in one sentence; undefined when it is not (or cannot be read). */
export async function describeCertificateProblem(url: string, network?: ConnectionNetwork): Promise<string | undefined> {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return undefined
  }
  if (target.protocol !== 'https:') return undefined
  const host = target.hostname.replace(/^\[|\]$/g, '')
  const port = Number(target.port || 443)
  try {
    const proxy = network?.proxyUrl ? await proxyUriWithPassword(network) : envProxyFor(url)
    const tunnel = proxy ? await openTunnel(proxy, host, port) : undefined
    if (proxy && !tunnel) return undefined // the proxy's own refusal is named elsewhere
    const ca = network?.caCertificate ? trustedWith(network.caCertificate) : undefined
    const socket = await handshake({ host, port, ca, ...(tunnel ? { socket: tunnel } : {}) })
    try {
      return judge(host, socket)
    } finally {
      socket.destroy()
    }
  } catch {
    return undefined
  }
}

function judge(host: string, socket: TLSSocket): string | undefined {
  const cert = socket.getPeerCertificate()
  if (!cert || !cert.subject) return undefined
  const which = describe(cert)
  const identity = checkServerIdentity(host, cert)
  if (socket.authorized && !identity) return undefined
  // Node gives the reason as a bare code (a string), or as an Error on some versions.
  const refusal = socket.authorizationError as (Error & { code?: string }) | string | null
  const code = typeof refusal === 'string' ? refusal : (refusal?.code ?? refusal?.message ?? '')
  if (identity && (socket.authorized || code === 'ERR_TLS_CERT_ALTNAME_INVALID')) {
    return `${which} does not match the host name: ${identity.message}`
  }
  return `${which} is not trusted: ${certificateWords(code)} (${code})`
}

function describe(cert: PeerCertificate): string {
  const subject = cert.subject?.CN || cert.subject?.O || 'unnamed'
  const issuer = cert.issuer?.CN || cert.issuer?.O || 'unnamed'
  return `the certificate "${subject}" issued by "${issuer}" (valid ${cert.valid_from} to ${cert.valid_to})`
}

async function openTunnel(proxy: string, host: string, port: number): Promise<Duplex | undefined> {
  const proxyUrl = new URL(proxy)
  const headers: Record<string, string> = { host: `${host}:${port}` }
  if (proxyUrl.username) {
    const user = decodeURIComponent(proxyUrl.username)
    const password = decodeURIComponent(proxyUrl.password)
    headers['proxy-authorization'] = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
  }
  const client = new Client(proxyUrl.origin, {
    ...(proxyUrl.protocol === 'https:' ? { connect: { rejectUnauthorized: true } } : {})
  })
  const { socket, statusCode } = await client.connect({
    path: `${host}:${port}`,
    headers,
    signal: AbortSignal.timeout(PROBE_TIMEOUT_MS)
  })
  if (statusCode === 200) return socket
  socket.destroy()
  return undefined
}

function handshake(options: { host: string; port: number; ca: string[] | undefined; socket?: Duplex }): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      ...(options.socket ? { socket: options.socket } : { host: options.host, port: options.port }),
      servername: /^[\d.:]+$/.test(options.host) ? undefined : options.host,
      ...(options.ca ? { ca: options.ca } : {}),
      // Read the certificate whatever it is; it is judged below, and nothing is sent over it.
      rejectUnauthorized: false
    })
    const timer = setTimeout(() => socket.destroy(new Error('timed out')), PROBE_TIMEOUT_MS)
    socket.once('secureConnect', () => {
      clearTimeout(timer)
      resolve(socket)
    })
    socket.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
  })
}
