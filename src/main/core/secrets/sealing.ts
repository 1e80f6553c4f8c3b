// Sealing one secret for the database (issue 26; docs/secrets.md): AES-256-GCM under the 32-byte
// key of EVENTWATCH_SECRET_KEY_FILE (key-file.ts), a fresh random 12-byte IV each time, the 16-byte
// tag kept with it, and the row's identity (service, account) as additional authenticated data, so
// a ciphertext copied into another row fails to open there. A row that cannot be opened — another
// key, an altered or moved row — is an error naming the row (never its value), never "no secret".
// Pure: the rows are the Store's (store/sealed-secrets.ts puts the two together).
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'
import type { ErrorKind } from '../../../shared/error-kinds'

export const SECRET_KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
const ALGORITHM = 'aes-256-gcm'

/** One sealed secret, as its row keeps it. */
export interface SealedSecret {
  /** Which key sealed it: an id derived from the key (never the key itself). */
  keyId: string
  /** The 12-byte initialisation vector of this one write. */
  iv: Buffer
  ciphertext: Buffer
  /** The 16-byte GCM authentication tag. */
  authTag: Buffer
}

/** Where a sealed secret belongs: its row. */
export interface SecretRow {
  service: string
  account: string
}

/** A sealed row that this key cannot open: another server's key (or none), or a row altered or
 *  moved. The server's configuration is at fault, never the service. */
export class SecretUnreadableError extends Error {
  readonly kind: ErrorKind = 'configuration'

  constructor(message: string) {
    super(message)
    this.name = 'SecretUnreadableError'
  }
}

/** Which key sealed a row: an HMAC of a fixed label under the key (it says nothing of the key). */
export function secretKeyId(key: Buffer): string {
  return createHmac('sha256', key).update('eventwatch secret key id').digest('hex').slice(0, 16)
}

/** The row in words, for errors: never its value. */
export const rowName = ({ service, account }: SecretRow): string => `the secret "${account}" of ${service}`

/** What binds a ciphertext to its row. */
const rowIdentity = ({ service, account }: SecretRow): Buffer => Buffer.from(JSON.stringify(['eventwatch secret', service, account]), 'utf8')

export function checkSecretKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== SECRET_KEY_BYTES) throw new RangeError(`the secret key must be exactly ${SECRET_KEY_BYTES} bytes`)
}

export function sealSecret(key: Buffer, row: SecretRow, secret: string): SealedSecret {
  checkSecretKey(key)
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(rowIdentity(row))
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return { keyId: secretKeyId(key), iv, ciphertext, authTag: cipher.getAuthTag() }
}

export function openSecret(key: Buffer, row: SecretRow, sealed: SealedSecret): string {
  checkSecretKey(key)
  try {
    if (sealed.iv.length !== IV_BYTES || sealed.authTag.length !== TAG_BYTES) throw new Error('malformed row')
    const decipher = createDecipheriv(ALGORITHM, key, sealed.iv, { authTagLength: TAG_BYTES })
    decipher.setAAD(rowIdentity(row))
    decipher.setAuthTag(sealed.authTag)
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8')
  } catch {
    // Node says only "Unsupported state or unable to authenticate data": say which row, and why.
    const keyId = secretKeyId(key)
    if (sealed.keyId !== keyId) {
      throw new SecretUnreadableError(
        `${rowName(row)} cannot be decrypted: it was encrypted under another key (key id ${sealed.keyId}, ` +
          `this server's is ${keyId}); give every server the same EVENTWATCH_SECRET_KEY_FILE, or save the secret again`
      )
    }
    throw new SecretUnreadableError(
      `${rowName(row)} cannot be decrypted: its row in the database was altered or moved ` +
        '(the authentication tag does not match); save the secret again'
    )
  }
}
