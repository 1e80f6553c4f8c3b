// The README gives a newcomer one apt line for everything its commands need. CI installs its list
// from .ci/run: the two must name the same packages, or a newcomer's `npm test` fails where CI's
// passes.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'

const root = join(__dirname, '../..')

/** The packages of the README's one `apt-get install` line. */
function readmePackages(): string[] {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').filter((l) => /apt-get install/.test(l))
  expect(lines).toHaveLength(1)
  return lines[0]!.replace(/^.*apt-get install\s+/, '').split(/\s+/).filter((w) => w && !w.startsWith('-'))
}

/** What .ci/run installs on a fresh machine: its `packages=(…)` and any `packages+=(…)`. */
function ciPackages(): string[] {
  const script = readFileSync(join(root, '.ci/run'), 'utf8')
  return [...script.matchAll(/^\s*packages\+?=\(([^)]*)\)/gm)].flatMap((m) => m[1]!.trim().split(/\s+/))
}

it("the README's apt line installs what CI installs", () => {
  const ci = ciPackages()
  expect(ci).toContain('postgresql') // the conditional addition is read too
  expect([...readmePackages()].sort()).toEqual([...new Set(ci)].sort())
})
