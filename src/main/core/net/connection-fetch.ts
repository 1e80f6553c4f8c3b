// Which fetch a connection's requests go through (issue 15):
//   - a connection with its own proxy or extra CA certificate: undici with a dispatcher made for
//     exactly that (a ProxyAgent tunnelling through the proxy, trusting the usual roots plus the
//     given PEM), shared by every request of that connection;
//   - any other: the process default, which is undici honouring HTTPS_PROXY/HTTP_PROXY/NO_PROXY
//     (env-fetch.ts) in the CLI and the browser host, and Electron's net.fetch on the desktop
//     (the system proxy, PAC files, proxy authentication and the OS certificate store).
import { readFileSync } from 'node:fs'
import { rootCertificates } from 'node:tls'
import { Agent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici'
import { envFetch, type EnvFetch } from './env-fetch'

export type FetchLike = EnvFetch

/** A connection's own network settings; a proxy password is read (once) from the keychain. */
export interface ConnectionNetwork {
  /** http(s)://host:port of the proxy, a user name allowed, never a password. */
  proxyUrl?: string
  /** Extra trusted CA certificate(s), PEM. */
  caCertificate?: string
  proxyPassword?: () => Promise<string | null>
}

let processDefault: FetchLike = envFetch

/** The desktop sets Electron's net.fetch here before any request; tests put it back. */
export function setDefaultFetch(fetch: FetchLike | undefined): void {
  processDefault = fetch ?? envFetch
}

export function defaultFetch(): FetchLike {
  return processDefault
}

export function hasOwnNetwork(network: ConnectionNetwork | undefined): boolean {
  return Boolean(network?.proxyUrl || network?.caCertificate)
}

/** The fetch for one connection's requests (see the top of this file). */
export function fetchFor(network: ConnectionNetwork | undefined): FetchLike {
  if (!network || !hasOwnNetwork(network)) return (url, init) => processDefault(url, init)
  let dispatcher: Promise<Dispatcher> | undefined
  return async (url, init) => {
    dispatcher ??= dispatcherFor(network).catch((error: unknown) => {
      dispatcher = undefined // the keychain may answer next time
      throw error
    })
    const via = await dispatcher
    return undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: via }) as unknown as Promise<Response>
  }
}

async function dispatcherFor(network: ConnectionNetwork): Promise<Dispatcher> {
  const ca = network.caCertificate ? trustedWith(network.caCertificate) : undefined
  if (!network.proxyUrl) return new Agent({ connect: { ca } })
  return new ProxyAgent({
    uri: await proxyUriWithPassword(network),
    ...(ca ? { requestTls: { ca }, proxyTls: { ca } } : {})
  })
}

/** The proxy URL as undici takes it: the stored user with the keychain's password. */
export async function proxyUriWithPassword(network: ConnectionNetwork): Promise<string> {
  const url = new URL(network.proxyUrl ?? '')
  const password = url.username ? await network.proxyPassword?.() : null
  if (password) url.password = password
  return url.href
}

/**
 * Giving TLS a `ca` replaces Node's trust store, so the usual roots and NODE_EXTRA_CA_CERTS are
 * listed again beside the connection's own certificate.
 */
export function trustedWith(pem: string): string[] {
  return [...rootCertificates, ...extraCaCertificates(), pem]
}

function extraCaCertificates(): string[] {
  const file = process.env['NODE_EXTRA_CA_CERTS']
  if (!file) return []
  try {
    return [readFileSync(file, 'utf8')]
  } catch {
    return [] // Node itself warned at start; the connection's own CA still counts
  }
}
