// An HTTPS agent that trusts one certificate by its SHA-256 fingerprint instead of a chain to a
// known authority: a team server with its own (self-signed) certificate, pinned once by its admin.
import type { TLSSocket } from 'node:tls'
import { Agent, buildConnector } from 'undici'

/** "AB:CD:…" or "abcd…", as openssl or a browser shows it, to one spelling. */
export const normaliseFingerprint = (text: string): string => text.replace(/[^0-9a-f]/gi, '').toUpperCase()

export function isFingerprint(text: string): boolean {
  return normaliseFingerprint(text).length === 64 && /^[0-9A-F:\s]+$/i.test(text.trim())
}

export class PinMismatchError extends Error {
  constructor(readonly presented: string) {
    super(`the server's certificate (SHA-256 ${presented}) is not the pinned one: someone else may be answering at that address`)
    this.name = 'PinMismatchError'
  }
}

export function pinnedAgent(sha256: string): Agent {
  const expected = normaliseFingerprint(sha256)
  // The chain is not checked (the pin replaces it); the fingerprint is, before any byte is sent.
  // No session resumption: a resumed TLS session shows no peer certificate to check.
  const connect = buildConnector({ rejectUnauthorized: false, maxCachedSessions: 0 })
  return new Agent({
    connect: (options, callback) => {
      connect(options, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('no socket'), null)
        const presented = (socket as TLSSocket).getPeerCertificate?.()?.fingerprint256 ?? ''
        if (normaliseFingerprint(presented) !== expected) {
          socket.destroy()
          return callback(new PinMismatchError(presented || 'none'), null)
        }
        callback(null, socket)
      })
    }
  })
}
