// Turns what fetch (undici) and Node's sockets throw into a few plain words. The useful code is
// buried: fetch throws TypeError('fetch failed') whose `cause` (or an AggregateError's
// `errors`) carries ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED, UND_ERR_SOCKET and the like.
import type { NetworkCause } from './errors'

export interface NetworkProblem {
  cause: NetworkCause
  message: string
}

const TLS_WORDS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'the server certificate has expired',
  CERT_NOT_YET_VALID: 'the server certificate is not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'a self-signed certificate is in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server certificate cannot be verified (its issuer is not trusted here, or an intermediate is missing)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate issuer is not trusted here',
  UNABLE_TO_GET_ISSUER_CERT: 'the certificate issuer is not trusted here',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate does not match the host name',
  CERT_REVOKED: 'the server certificate was revoked',
  CERT_UNTRUSTED: 'the server certificate is not trusted'
}

const SIMPLE: Record<string, NetworkProblem> = {
  ECONNREFUSED: { cause: 'refused', message: 'connection refused' },
  ENOTFOUND: { cause: 'unknown-host', message: 'unknown host' },
  EAI_AGAIN: { cause: 'dns-temporary', message: 'unknown host (name lookup failed, may be temporary)' },
  ECONNRESET: { cause: 'reset', message: 'connection reset' },
  EPIPE: { cause: 'reset', message: 'connection reset' },
  UND_ERR_SOCKET: { cause: 'reset', message: 'connection reset (the server closed it)' },
  UND_ERR_CLOSED: { cause: 'reset', message: 'connection reset (the server closed it)' },
  ETIMEDOUT: { cause: 'timeout', message: 'timed out' },
  UND_ERR_CONNECT_TIMEOUT: { cause: 'timeout', message: 'timed out connecting' },
  UND_ERR_HEADERS_TIMEOUT: { cause: 'timeout', message: 'timed out' },
  UND_ERR_BODY_TIMEOUT: { cause: 'timeout', message: 'timed out' },
  EHOSTUNREACH: { cause: 'refused', message: 'host unreachable' },
  ENETUNREACH: { cause: 'refused', message: 'network unreachable' }
}

interface ChainLink {
  code?: unknown
  message?: unknown
  cause?: unknown
  errors?: unknown
}

/** Every error in an error's cause chain (and an AggregateError's `errors`), outermost first. */
function chainOf(error: unknown, depth = 0): ChainLink[] {
  if (depth > 6 || typeof error !== 'object' || error === null) return []
  const e = error as ChainLink
  const nested = Array.isArray(e.errors) ? e.errors.flatMap((x) => chainOf(x, depth + 1)) : []
  return [e, ...chainOf(e.cause, depth + 1), ...nested]
}

const codesOf = (error: unknown): string[] =>
  chainOf(error).flatMap((e) => (typeof e.code === 'string' ? [e.code] : []))
const messagesOf = (error: unknown): string[] =>
  chainOf(error).flatMap((e) => (typeof e.message === 'string' ? [e.message] : []))

/** A certificate refusal's code in words ("the certificate issuer is not trusted here"). */
export function certificateWords(code: string): string {
  return TLS_WORDS[code] ?? code.toLowerCase().replace(/_/g, ' ')
}

function tlsProblem(code: string): NetworkProblem | undefined {
  const words = TLS_WORDS[code]
  if (words) return { cause: 'tls', message: `TLS error: ${words} (${code})` }
  if (/^ERR_(TLS|SSL)_|CERT/.test(code)) return { cause: 'tls', message: `TLS error: ${code}` }
  return undefined
}

/** undici's words when the proxy answers CONNECT with anything but 200. */
function proxyProblem(error: unknown): NetworkProblem | undefined {
  for (const message of messagesOf(error)) {
    const status = /Proxy response \((\d{3})\)/i.exec(message)?.[1]
    if (!status) continue
    if (status === '407') {
      return { cause: 'proxy-auth', message: 'the proxy requires authentication (HTTP 407 from the proxy): check the proxy user and password' }
    }
    return { cause: 'proxy', message: `the proxy refused to connect to the service (HTTP ${status} from the proxy)` }
  }
  return undefined
}

/** The network problem behind `error`, or undefined when it does not look like one. */
export function classifyNetworkError(error: unknown): NetworkProblem | undefined {
  const name = (error as { name?: unknown } | null)?.name
  if (name === 'TimeoutError') return { cause: 'timeout', message: 'timed out' }
  if (name === 'AbortError') return { cause: 'other', message: 'request aborted' }
  const viaProxy = proxyProblem(error)
  if (viaProxy) return viaProxy
  for (const code of codesOf(error)) {
    const known = SIMPLE[code] ?? tlsProblem(code)
    if (known) return known
  }
  // fetch's own wrapper with no code we know: still the network, in its own words.
  if (error instanceof TypeError && /fetch failed|terminated|network/i.test(error.message)) {
    const inner = (error.cause as { message?: unknown } | undefined)?.message
    return { cause: 'other', message: typeof inner === 'string' && inner ? oneLine(inner) : 'network error' }
  }
  return undefined
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 120)
}
