// Key files for EVENTWATCH_SECRET_KEY_FILE as `openssl rand -out FILE 32 && chmod 600 FILE` leaves
// them, or as a test spoils them (another size, another mode).
import { randomBytes } from 'node:crypto'
import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Writes `bytes` (32 random ones by default) to `dir/name` with `mode`; answers its path. */
export function writeKeyFile(dir: string, name = 'secret.key', bytes: Buffer = randomBytes(32), mode = 0o600): string {
  const path = join(dir, name)
  writeFileSync(path, bytes, { mode })
  // writeFileSync's mode passes through the umask: set it as asked.
  chmodSync(path, mode)
  return path
}
