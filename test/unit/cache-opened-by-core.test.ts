// Only the store opens the cache, and only through the core does a face get it: a command that
// opened the file itself would go around the app API (its validation, roles and audit) and
// around the store's rules of a unit of work. The core's composition (app/start.ts) is the one
// caller outside store/ — every face, the CLI included, starts a core instead.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..')
const SRC = join(ROOT, 'src')
const OPENERS = /\b(openDatabase|openSqliteStore|openPgStore|openCache)\s*\(/
const ALLOWED = new Set(['src/main/core/app/start.ts'])

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|svelte)$/.test(entry.name) ? [path] : []
  })
}

/** The files outside src/main/core/store/ that call an opener of the cache. */
export function openersOutsideStore(files: readonly string[]): string[] {
  return files
    .map((file) => relative(ROOT, file).split('\\').join('/'))
    .filter((rel) => !rel.startsWith('src/main/core/store/') && !ALLOWED.has(rel))
    .filter((rel) => OPENERS.test(readFileSync(join(ROOT, rel), 'utf8')))
}

describe('who opens the cache', () => {
  it('no file outside core/store/ opens it, except the core\'s composition', () => {
    expect(openersOutsideStore(sourceFiles(SRC))).toEqual([])
  })

  it('would name a command that opened it itself', () => {
    const files = sourceFiles(SRC)
    const exportCommand = files.find((f) => f.endsWith(join('cli', 'commands', 'export.ts')))!
    const text = readFileSync(exportCommand, 'utf8')
    // The check reads the file's text: a command calling the opener is what it must catch.
    expect(OPENERS.test(text.replace('withReadSnapshot(file, body)', 'openDatabase(file)'))).toBe(true)
  })
})
