// The fetch every request of the core goes through: undici's, with a dispatcher that honours
// HTTPS_PROXY, HTTP_PROXY and NO_PROXY (issue 15: where the service is reachable only through
// the company proxy, Node's own fetch ignored them and `sync` failed with "unknown host").
// NODE_EXTRA_CA_CERTS (a private CA) is Node's own: TLS trusts it for every connection.
import { EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici'

let dispatcher: Dispatcher | undefined

/** Made on first use, so the proxy variables are read as the process has them then. */
function envDispatcher(): Dispatcher {
  dispatcher ??= new EnvHttpProxyAgent()
  return dispatcher
}

export type EnvFetch = (url: string, init: RequestInit) => Promise<Response>

export const envFetch: EnvFetch = (url, init) =>
  undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: envDispatcher() }) as unknown as Promise<Response>
