// Access tokens and browser session ids: long random strings, kept only as SHA-256 hashes. They
// carry 256 bits of randomness, so a plain hash is enough (no password to stretch).
import { createHash, randomBytes } from 'node:crypto'

/** "ewu_" marks a user's token in a config file or a leaked log, so it can be recognised and revoked. */
export const USER_TOKEN_PREFIX = 'ewu_'

export const newUserToken = (): string => `${USER_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`

export const newSessionId = (): string => randomBytes(32).toString('base64url')

export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex')
