// Plain words for why a step of "Test connection" failed, and what to check. Pure: it reads the
// ApiError's kind and short reason (src/main/core/api/errors.ts), never the request itself.
import { ApiError } from '../api/errors'
import { ConnectionError } from './errors'

export interface FailureContext {
  /** Which address was being used: the auth URL for the token, the base URL for data. */
  urlLabel: 'auth URL' | 'base URL'
  url: string
  platformId: string
  tenantId: string
  /** The proxy the request went through (the connection's own, or the environment's), host:port. */
  proxy?: string
  /** A certificate problem named exactly (net/tls-probe.ts), when one was found. */
  certificate?: string
}

export function explainFailure(error: unknown, ctx: FailureContext): string {
  if (error instanceof ConnectionError) return error.message
  if (!(error instanceof ApiError)) {
    return `unexpected failure: ${error instanceof Error ? error.message : String(error)}`
  }
  const host = hostOf(ctx.url)
  const reason = reasonOf(error)
  const status = error.status === undefined ? '' : ` (HTTP ${error.status})`
  switch (error.kind) {
    case 'network':
      return explainNetwork(networkCauseOf(error) ?? guessCause(reason), reason, host, ctx)
    case 'authentication':
      return ctx.urlLabel === 'auth URL'
        ? `wrong client ID or client secret: the service refused them${status}. Check both.`
        : `the service did not accept the access token it had just issued${status}. Check that the auth URL and base URL belong to the same service.`
    case 'permission':
      return (
        `access denied${status}: this client may not read platform-id "${ctx.platformId}" / ` +
        `tenant-id "${ctx.tenantId}". Check both IDs, and that the client has been granted that tenant.`
      )
    case 'not-found':
      return `nothing found at ${host}${status}: check the ${ctx.urlLabel} (the path before /v1 or /v2).`
    case 'response-format':
      return `unexpected response from ${host}${status}: the address may not be the reporting API. Check the ${ctx.urlLabel}. (${reason})`
    case 'rate-limited':
      return `the service is limiting requests${status}: wait a minute and test again.`
    case 'server':
      return `the service had a problem${status}: ${reason}. Try again later.`
    case 'configuration':
    case 'storage': // the cache file's: said in its own words
    case 'app':
      return reason
  }
}

type Cause = 'unknown-host' | 'refused' | 'timeout' | 'tls' | 'reset' | 'proxy' | 'proxy-auth' | 'other'

function explainNetwork(cause: Cause, reason: string, host: string, ctx: FailureContext): string {
  const urlLabel = ctx.urlLabel
  const proxy = ctx.proxy
  // Behind a proxy the socket goes to the proxy: its failures are the proxy's, not the service's.
  if (proxy) {
    switch (cause) {
      case 'unknown-host':
        return `the proxy ${proxy} could not be found (unknown host). Check the proxy address.`
      case 'refused':
        return `the proxy ${proxy} refused the connection: nothing is listening there. Check the proxy address and port.`
      case 'timeout':
        return `timeout: neither the proxy ${proxy} nor ${host} answered in time. Check the proxy, and the ${urlLabel}.`
      default:
        break
    }
  }
  switch (cause) {
    case 'proxy-auth':
      return `the proxy ${proxy ?? ''} requires authentication (HTTP 407 from the proxy): give the proxy user and password with the proxy address.`.replace('proxy  ', 'proxy ')
    case 'proxy':
      return `the proxy ${proxy ?? ''} refused to reach ${host}: ${reason}. Check that the proxy lets this machine reach the ${urlLabel}'s host.`.replace('proxy  ', 'proxy ')
    case 'unknown-host':
      return `unknown host: "${host}" could not be found. Check the ${urlLabel}.`
    case 'refused':
      return `connection refused by ${host}: nothing is listening there. Check the ${urlLabel}'s host and port, and that the service is running.`
    case 'timeout':
      return `timeout: ${host} did not answer in time. Check the ${urlLabel}, your network and any proxy or firewall.`
    case 'tls': {
      if (ctx.certificate && /does not match the host name/.test(ctx.certificate)) {
        return `certificate problem talking to ${host}: ${ctx.certificate}. Check the ${urlLabel}: use a name the certificate is for.`
      }
      if (ctx.certificate) {
        return `certificate problem talking to ${host}: ${ctx.certificate}. Trust the CA that issued it (the connection's extra CA certificate, or NODE_EXTRA_CA_CERTS), or check the ${urlLabel}.`
      }
      const why = /^TLS error:?\s*(.*)$/i.exec(reason)?.[1] || reason
      return `TLS error talking to ${host} — certificate problem: ${why}. Check the ${urlLabel}, or whether this machine trusts the service's certificate.`
    }
    case 'reset':
      return `the connection to ${host} was cut off (${reason}). Check the ${urlLabel}, and any proxy in between.`
    case 'other':
      return `network error reaching ${host}: ${reason}. Check the ${urlLabel} and your network.`
  }
}

/** The client's own classification, when its ApiError carries one (src/main/core/api/errors.ts). */
function networkCauseOf(error: ApiError): Cause | undefined {
  const cause = (error as { networkCause?: unknown }).networkCause
  if (cause === 'dns-temporary') return 'unknown-host'
  const known: readonly unknown[] = ['unknown-host', 'refused', 'timeout', 'tls', 'reset', 'proxy', 'proxy-auth']
  return known.includes(cause) ? (cause as Cause) : undefined
}

/** Otherwise, from the words of the reason (the client's or Node's own). */
function guessCause(reason: string): Cause {
  if (/unknown host|ENOTFOUND|EAI_AGAIN|EAI_NONAME|getaddrinfo/i.test(reason)) return 'unknown-host'
  if (/connection refused|ECONNREFUSED/i.test(reason)) return 'refused'
  if (/timed out|timeout|ETIMEDOUT/i.test(reason)) return 'timeout'
  if (/TLS|SSL|certificate|CERT_|self[- ]signed|altname/i.test(reason)) return 'tls'
  if (/reset|ECONNRESET|hang up|closed/i.test(reason)) return 'reset'
  return 'other'
}

/** The ApiError's short reason: without its "METHOD /path: " prefix and "HTTP nnn" (shown apart). */
function reasonOf(error: ApiError): string {
  const prefix = `${error.endpoint}: `
  const text = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message
  return text.replace(/^HTTP \d{3}(: )?/, '') || 'no details given'
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}
