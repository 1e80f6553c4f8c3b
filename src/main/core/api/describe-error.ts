// Anything a call to the service threw, in the taxonomy's words, for the UI, the CLI's one line
// on stderr and the diagnostics log.
import { ERROR_KINDS, type ErrorKind } from '../../../shared/error-kinds'
import { redact } from '../net/redact'
import { storageFault } from '../storage-faults'
import { ApiError } from './errors'
import { classifyNetworkError } from './network-errors'
import { shortReason } from './reason'

export interface ErrorDescription {
  kind: ErrorKind
  message: string
}

/**
 * An ApiError keeps its kind and message. Anything else is classified by what it looks like:
 * a fault of the local cache (a SQLite code such as SQLITE_FULL, from this thread or rebuilt
 * from the cache writer's, or a StorageError) is 'storage', never the service's fault; a socket
 * or fetch failure (ECONNREFUSED, ENOTFOUND, a TLS code, an AbortSignal timeout) is 'network';
 * an error of ours that carries a kind of the taxonomy keeps it, and its whole sentence;
 * everything else — a SyntaxError from JSON, a TypeError from reading a shape we did not
 * expect — is 'response-format', since the client only fails that way when an answer is not
 * what the spec led it to expect. The message is one line, no stack, tokens redacted.
 */
export function describeApiError(error: unknown): ErrorDescription {
  if (error instanceof ApiError) return { kind: error.kind, message: redact(error.message) }
  const storage = storageFault(error)
  if (storage) return { kind: 'storage', message: redact(storage.message) }
  const network = classifyNetworkError(error)
  if (network) return { kind: 'network', message: redact(network.message) }
  // A cause on this side that says its own kind (a connection whose secret is missing or cannot be
  // opened: ConnectionError, SecretUnreadableError): its whole sentence, not the service's fault.
  const own = ownKind(error)
  if (own && error instanceof Error) return { kind: own, message: redact(error.message) }
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  const message = shortReason(raw) // no tags, no tokens, one short line
  // The cache writer (store/viewer-writer.ts) failing without a SQLite code is still local.
  if ((error as { name?: unknown } | null)?.name === 'CacheWriterError') return { kind: 'storage', message: message || 'the cache writer failed' }
  return { kind: 'response-format', message: message || 'unexpected response' }
}

function ownKind(error: unknown): ErrorKind | null {
  const kind = (error as { kind?: unknown } | null)?.kind
  return typeof kind === 'string' && (ERROR_KINDS as readonly string[]).includes(kind) ? (kind as ErrorKind) : null
}
