// The key of the encrypted secrets (sealing.ts, kept by store/sealed-secrets.ts): the file EVENTWATCH_SECRET_KEY_FILE
// names holds exactly 32 random bytes (`openssl rand -out FILE 32`), readable by its owner alone.
// Every problem is said with what to do: the file missing, its size, its permissions (refused when
// group or others have any access, as ssh refuses a private key).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { SECRET_KEY_BYTES } from './sealing'

export const SECRET_KEY_FILE_ENV = 'EVENTWATCH_SECRET_KEY_FILE'

export class SecretKeyFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SecretKeyFileError'
  }
}

/** The key file the environment names; undefined when the variable is unset or empty. */
export function secretKeyFileOf(env: NodeJS.ProcessEnv): string | undefined {
  return env[SECRET_KEY_FILE_ENV]?.trim() || undefined
}

const make = (file: string): string => `openssl rand -out ${quoted(file)} ${SECRET_KEY_BYTES} && chmod 600 ${quoted(file)}`
const quoted = (file: string): string => (/^[\w./-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`)

/** The 32 bytes of `file`; a SecretKeyFileError saying what is wrong and how to fix it otherwise. */
export function readSecretKeyFile(file: string, platform: NodeJS.Platform = process.platform): Buffer {
  const where = `${SECRET_KEY_FILE_ENV} (${file})`
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new SecretKeyFileError(`${where}: the key file does not exist; make one with: ${make(file)}`)
    if (code === 'EACCES') throw new SecretKeyFileError(`${where}: the key file cannot be read by this user; it must be owned by the user that runs Eventwatch`)
    throw new SecretKeyFileError(`${where}: the key file cannot be opened (${code ?? String(error)})`)
  }
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) throw new SecretKeyFileError(`${where}: not a regular file; make a key file with: ${make(file)}`)
    // POSIX permissions only: Windows has no group and other bits to check.
    if (platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8).padStart(4, '0')
      throw new SecretKeyFileError(
        `${where}: the key file is open to other users (mode ${mode}), so it is refused, as ssh refuses such a key; run: chmod 600 ${quoted(file)}`
      )
    }
    // One byte more than a key, to tell a key from a longer file.
    const buffer = Buffer.alloc(SECRET_KEY_BYTES + 1)
    let length = 0
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null)
      if (n === 0) break
      length += n
    }
    if (length !== SECRET_KEY_BYTES) {
      const size = length > SECRET_KEY_BYTES ? `more than ${SECRET_KEY_BYTES} bytes` : `${length} byte${length === 1 ? '' : 's'}`
      const text = looksLikeText(stat.size, buffer.subarray(0, length)) ? ' (it looks like text: the file holds the raw bytes, not hex or base64)' : ''
      throw new SecretKeyFileError(
        `${where}: the key file holds ${size}${text}; it must hold exactly ${SECRET_KEY_BYTES} random bytes: ${make(file)}`
      )
    }
    return Buffer.from(buffer.subarray(0, SECRET_KEY_BYTES))
  } finally {
    closeSync(fd)
  }
}

/** A hex (64 characters) or base64 (44) rendering of a key, perhaps with a newline. */
function looksLikeText(size: number, head: Buffer): boolean {
  return [44, 45, 64, 65].includes(size) && /^[0-9A-Za-z+/=\r\n]+$/.test(head.toString('latin1'))
}
