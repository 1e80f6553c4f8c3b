// Loaded with `node --import` into a benchmarked child process: when the process exits, it
// writes its peak resident set size (bytes) and the CPU time of all its threads (ms) to the
// file named by EVENTWATCH_BENCH_RSS_FILE, as JSON. Nothing else changes in the child; without
// the variable this module does nothing.
import { writeFileSync } from 'node:fs'

const file = process.env.EVENTWATCH_BENCH_RSS_FILE
if (file) {
  process.on('exit', () => {
    // getrusage(RUSAGE_SELF): every thread of the process, the ended ones included. maxRSS is in
    // kilobytes, the CPU times in microseconds.
    const usage = process.resourceUsage()
    writeFileSync(file, JSON.stringify({ peakRss: usage.maxRSS * 1024, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }))
  })
}
