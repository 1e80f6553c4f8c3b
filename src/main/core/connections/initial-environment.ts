// The environment block a Linux process started with stays readable in /proc/<pid>/environ for
// its whole life (by its user and root), whatever process.env says later. This overwrites one
// variable's value there, in the process's own memory, through /proc/self/mem: the kernel's
// environ view then shows the name and zero bytes. Best effort: false where it cannot (another
// OS, a kernel that refuses), and docs/security.md says what to do then.
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs'

/** Fields 50 and 51 of /proc/self/stat (env_start, env_end), counted after the command's ")". */
function environmentBlock(): { start: number; end: number } | null {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ') // fields[0] is field 3
  const start = Number(fields[47])
  const end = Number(fields[48])
  return Number.isSafeInteger(start) && Number.isSafeInteger(end) && end > start && end - start < 1 << 24 ? { start, end } : null
}

/** Overwrites `name=value` in the initial environment with `name=` and zeros. */
export function scrubInitialEnvironment(name: string, value: string): boolean {
  if (process.platform !== 'linux') return false
  try {
    const block = environmentBlock()
    if (!block) return false
    const fd = openSync('/proc/self/mem', 'r+')
    try {
      const bytes = Buffer.alloc(block.end - block.start)
      readSync(fd, bytes, 0, bytes.length, block.start)
      const entry = Buffer.from(`${name}=${value}`)
      let scrubbed = false
      for (let at = bytes.indexOf(entry); at >= 0; at = bytes.indexOf(entry, at + entry.length)) {
        // Only a whole entry: it starts the block or follows the previous entry's NUL.
        if (at > 0 && bytes[at - 1] !== 0) continue
        const valueAt = at + name.length + 1
        bytes.fill(0, valueAt, at + entry.length)
        writeSync(fd, bytes, valueAt, entry.length - name.length - 1, block.start + valueAt)
        scrubbed = true
      }
      return scrubbed
    } finally {
      closeSync(fd)
    }
  } catch {
    return false
  }
}
