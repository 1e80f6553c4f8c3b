// Keeps the cache file from growing without bound once retention has deleted rows:
//  - the WAL is checkpointed and truncated (it otherwise stays as large as its biggest burst);
//  - when much of the file is free pages, they are handed back to the OS: a few at a time with
//    `incremental_vacuum` (auto_vacuum = INCREMENTAL, set on every file created since schema 3,
//    see db.ts), or, for an older file, with one VACUUM that also switches it to INCREMENTAL.
// Free pages are reused by new rows anyway, so vacuuming only matters after a big prune.
import type { Db } from './db'

export interface CompactOptions {
  /** Reclaim only when free pages are at least this share of the file… */
  minFreeRatio?: number
  /** …and at least this many pages (4 KiB each by default). */
  minFreePages?: number
  /** Pages per incremental_vacuum step (each step is one short write). */
  pagesPerStep?: number
}

export interface CompactResult {
  /** Free pages before reclaiming, and the file's pages before and after. */
  freePages: number
  pagesBefore: number
  pagesAfter: number
  vacuum: 'none' | 'incremental' | 'full'
  /** Whether the WAL checkpoint completed (false when a reader kept it from it). */
  checkpointed: boolean
}

const DEFAULTS: Required<CompactOptions> = { minFreeRatio: 0.2, minFreePages: 1024, pagesPerStep: 2048 }
const INCREMENTAL = 2

const pragmaNumber = (db: Db, name: string): number => db.pragma(name, { simple: true }) as number

/** Moves the WAL into the database and truncates it; false when a reader held it back. */
export function checkpoint(db: Db): boolean {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[]
  return result !== undefined && result.busy === 0
}

/** What compacting would do now. */
export function reclaimPlan(db: Db, options: CompactOptions = {}): 'none' | 'incremental' | 'full' {
  const { minFreeRatio, minFreePages } = { ...DEFAULTS, ...options }
  const free = pragmaNumber(db, 'freelist_count')
  const pages = pragmaNumber(db, 'page_count')
  if (free < minFreePages || pages === 0 || free / pages < minFreeRatio) return 'none'
  return pragmaNumber(db, 'auto_vacuum') === INCREMENTAL ? 'incremental' : 'full'
}

/** Frees up to `pages` free pages; returns how many remain free. */
function incrementalVacuumStep(db: Db, pages: number): number {
  db.pragma(`incremental_vacuum(${Math.max(1, Math.trunc(pages))})`)
  return pragmaNumber(db, 'freelist_count')
}

/** Rewrites the whole file; the only way to switch an older file to incremental auto-vacuum. */
function fullVacuum(db: Db): void {
  db.pragma('auto_vacuum = INCREMENTAL')
  db.exec('VACUUM')
}

/**
 * Checkpoint, reclaim if worth it, checkpoint again, as steps: each `next()` does one short
 * write (the job pauses between them). A full VACUUM is one long step; it happens once per
 * pre-schema-3 file, and only after a prune freed a fifth of it.
 */
export function* compactSteps(db: Db, options: CompactOptions = {}): Generator<void, CompactResult> {
  const { pagesPerStep } = { ...DEFAULTS, ...options }
  let checkpointed = checkpoint(db)
  const freePages = pragmaNumber(db, 'freelist_count')
  const pagesBefore = pragmaNumber(db, 'page_count')
  const vacuum = reclaimPlan(db, options)
  if (vacuum === 'incremental') {
    let left = freePages
    while (left > 0) {
      yield
      const next = incrementalVacuumStep(db, pagesPerStep)
      if (next >= left) break
      left = next
    }
  } else if (vacuum === 'full') {
    yield
    fullVacuum(db)
  }
  if (vacuum !== 'none') checkpointed = checkpoint(db)
  return { freePages, pagesBefore, pagesAfter: pragmaNumber(db, 'page_count'), vacuum, checkpointed }
}

/** compactSteps all at once. */
export function compact(db: Db, options: CompactOptions = {}): CompactResult {
  const steps = compactSteps(db, options)
  let step = steps.next()
  while (!step.done) step = steps.next()
  return step.value
}
