// Loaded with `node --import` into a benchmarked child process: when the process exits, it
// writes its peak resident set size (bytes) to the file named by EVENTWATCH_BENCH_RSS_FILE.
// Nothing else changes in the child; without the variable this module does nothing.
import { writeFileSync } from 'node:fs'

const file = process.env.EVENTWATCH_BENCH_RSS_FILE
if (file) {
  process.on('exit', () => {
    // resourceUsage().maxRSS is in kilobytes.
    writeFileSync(file, String(process.resourceUsage().maxRSS * 1024))
  })
}
